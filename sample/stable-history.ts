/**
 * The default sample history, a function of absolute time: everything about a calendar day
 * (its quotes, its sales, their times, prices, outliers and eBay ids) is drawn from random
 * streams named by the day's number since HISTORY_EPOCH, and each product's price walk runs
 * from that epoch. The end of the history only decides which rows are emitted, so a run with
 * a later `--end` repeats every row of the overlapping period byte for byte and adds only the
 * rows of the time that passed; ingest, being idempotent, then adds only those.
 *
 * Per product and day:
 * - the ungraded price follows a mean-reverting random walk around a slow drift line that
 *   passes through the catalog price on PRICE_ANCHOR; conditions are multiples of it;
 * - `ebay` sold listings: a Poisson number of sales (busier weekends, a market-wide daily
 *   factor), each in a condition drawn by sales rate, at a uniform second of the day; rare
 *   outliers: mis-keyed prices and lot sales;
 * - `pricecharting` quotes every guide column at 06:00Z, `tcgplayer` ungraded at 02:00Z;
 * - sparse products sell every few weeks on a schedule fixed from the epoch (sparse-sales.ts).
 */
import { DAY_MS, HOUR_MS, toUtcDate } from '../src/domain/time.js';
import { DayBuffer, type ObservationDay } from './day-buffer.js';
import {
  conditionSalesRate,
  EBAY,
  EBAY_ID_BASE,
  EBAY_ID_BLOCK,
  guideConditions,
  hasGuide,
  HISTORY_EPOCH,
  pickWeighted,
  PRICECHARTING,
  PRICECHARTING_HOUR,
  PRICECHARTING_NOISE,
  productConditions,
  roundPrice,
  SALE_NOISE,
  TCGPLAYER,
  TCGPLAYER_HOUR,
  TCGPLAYER_NOISE,
  walkSigma,
  weekdayFactor,
  withOutliers,
  WALK_REVERSION,
} from './feed-model.js';
import { conditionMultiplier, SAMPLE_CONDITIONS, UNGRADED_CONDITION } from './market-model.js';
import type { PlanBase } from './plan-base.js';
import { derivePrng, type Prng } from './prng.js';
import { sortedSales, sparseSales } from './sparse-sales.js';

/** The catalog prices are late-2025 levels: each product's drift line passes through its price on this day. */
export const PRICE_ANCHOR = Date.UTC(2025, 11, 1);

/** eBay ids of a day form one range: day number x (this many sales x id block). */
const MAX_SALES_PER_DAY = 500_000;
const DAY_ID_SPAN = MAX_SALES_PER_DAY * EBAY_ID_BLOCK;

/** A sample run: the day slots to emit, nothing decided in advance that depends on the end. */
export interface StablePlan extends PlanBase {
  mode: 'stable';
}

/** Checks that the history starts no earlier than the epoch its walks start from. */
export function planStable(base: PlanBase): StablePlan {
  if (base.start < HISTORY_EPOCH) {
    throw new RangeError(
      `the sample history cannot start before ${toUtcDate(HISTORY_EPOCH)} (got ${toUtcDate(base.start)}): use a later --end or fewer --days`,
    );
  }
  return { ...base, mode: 'stable' };
}

/** Number of the UTC day containing `ms`, counted from HISTORY_EPOCH. */
function dayNumber(ms: number): number {
  return Math.floor((ms - HISTORY_EPOCH) / DAY_MS);
}

/** Each product's price walk: log deviation from its drift line, advanced one day at a time. */
class PriceWalks {
  private readonly rngs: Prng[];
  private readonly deviation: Float64Array;
  private readonly drift: Float64Array;
  private readonly sigma: Float64Array;
  readonly level: Float64Array;
  private day = -1;

  constructor(
    private readonly products: StablePlan['products'],
    seed: string,
  ) {
    this.rngs = products.map((p) => derivePrng(seed, `walk:${p.key}`));
    this.sigma = Float64Array.from(products, walkSigma);
    this.drift = Float64Array.from(this.rngs, (rng) => rng.uniform(-0.1, 0.2) / 365);
    this.deviation = Float64Array.from(
      this.rngs,
      (rng, i) => (this.sigma[i]! / Math.sqrt(2 * WALK_REVERSION)) * rng.normal(),
    );
    this.level = new Float64Array(products.length);
  }

  /** Advances every walk to day `n` and sets `level` to that day's ungraded prices (cents). */
  advanceTo(n: number): void {
    const anchor = dayNumber(PRICE_ANCHOR);
    for (; this.day < n; this.day++) {
      for (let i = 0; i < this.products.length; i++) {
        this.deviation[i] =
          this.deviation[i]! * (1 - WALK_REVERSION) + this.sigma[i]! * this.rngs[i]!.normal();
      }
    }
    for (let i = 0; i < this.products.length; i++) {
      this.level[i] =
        this.products[i]!.ungradedMinor * Math.exp(this.deviation[i]! + this.drift[i]! * (n - anchor));
    }
  }
}

/**
 * Yields the observations of a sample plan one day at a time, oldest first (see
 * observationDays in generate.ts). Each day is generated whole and cut at the end.
 */
export function* stableDays(plan: StablePlan): Generator<ObservationDay> {
  const { products, start, end, daySlots, seed } = plan;
  const walks = new PriceWalks(products, seed);
  const multipliers = products.map((p) =>
    SAMPLE_CONDITIONS.map((c) => conditionMultiplier(c, p.era, p.gemRatio ?? 1)),
  );
  // Per product: the conditions it sells in and their cumulative sales rates (an empty list never sells).
  const selling = products.map((p) =>
    p.liquidity.kind === 'flow' ? productConditions(p).filter((c) => conditionSalesRate(p, c) > 0) : [],
  );
  const cumulative = products.map((p, i) => {
    let acc = 0;
    return Float64Array.from(selling[i]!, (c) => (acc += conditionSalesRate(p, c)));
  });
  const releaseDay = products.map((p) =>
    p.releaseDate === null ? -Infinity : dayNumber(Date.parse(`${p.releaseDate}T00:00:00Z`)),
  );
  const scheduled = sortedSales(
    products.flatMap((p, i) => sparseSales(p, i, seed, { origin: HISTORY_EPOCH, start, end })),
  );
  const buffer = new DayBuffer();
  let scheduledNext = 0;

  for (let d = 0; d < daySlots; d++) {
    const dayStart = start + d * DAY_MS;
    const n = dayNumber(dayStart);
    walks.advanceTo(n);
    const level = walks.level;
    const dayRng = derivePrng(seed, `day:${n}`);
    const activity = weekdayFactor(dayStart) * Math.exp(0.12 * dayRng.normal());
    buffer.size = 0;

    for (let i = 0; i < products.length; i++) {
      const p = products[i]!;
      if (p.liquidity.kind !== 'flow' || releaseDay[i]! > n) continue;
      const rng = derivePrng(seed, `${p.key}@${n}`);
      const multiplier = multipliers[i]!;
      if (hasGuide(p)) {
        for (const c of guideConditions(p)) {
          buffer.push(
            i,
            c,
            PRICECHARTING,
            dayStart + PRICECHARTING_HOUR * HOUR_MS,
            level[i]! * multiplier[c]! * Math.exp(PRICECHARTING_NOISE * rng.normal()),
          );
        }
        if (p.tcgplayer) {
          buffer.push(
            i,
            UNGRADED_CONDITION,
            TCGPLAYER,
            dayStart + TCGPLAYER_HOUR * HOUR_MS,
            level[i]! * Math.exp(TCGPLAYER_NOISE * rng.normal()),
          );
        }
      }
      const conditions = selling[i]!;
      const rates = cumulative[i]!;
      const sales = rng.poisson(rates[rates.length - 1]! * activity);
      for (let k = 0; k < sales; k++) {
        const c = conditions[pickWeighted(rates, rates.length, rng)]!;
        const at = dayStart + rng.int(0, DAY_MS / 1000 - 1) * 1000;
        const price = level[i]! * multiplier[c]! * Math.exp(SALE_NOISE[p.era] * rng.normal());
        buffer.push(i, c, EBAY, at, withOutliers(price, rng));
      }
    }
    while (scheduledNext < scheduled.length && scheduled[scheduledNext]!.at < dayStart + DAY_MS) {
      const s = scheduled[scheduledNext++]!;
      buffer.push(
        s.product,
        s.condition,
        EBAY,
        s.at,
        level[s.product]! * multipliers[s.product]![s.condition]! * s.noise,
      );
    }

    buffer.sort(dayStart);
    // Ids and rounding follow the whole day's time order, so they do not depend on where the
    // day is cut; ids rise with time like a marketplace's.
    let visible = 0;
    let saleIndex = 0;
    for (let k = 0; k < buffer.size; k++) {
      const index = buffer.order[k]!;
      const isSale = buffer.source[index] === EBAY;
      buffer.ebayId[index] = isSale
        ? EBAY_ID_BASE + n * DAY_ID_SPAN + saleIndex++ * EBAY_ID_BLOCK + dayRng.int(0, EBAY_ID_BLOCK - 1)
        : 0;
      buffer.price[index] = roundPrice(buffer.price[index]!, isSale, dayRng);
      if (buffer.at[index]! < end) visible = k + 1;
    }
    if (saleIndex > MAX_SALES_PER_DAY)
      throw new RangeError(
        `more than ${MAX_SALES_PER_DAY} sales in one day: use scale mode (--observations)`,
      );
    buffer.size = visible;
    yield buffer;
  }
}
