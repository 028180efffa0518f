/**
 * Pure generators of the sample data: catalog rows and a deterministic observation history.
 * No I/O and no clock: the end of the history and the seed are inputs, so the same options
 * always give the same rows in the same order.
 *
 * The history, day by day (oldest first, rows sorted by time within each day):
 * - each product's ungraded price follows a mean-reverting random walk around a slow drift,
 *   anchored so it ends near the catalog price; conditions are multiples of it;
 * - `ebay` sold listings: the day's sale count is fixed in advance (so a requested total is
 *   met exactly) and each sale picks a product and condition in proportion to its sales rate;
 *   rare outliers: a mis-keyed price (a hundredth or ten times the value) and lot sales;
 * - `pricecharting` quotes one price per product per guide column per day at 06:00Z, and
 *   `tcgplayer` a daily ungraded market price at 02:00Z for modern Pokemon and Magic products;
 * - sparse products sell every few weeks (no guide coverage); one product never trades.
 */
import { DAY_MS, HOUR_MS } from '../domain/time.js';
import type { Era, ProductType } from '../domain/product.js';
import {
  conditionMultiplier,
  GUIDE_CONDITIONS,
  SAMPLE_CONDITIONS,
  salesRate,
  UNGRADED_CONDITION,
  type SampleCondition,
} from './market-model.js';
import { derivePrng, type Prng } from './prng.js';
import { SAMPLE_PRODUCTS } from './products.js';
import { imageUrlFor, modelProducts, type ModelProduct } from './sample-products.js';

export const DEFAULT_SEED = 'oracle-sample-1';
/** More than the 400 days the issue asks for, so a year-ago snapshot has a month of context. */
export const DEFAULT_DAYS = 420;

export interface SampleOptions {
  /** End of the history (epoch ms); no observation is at or after it. */
  end: number;
  seed?: string;
  /** Whole UTC days of history before the day of `end`. */
  days?: number;
  /** Number of products: the real catalog first, then synthetic variants. */
  products?: number;
  /** Exact number of observation rows; default: what the catalog's sales rates give. */
  observations?: number;
  /** When set, the first product gets exactly this many observations (and no other feed). */
  hotProductObservations?: number;
}

/** A data/catalog.csv row, named as the CSV header names its columns. */
export interface CatalogRow {
  product_key: string;
  refsource_id: string;
  product_name: string;
  subtitle: string;
  set_name: string;
  image_url: string;
  product_type: ProductType;
  era: Era;
  release_date: string;
}

export const CATALOG_COLUMNS: readonly (keyof CatalogRow)[] = [
  'product_key',
  'refsource_id',
  'product_name',
  'subtitle',
  'set_name',
  'image_url',
  'product_type',
  'era',
  'release_date',
];

export const OBSERVATION_COLUMNS = ['product_key', 'source', 'observed_at', 'price_minor', 'grader', 'grade', 'external_id'] as const;

/** One observation row; `grader` is empty and `grade` null for ungraded. */
export interface ObservationRow {
  productKey: string;
  source: string;
  observedAt: number;
  priceMinor: number;
  grader: SampleCondition['grader'];
  grade: number | null;
  externalId: string | null;
}

export const SOURCES = ['ebay', 'pricecharting', 'tcgplayer'] as const;
const EBAY = 0;
const PRICECHARTING = 1;
const TCGPLAYER = 2;

/** Guide publication times within the UTC day. */
const PRICECHARTING_HOUR = 6;
const TCGPLAYER_HOUR = 2;
/** With an explicit total, daily quotes may take at most this share; past it they thin out to every k days. */
const GUIDE_MAX_SHARE = 0.6;

/** Outlier rates of marketplace sales (per sale). */
const MISKEY_RATE = 0.002;
const LOT_RATE = 0.002;

/** Price noise (log-normal sigma) per feed: listings scatter, guides are smoothed. */
const SALE_NOISE: Record<Era, number> = { modern: 0.05, vintage: 0.07 };
const PRICECHARTING_NOISE = 0.012;
const TCGPLAYER_NOISE = 0.02;

/** Daily log-volatility and mean reversion of the price walk (stationary spread ~6%). */
const WALK_SIGMA: Record<Era, number> = { modern: 0.015, vintage: 0.01 };
const SEALED_WALK_SIGMA = 0.008;
const WALK_REVERSION = 0.03;

/** A sale placed in advance: sparse products' rare sales and the demo's recent outliers. */
interface ScheduledSale {
  product: number;
  condition: number;
  at: number;
  /** Price factor on the model price: 1 for a normal sale, 0.01 mis-keyed, 4 a lot of four. */
  factor: number;
}

/** Everything decided before the first row: products, day slots, counts per feed. */
export interface SamplePlan {
  seed: string;
  start: number;
  end: number;
  products: ModelProduct[];
  /** Number of day slots: `days` whole days plus the (possibly empty) day of `end`. */
  daySlots: number;
  /** Price-guide quotes every `guideEvery` days counted back from the last day; 0 = none. */
  guideEvery: number;
  guideRows: number;
  scheduled: ScheduledSale[];
  flowRows: number;
  hotRows: number;
  /** Index of the hot product, or null. */
  hot: number | null;
  /** Marketplace sales per day slot (the flow, then the hot product): fixed so totals are exact. */
  flowPerDay: Float64Array;
  hotPerDay: Float64Array;
  /** Exact number of rows observationRows() yields. */
  totalRows: number;
}

function isGraded(p: ModelProduct): boolean {
  return p.gemRatio !== null;
}

/** Conditions a product can appear in: sealed products are ungraded only. */
function productConditions(p: ModelProduct): readonly number[] {
  return isGraded(p) ? SAMPLE_CONDITIONS.map((_, i) => i) : [UNGRADED_CONDITION];
}

function guideConditions(p: ModelProduct): readonly number[] {
  return isGraded(p) ? GUIDE_CONDITIONS : [UNGRADED_CONDITION];
}

function hasGuide(p: ModelProduct): boolean {
  return p.liquidity.kind === 'flow';
}

function ungradedPerDay(p: ModelProduct): number {
  return p.liquidity.kind === 'flow' ? p.liquidity.salesPerDay : 0;
}

/** Expected marketplace sales a day of a product, over all its conditions. */
function productSalesRate(p: ModelProduct): number {
  return productConditions(p).reduce((sum, c) => sum + salesRate(SAMPLE_CONDITIONS[c]!, p.era, ungradedPerDay(p), isGraded(p)), 0);
}

/** Index of the first day slot on which the product trades (its release day). */
function activeFrom(p: ModelProduct, start: number): number {
  if (p.releaseDate === null) return 0;
  return Math.max(0, Math.ceil((Date.parse(`${p.releaseDate}T00:00:00Z`) - start) / DAY_MS));
}

/** Picks an index with probability proportional to its weight, from cumulative weights. */
function pickWeighted(cumulative: Float64Array, count: number, rng: Prng): number {
  const target = rng.next() * cumulative[count - 1]!;
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cumulative[mid]! > target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Splits `total` over slots in proportion to `weights`, exactly (cumulative rounding). */
function apportion(total: number, weights: Float64Array): Float64Array {
  const counts = new Float64Array(weights.length);
  let sum = 0;
  for (const w of weights) sum += w;
  if (total > 0 && !(sum > 0)) throw new RangeError('no product can take the requested observations');
  let cumulative = 0;
  let placed = 0;
  for (let i = 0; i < weights.length; i++) {
    cumulative += weights[i]!;
    const upTo = i === weights.length - 1 ? total : Math.round((total * cumulative) / sum);
    counts[i] = upTo - placed;
    placed = upTo;
  }
  return counts;
}

/** Rare sales of sparse products, a few weeks apart, walking back from `lastSaleDaysAgo`. */
function sparseSales(p: ModelProduct, index: number, plan: { seed: string; start: number; end: number }): ScheduledSale[] {
  if (p.liquidity.kind !== 'sparse') return [];
  const rng = derivePrng(plan.seed, `sparse:${p.key}`);
  const conditions = productConditions(p).filter((c) => salesRate(SAMPLE_CONDITIONS[c]!, p.era, 1, isGraded(p)) > 0);
  const rates = new Float64Array(conditions.length);
  let acc = 0;
  conditions.forEach((c, i) => (rates[i] = acc += salesRate(SAMPLE_CONDITIONS[c]!, p.era, 1, isGraded(p))));
  const sales: ScheduledSale[] = [];
  for (let day = plan.end - p.liquidity.lastSaleDaysAgo * DAY_MS; day >= plan.start; day -= rng.uniform(14, 50) * DAY_MS) {
    const copies = rng.next() < 0.25 ? 2 : 1;
    for (let k = 0; k < copies; k++) {
      const at = Math.floor(Math.min(plan.end - 1, day + rng.uniform(-0.4, 0.4) * DAY_MS) / 1000) * 1000;
      if (at < plan.start) continue;
      sales.push({ product: index, condition: conditions[pickWeighted(rates, conditions.length, rng)]!, at, factor: 1 });
    }
  }
  return sales;
}

/**
 * Two outliers a few hours before the end, so the default 24 h window of the demo shows
 * excluded points: a mis-keyed Base Set Charizard and a lot of four Moonbreons.
 */
function demoOutliers(products: ModelProduct[], end: number, hot: number | null): ScheduledSale[] {
  const demo = [
    { key: 'pokemon-base-set-charizard-4-102', hoursBefore: 3, factor: 0.01 },
    { key: 'pokemon-evolving-skies-umbreon-vmax-215-203', hoursBefore: 5, factor: 4 },
  ];
  return demo.flatMap(({ key, hoursBefore, factor }) => {
    const product = products.findIndex((p) => p.key === key);
    if (product < 0 || product === hot) return [];
    return [{ product, condition: UNGRADED_CONDITION, at: end - hoursBefore * HOUR_MS - 17 * 60_000, factor }];
  });
}

function floorToDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** Busier weekends and a little day-to-day noise, times the covered share of the day. */
function dayFactors(start: number, end: number, daySlots: number, seed: string): Float64Array {
  const rng = derivePrng(seed, 'days');
  const factors = new Float64Array(daySlots);
  for (let i = 0; i < daySlots; i++) {
    const dayStart = start + i * DAY_MS;
    const covered = Math.max(0, Math.min(DAY_MS, end - dayStart)) / DAY_MS;
    const weekday = new Date(dayStart).getUTCDay();
    const weekdayFactor = weekday === 0 ? 1.15 : weekday === 6 ? 1.1 : 0.95;
    factors[i] = weekdayFactor * Math.exp(0.12 * rng.normal()) * covered;
  }
  return factors;
}

function validateCount(name: string, value: number | undefined, min: number): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < min)) {
    throw new RangeError(`${name} must be an integer >= ${min} (got ${value})`);
  }
}

/**
 * Decides everything about a run before any row exists: products, day slots, the guide
 * cadence and the exact row count of every feed. Throws RangeError on impossible options.
 */
export function planSample(options: SampleOptions): SamplePlan {
  const seed = options.seed ?? DEFAULT_SEED;
  const days = options.days ?? DEFAULT_DAYS;
  const productCount = options.products ?? SAMPLE_PRODUCTS.length;
  validateCount('days', days, 1);
  validateCount('products', productCount, 1);
  validateCount('observations', options.observations, 0);
  validateCount('hot product observations', options.hotProductObservations, 1);
  if (!Number.isFinite(options.end)) throw new RangeError('end must be a valid time');

  const end = options.end;
  const start = floorToDay(end) - days * DAY_MS;
  const daySlots = days + 1;
  const products = modelProducts(productCount, seed);
  const hot = options.hotProductObservations !== undefined ? 0 : null;
  const hotRows = options.hotProductObservations ?? 0;

  const scheduled = [
    ...products.flatMap((p, i) => (i === hot ? [] : sparseSales(p, i, { seed, start, end }))),
    ...demoOutliers(products, end, hot),
  ].sort((a, b) => a.at - b.at || a.product - b.product);

  const guideRowsByDay = new Float64Array(daySlots);
  const flowWeights = new Float64Array(daySlots);
  products.forEach((p, i) => {
    if (i === hot) return;
    const from = activeFrom(p, start);
    const rate = productSalesRate(p);
    for (let d = from; d < daySlots; d++) {
      flowWeights[d]! += rate;
      if (!hasGuide(p)) continue;
      const dayStart = start + d * DAY_MS;
      if (dayStart + PRICECHARTING_HOUR * HOUR_MS < end) guideRowsByDay[d]! += guideConditions(p).length;
      if (p.tcgplayer && dayStart + TCGPLAYER_HOUR * HOUR_MS < end) guideRowsByDay[d]! += 1;
    }
  });
  const factors = dayFactors(start, end, daySlots, seed);
  for (let d = 0; d < daySlots; d++) flowWeights[d]! *= factors[d]!;

  const guideRowsEvery = (k: number): number => {
    let rows = 0;
    for (let d = daySlots - 1; d >= 0; d -= k) rows += guideRowsByDay[d]!;
    return rows;
  };

  let guideEvery = 1;
  let flowRows: number;
  if (options.observations === undefined) {
    flowRows = Math.round(flowWeights.reduce((a, b) => a + b, 0));
  } else {
    const available = options.observations - scheduled.length - hotRows;
    if (available < 0) {
      throw new RangeError(`observations must be at least ${scheduled.length + hotRows} with these options (got ${options.observations})`);
    }
    const budget = Math.floor(available * GUIDE_MAX_SHARE);
    guideEvery = 0;
    for (let k = 1; k <= daySlots; k++) {
      if (guideRowsEvery(k) <= budget) {
        guideEvery = k;
        break;
      }
    }
    flowRows = available - (guideEvery ? guideRowsEvery(guideEvery) : 0);
  }
  const guideRows = guideEvery ? guideRowsEvery(guideEvery) : 0;
  return {
    hot,
    flowPerDay: apportion(flowRows, flowWeights),
    hotPerDay: apportion(hotRows, factors),
    seed,
    start,
    end,
    products,
    daySlots,
    guideEvery,
    guideRows,
    scheduled,
    flowRows,
    hotRows,
    totalRows: guideRows + scheduled.length + flowRows + hotRows,
  };
}

/** The catalog rows of a plan, in product order. */
export function catalogRows(plan: Pick<SamplePlan, 'products'>): CatalogRow[] {
  return plan.products.map((p) => ({
    product_key: p.key,
    refsource_id: p.refsourceId,
    product_name: p.name,
    subtitle: p.subtitle,
    set_name: p.setName,
    image_url: imageUrlFor(p.key),
    product_type: p.productType,
    era: p.era,
    release_date: p.releaseDate ?? '',
  }));
}

/**
 * Picks (product, condition) cells in proportion to their sales rates in O(1) with Walker's
 * alias method: a binary search over a large cumulative array costs a cache miss per step,
 * which dominated generation at 10k products.
 */
class CellPicker {
  readonly products: Int32Array;
  readonly conditions: Uint8Array;
  private readonly threshold: Float64Array;
  private readonly alias: Int32Array;
  readonly count: number;

  constructor(cells: { product: number; condition: number; rate: number }[]) {
    const live = cells.filter((c) => c.rate > 0);
    const n = (this.count = live.length);
    this.products = Int32Array.from(live, (c) => c.product);
    this.conditions = Uint8Array.from(live, (c) => c.condition);
    this.threshold = new Float64Array(n).fill(1);
    this.alias = Int32Array.from(live, (_, i) => i);
    const total = live.reduce((sum, c) => sum + c.rate, 0);
    const scaled = Float64Array.from(live, (c) => (c.rate * n) / total);
    const small: number[] = [];
    const large: number[] = [];
    scaled.forEach((w, i) => (w < 1 ? small : large).push(i));
    while (small.length > 0 && large.length > 0) {
      const s = small.pop()!;
      const l = large.pop()!;
      this.threshold[s] = scaled[s]!;
      this.alias[s] = l;
      scaled[l] = scaled[l]! + scaled[s]! - 1;
      (scaled[l]! < 1 ? small : large).push(l);
    }
  }

  pick(rng: Prng): number {
    const u = rng.next() * this.count;
    const k = Math.floor(u);
    return u - k < this.threshold[k]! ? k : this.alias[k]!;
  }
}

function cellsOf(products: ModelProduct[], indexes: number[]): { product: number; condition: number; rate: number }[] {
  return indexes.flatMap((i) => {
    const p = products[i]!;
    return productConditions(p).map((condition) => ({
      product: i,
      condition,
      rate: salesRate(SAMPLE_CONDITIONS[condition]!, p.era, Math.max(ungradedPerDay(p), 1e-9), isGraded(p)),
    }));
  });
}

/**
 * One day of observations in columns. `order` lists row indexes by time (ties in insertion
 * order); prices are whole cents; `ebayId` is the numeric part of a sale's external id (0 for
 * quotes). Writers read the columns directly, which spares an object per row at scale.
 */
export interface ObservationDay {
  size: number;
  order: Float64Array;
  product: Int32Array;
  condition: Uint8Array;
  source: Uint8Array;
  at: Float64Array;
  price: Float64Array;
  ebayId: Float64Array;
}

/** The day's rows, in parallel arrays that grow as needed and are reused from day to day. */
class DayBuffer implements ObservationDay {
  size = 0;
  order = new Float64Array(1024);
  product = new Int32Array(1024);
  condition = new Uint8Array(1024);
  source = new Uint8Array(1024);
  at = new Float64Array(1024);
  price = new Float64Array(1024);
  ebayId = new Float64Array(1024);

  push(product: number, condition: number, source: number, at: number, price: number): void {
    if (this.size === this.product.length) this.grow();
    const i = this.size++;
    this.product[i] = product;
    this.condition[i] = condition;
    this.source[i] = source;
    this.at[i] = at;
    this.price[i] = price;
  }

  /** Sorts `order` by time; the key packs the second of the day and the row index. */
  sort(dayStart: number): void {
    if (this.size >= 2 ** 24) throw new RangeError('more than 16.7 million observations in one day: use more --days');
    const keys = this.order.subarray(0, this.size);
    for (let i = 0; i < this.size; i++) keys[i] = Math.floor((this.at[i]! - dayStart) / 1000) * 2 ** 24 + i;
    keys.sort();
    for (let i = 0; i < this.size; i++) keys[i] = keys[i]! % 2 ** 24;
  }

  private grow(): void {
    const n = this.product.length * 2;
    const grown = <T extends Int32Array | Uint8Array | Float64Array>(a: T, b: T): T => {
      b.set(a);
      return b;
    };
    this.product = grown(this.product, new Int32Array(n));
    this.condition = grown(this.condition, new Uint8Array(n));
    this.source = grown(this.source, new Uint8Array(n));
    this.at = grown(this.at, new Float64Array(n));
    this.price = grown(this.price, new Float64Array(n));
    this.order = new Float64Array(n);
    this.ebayId = new Float64Array(n);
  }
}

/** eBay item ids: 12 digits, unique because each row owns its own block of 97 ids. */
const EBAY_ID_BASE = 110_000_000_000;
const EBAY_ID_BLOCK = 97;

/**
 * Yields the observations of a plan one day at a time, oldest first. The yielded object is
 * reused: read it before asking for the next day. Memory stays proportional to the number of
 * products and one day's rows, not to the total.
 */
export function* observationDays(plan: SamplePlan): Generator<ObservationDay> {
  const { products, start, end, daySlots, seed, hot } = plan;
  const walkRng = derivePrng(seed, 'walk');
  const saleRng = derivePrng(seed, 'sales');
  const quoteRng = derivePrng(seed, 'quotes');
  const emitRng = derivePrng(seed, 'emit');

  // Price walk state: log deviation from the drift line, per product.
  const deviation = new Float64Array(products.length);
  const drift = new Float64Array(products.length);
  const sigma = new Float64Array(products.length);
  products.forEach((p, i) => {
    sigma[i] = p.productType === 'booster_box' ? SEALED_WALK_SIGMA : WALK_SIGMA[p.era];
    drift[i] = walkRng.uniform(-0.1, 0.2) / 365;
    deviation[i] = (sigma[i]! / Math.sqrt(2 * WALK_REVERSION)) * walkRng.normal();
  });
  // Flat per-product tables: typed arrays keep the per-sale loop monomorphic.
  const conditionCount = SAMPLE_CONDITIONS.length;
  const multipliers = new Float64Array(products.length * conditionCount);
  products.forEach((p, i) =>
    SAMPLE_CONDITIONS.forEach((c, k) => (multipliers[i * conditionCount + k] = conditionMultiplier(c, p.era, p.gemRatio ?? 1))),
  );
  const saleNoise = Float64Array.from(products, (p) => SALE_NOISE[p.era]);
  const activeFromDay = products.map((p) => activeFrom(p, start));

  const flowIndexes = (day: number) => products.flatMap((p, i) => (i !== hot && p.liquidity.kind === 'flow' && activeFromDay[i]! <= day ? [i] : []));
  let flowPicker = new CellPicker(cellsOf(products, flowIndexes(0)));
  const hotPicker = hot === null ? null : new CellPicker(cellsOf(products, [hot]));

  const level = new Float64Array(products.length);
  const buffer = new DayBuffer();
  let scheduledNext = 0;
  let ebayCount = 0;

  for (let d = 0; d < daySlots; d++) {
    const dayStart = start + d * DAY_MS;
    const dayEnd = Math.min(dayStart + DAY_MS, end);
    for (let i = 0; i < products.length; i++) {
      deviation[i] = deviation[i]! * (1 - WALK_REVERSION) + sigma[i]! * walkRng.normal();
      level[i] = products[i]!.ungradedMinor * Math.exp(deviation[i]! + drift[i]! * (d - (daySlots - 1)));
    }
    if (d > 0 && activeFromDay.includes(d)) flowPicker = new CellPicker(cellsOf(products, flowIndexes(d)));

    buffer.size = 0;
    const span = dayEnd - dayStart;
    const isGuideDay = plan.guideEvery > 0 && (daySlots - 1 - d) % plan.guideEvery === 0;
    if (isGuideDay) {
      for (let i = 0; i < products.length; i++) {
        const p = products[i]!;
        if (i === hot || !hasGuide(p) || activeFromDay[i]! > d) continue;
        const quotedAt = dayStart + PRICECHARTING_HOUR * HOUR_MS;
        if (quotedAt < end) {
          for (const c of guideConditions(p)) {
            buffer.push(i, c, PRICECHARTING, quotedAt, level[i]! * multipliers[i * conditionCount + c]! * Math.exp(PRICECHARTING_NOISE * quoteRng.normal()));
          }
        }
        const tcgAt = dayStart + TCGPLAYER_HOUR * HOUR_MS;
        if (p.tcgplayer && tcgAt < end) {
          buffer.push(i, UNGRADED_CONDITION, TCGPLAYER, tcgAt, level[i]! * Math.exp(TCGPLAYER_NOISE * quoteRng.normal()));
        }
      }
    }
    while (scheduledNext < plan.scheduled.length && plan.scheduled[scheduledNext]!.at < dayEnd) {
      const s = plan.scheduled[scheduledNext++]!;
      const noise = Math.exp(saleNoise[s.product]! * saleRng.normal());
      buffer.push(s.product, s.condition, EBAY, s.at, level[s.product]! * multipliers[s.product * conditionCount + s.condition]! * noise * s.factor);
    }
    const pushSales = (picker: CellPicker, count: number) => {
      for (let n = 0; n < count; n++) {
        const cell = picker.pick(saleRng);
        const i = picker.products[cell]!;
        const c = picker.conditions[cell]!;
        const at = dayStart + Math.floor(saleRng.next() * (span / 1000)) * 1000;
        let price = level[i]! * multipliers[i * conditionCount + c]! * Math.exp(saleNoise[i]! * saleRng.normal());
        const roll = saleRng.next();
        if (roll < MISKEY_RATE) price = saleRng.next() < 0.5 ? price / 100 : price * 10;
        else if (roll < MISKEY_RATE + LOT_RATE) price *= saleRng.int(3, 6);
        buffer.push(i, c, EBAY, at, price);
      }
    };
    pushSales(flowPicker, plan.flowPerDay[d]!);
    if (hotPicker) pushSales(hotPicker, plan.hotPerDay[d]!);

    buffer.sort(dayStart);
    // Ids and rounding follow the sorted order, so ids rise with time like a marketplace's.
    for (let n = 0; n < buffer.size; n++) {
      const index = buffer.order[n]!;
      const isSale = buffer.source[index] === EBAY;
      buffer.ebayId[index] = isSale ? EBAY_ID_BASE + ebayCount++ * EBAY_ID_BLOCK + emitRng.int(0, EBAY_ID_BLOCK - 1) : 0;
      buffer.price[index] = roundPrice(buffer.price[index]!, isSale, emitRng);
    }
    yield buffer;
  }
}

/** Yields every observation row of a plan as an object, oldest first (see observationDays). */
export function* observationRows(plan: SamplePlan): Generator<ObservationRow> {
  for (const day of observationDays(plan)) {
    for (let n = 0; n < day.size; n++) {
      const index = day.order[n]!;
      const condition = SAMPLE_CONDITIONS[day.condition[index]!]!;
      const ebayId = day.ebayId[index]!;
      yield {
        productKey: plan.products[day.product[index]!]!.key,
        source: SOURCES[day.source[index]!]!,
        observedAt: day.at[index]!,
        priceMinor: day.price[index]!,
        grader: condition.grader,
        grade: condition.grade,
        externalId: ebayId ? `ebay-${ebayId}` : null,
      };
    }
  }
}

/** Cents, at least 1; most sellers price items over $100 in whole dollars. */
function roundPrice(price: number, isSale: boolean, rng: Prng): number {
  if (isSale && price >= 10_000 && rng.next() < 0.6) return Math.round(price / 100) * 100;
  return Math.max(1, Math.round(price));
}
