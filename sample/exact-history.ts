/**
 * Scale mode (benchmarks): a history with an exact number of rows, optionally an exact number
 * for one hot product. Row counts are fixed per day before the first row, and every random
 * stream runs from the start of the history, so the rows depend on `end`: unlike the
 * default sample (stable-history.ts), regenerating with a later end gives a different history.
 *
 * - each product's ungraded price follows a mean-reverting random walk around a slow drift,
 *   anchored so it ends near the catalog price; conditions are multiples of it;
 * - `ebay` sold listings: the day's sale count is fixed in advance (so a requested total is
 *   met exactly) and each sale picks a product and condition in proportion to its sales rate;
 * - guide quotes as in the sample, thinned out to every k days when they would take more than
 *   their share of the requested total.
 */
import { DAY_MS, HOUR_MS } from '../src/domain/time.js';
import { DayBuffer, type ObservationDay } from './day-buffer.js';
import {
  EBAY,
  EBAY_ID_BASE,
  EBAY_ID_BLOCK,
  guideConditions,
  hasGuide,
  HISTORY_EPOCH,
  PRICECHARTING,
  PRICECHARTING_HOUR,
  PRICECHARTING_NOISE,
  productConditions,
  productSalesRate,
  conditionSalesRate,
  roundPrice,
  SALE_NOISE,
  TCGPLAYER,
  TCGPLAYER_HOUR,
  TCGPLAYER_NOISE,
  ungradedPerDay,
  walkSigma,
  weekdayFactor,
  withOutliers,
  WALK_REVERSION,
} from './feed-model.js';
import { conditionMultiplier, SAMPLE_CONDITIONS, UNGRADED_CONDITION } from './market-model.js';
import type { PlanBase } from './plan-base.js';
import { derivePrng, type Prng } from './prng.js';
import type { ModelProduct } from './sample-products.js';
import { sortedSales, sparseSales, type ScheduledSale } from './sparse-sales.js';

/** With an explicit total, daily quotes may take at most this share; past it they thin out to every k days. */
const GUIDE_MAX_SHARE = 0.6;

/** Everything decided before the first row of a scale-mode run: the exact row count of every feed. */
export interface ExactPlan extends PlanBase {
  mode: 'exact';
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
  /** Exact number of rows the history has. */
  totalRows: number;
}

/** Index of the first day slot on which the product trades (its release day). */
function activeFrom(p: ModelProduct, start: number): number {
  if (p.releaseDate === null) return 0;
  return Math.max(0, Math.ceil((Date.parse(`${p.releaseDate}T00:00:00Z`) - start) / DAY_MS));
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

/** Weekday and day-to-day noise factors, times the covered share of the day. */
function dayFactors(base: PlanBase): Float64Array {
  const rng = derivePrng(base.seed, 'days');
  const factors = new Float64Array(base.daySlots);
  for (let i = 0; i < base.daySlots; i++) {
    const dayStart = base.start + i * DAY_MS;
    const covered = Math.max(0, Math.min(DAY_MS, base.end - dayStart)) / DAY_MS;
    factors[i] = weekdayFactor(dayStart) * Math.exp(0.12 * rng.normal()) * covered;
  }
  return factors;
}

/**
 * Plans a scale-mode run: the guide cadence and the exact row count of every feed and day.
 * Throws RangeError when the total cannot hold the hot product and the sparse sales.
 */
export function planExact(
  base: PlanBase,
  observations: number | undefined,
  hotProductObservations: number | undefined,
): ExactPlan {
  const { products, start, end, daySlots, seed } = base;
  const hot = hotProductObservations !== undefined ? 0 : null;
  const hotRows = hotProductObservations ?? 0;
  const origin = Math.min(HISTORY_EPOCH, start);
  const scheduled = sortedSales(
    products.flatMap((p, i) => (i === hot ? [] : sparseSales(p, i, seed, { origin, start, end }))),
  );

  const guideRowsByDay = new Float64Array(daySlots);
  const flowWeights = new Float64Array(daySlots);
  products.forEach((p, i) => {
    if (i === hot) return;
    const rate = productSalesRate(p);
    for (let d = activeFrom(p, start); d < daySlots; d++) {
      flowWeights[d]! += rate;
      if (!hasGuide(p)) continue;
      const dayStart = start + d * DAY_MS;
      if (dayStart + PRICECHARTING_HOUR * HOUR_MS < end) guideRowsByDay[d]! += guideConditions(p).length;
      if (p.tcgplayer && dayStart + TCGPLAYER_HOUR * HOUR_MS < end) guideRowsByDay[d]! += 1;
    }
  });
  const factors = dayFactors(base);
  for (let d = 0; d < daySlots; d++) flowWeights[d]! *= factors[d]!;

  const guideRowsEvery = (k: number): number => {
    let rows = 0;
    for (let d = daySlots - 1; d >= 0; d -= k) rows += guideRowsByDay[d]!;
    return rows;
  };

  let guideEvery = 1;
  let flowRows: number;
  if (observations === undefined) {
    flowRows = Math.round(flowWeights.reduce((a, b) => a + b, 0));
  } else {
    const available = observations - scheduled.length - hotRows;
    if (available < 0) {
      throw new RangeError(
        `observations must be at least ${scheduled.length + hotRows} with these options (got ${observations})`,
      );
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
    ...base,
    mode: 'exact',
    hot,
    flowPerDay: apportion(flowRows, flowWeights),
    hotPerDay: apportion(hotRows, factors),
    guideEvery,
    guideRows,
    scheduled,
    flowRows,
    hotRows,
    totalRows: guideRows + scheduled.length + flowRows + hotRows,
  };
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

function cellsOf(
  products: ModelProduct[],
  indexes: number[],
): { product: number; condition: number; rate: number }[] {
  return indexes.flatMap((i) => {
    const p = products[i]!;
    return productConditions(p).map((condition) => ({
      product: i,
      condition,
      rate: conditionSalesRate(p, condition, Math.max(ungradedPerDay(p), 1e-9)),
    }));
  });
}

/**
 * Yields the observations of a scale-mode plan one day at a time, oldest first (see
 * observationDays in generate.ts). Exactly `plan.totalRows` rows in all.
 */
export function* exactDays(plan: ExactPlan): Generator<ObservationDay> {
  const { products, start, end, daySlots, seed, hot } = plan;
  const walkRng = derivePrng(seed, 'walk');
  const saleRng = derivePrng(seed, 'sales');
  const quoteRng = derivePrng(seed, 'quotes');
  const emitRng = derivePrng(seed, 'emit');

  // Price walk state: log deviation from the drift line, per product.
  const deviation = new Float64Array(products.length);
  const drift = new Float64Array(products.length);
  const sigma = Float64Array.from(products, walkSigma);
  products.forEach((_, i) => {
    drift[i] = walkRng.uniform(-0.1, 0.2) / 365;
    deviation[i] = (sigma[i]! / Math.sqrt(2 * WALK_REVERSION)) * walkRng.normal();
  });
  // Flat per-product tables: typed arrays keep the per-sale loop monomorphic.
  const conditionCount = SAMPLE_CONDITIONS.length;
  const multipliers = new Float64Array(products.length * conditionCount);
  products.forEach((p, i) =>
    SAMPLE_CONDITIONS.forEach(
      (c, k) => (multipliers[i * conditionCount + k] = conditionMultiplier(c, p.era, p.gemRatio ?? 1)),
    ),
  );
  const saleNoise = Float64Array.from(products, (p) => SALE_NOISE[p.era]);
  const activeFromDay = products.map((p) => activeFrom(p, start));

  const flowIndexes = (day: number) =>
    products.flatMap((p, i) =>
      i !== hot && p.liquidity.kind === 'flow' && activeFromDay[i]! <= day ? [i] : [],
    );
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
            buffer.push(
              i,
              c,
              PRICECHARTING,
              quotedAt,
              level[i]! *
                multipliers[i * conditionCount + c]! *
                Math.exp(PRICECHARTING_NOISE * quoteRng.normal()),
            );
          }
        }
        const tcgAt = dayStart + TCGPLAYER_HOUR * HOUR_MS;
        if (p.tcgplayer && tcgAt < end) {
          buffer.push(
            i,
            UNGRADED_CONDITION,
            TCGPLAYER,
            tcgAt,
            level[i]! * Math.exp(TCGPLAYER_NOISE * quoteRng.normal()),
          );
        }
      }
    }
    while (scheduledNext < plan.scheduled.length && plan.scheduled[scheduledNext]!.at < dayEnd) {
      const s = plan.scheduled[scheduledNext++]!;
      buffer.push(
        s.product,
        s.condition,
        EBAY,
        s.at,
        level[s.product]! * multipliers[s.product * conditionCount + s.condition]! * s.noise,
      );
    }
    const pushSales = (picker: CellPicker, count: number) => {
      for (let n = 0; n < count; n++) {
        const cell = picker.pick(saleRng);
        const i = picker.products[cell]!;
        const c = picker.conditions[cell]!;
        const at = dayStart + Math.floor(saleRng.next() * (span / 1000)) * 1000;
        const price =
          level[i]! * multipliers[i * conditionCount + c]! * Math.exp(saleNoise[i]! * saleRng.normal());
        buffer.push(i, c, EBAY, at, withOutliers(price, saleRng));
      }
    };
    pushSales(flowPicker, plan.flowPerDay[d]!);
    if (hotPicker) pushSales(hotPicker, plan.hotPerDay[d]!);

    buffer.sort(dayStart);
    // Ids and rounding follow the sorted order, so ids rise with time like a marketplace's.
    for (let n = 0; n < buffer.size; n++) {
      const index = buffer.order[n]!;
      const isSale = buffer.source[index] === EBAY;
      buffer.ebayId[index] = isSale
        ? EBAY_ID_BASE + ebayCount++ * EBAY_ID_BLOCK + emitRng.int(0, EBAY_ID_BLOCK - 1)
        : 0;
      buffer.price[index] = roundPrice(buffer.price[index]!, isSale, emitRng);
    }
    yield buffer;
  }
}
