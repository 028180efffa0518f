/**
 * What both history generators (the time-stable sample and the exact-count scale mode) share:
 * the feeds, their publication hours and noise, outlier rates, the price walk's parameters,
 * and which conditions and feeds a product appears in.
 */
import type { Era } from '../src/domain/product.js';
import { GUIDE_CONDITIONS, SAMPLE_CONDITIONS, salesRate, UNGRADED_CONDITION } from './market-model.js';
import type { Prng } from './prng.js';
import type { ModelProduct } from './sample-products.js';

export const SOURCES = ['ebay', 'pricecharting', 'tcgplayer'] as const;
export const EBAY = 0;
export const PRICECHARTING = 1;
export const TCGPLAYER = 2;

/**
 * Day 0 of the sample's absolute time line: its price walks start here and every day's
 * random numbers are drawn from a stream named by the day's number since this date.
 */
export const HISTORY_EPOCH = Date.UTC(2020, 0, 1);

/** Guide publication times within the UTC day. */
export const PRICECHARTING_HOUR = 6;
export const TCGPLAYER_HOUR = 2;

/** Outlier rates of marketplace sales (per sale). */
export const MISKEY_RATE = 0.002;
export const LOT_RATE = 0.002;

/** Price noise (log-normal sigma) per feed: listings scatter, guides are smoothed. */
export const SALE_NOISE: Record<Era, number> = { modern: 0.05, vintage: 0.07 };
export const PRICECHARTING_NOISE = 0.012;
export const TCGPLAYER_NOISE = 0.02;

/** Daily log-volatility and mean reversion of the price walk (stationary spread ~6%). */
const WALK_SIGMA: Record<Era, number> = { modern: 0.015, vintage: 0.01 };
const SEALED_WALK_SIGMA = 0.008;
export const WALK_REVERSION = 0.03;

/** eBay item ids: 12 digits; each sale owns a block of 97 ids and takes one at random. */
export const EBAY_ID_BASE = 110_000_000_000;
export const EBAY_ID_BLOCK = 97;

/** Daily log-volatility of a product's price walk. */
export function walkSigma(p: ModelProduct): number {
  return p.productType === 'booster_box' ? SEALED_WALK_SIGMA : WALK_SIGMA[p.era];
}

/** Sealed products are never graded. */
export function isGraded(p: ModelProduct): boolean {
  return p.gemRatio !== null;
}

/** Conditions a product can appear in: sealed products are ungraded only. */
export function productConditions(p: ModelProduct): readonly number[] {
  return isGraded(p) ? SAMPLE_CONDITIONS.map((_, i) => i) : [UNGRADED_CONDITION];
}

/** The guide columns quoted for a product. */
export function guideConditions(p: ModelProduct): readonly number[] {
  return isGraded(p) ? GUIDE_CONDITIONS : [UNGRADED_CONDITION];
}

/** Only steadily traded products get daily price-guide quotes. */
export function hasGuide(p: ModelProduct): boolean {
  return p.liquidity.kind === 'flow';
}

/** Average ungraded sales a day (0 unless the product trades steadily). */
export function ungradedPerDay(p: ModelProduct): number {
  return p.liquidity.kind === 'flow' ? p.liquidity.salesPerDay : 0;
}

/** Expected marketplace sales a day of a product in one condition. */
export function conditionSalesRate(p: ModelProduct, condition: number, perDay = ungradedPerDay(p)): number {
  return salesRate(SAMPLE_CONDITIONS[condition]!, p.era, perDay, isGraded(p));
}

/** Expected marketplace sales a day of a product, over all its conditions. */
export function productSalesRate(p: ModelProduct): number {
  return productConditions(p).reduce((sum, c) => sum + conditionSalesRate(p, c), 0);
}

/** Busier weekends: the sales-rate factor of the UTC day starting at `dayStart`. */
export function weekdayFactor(dayStart: number): number {
  const weekday = new Date(dayStart).getUTCDay();
  return weekday === 0 ? 1.15 : weekday === 6 ? 1.1 : 0.95;
}

/** Picks an index with probability proportional to its weight, from cumulative weights. */
export function pickWeighted(cumulative: Float64Array, count: number, rng: Prng): number {
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

/** A sale's price with the rare marketplace outliers applied: mis-keyed (1/100 or 10x) or a lot of 3-6. */
export function withOutliers(price: number, rng: Prng): number {
  const roll = rng.next();
  if (roll < MISKEY_RATE) return rng.next() < 0.5 ? price / 100 : price * 10;
  if (roll < MISKEY_RATE + LOT_RATE) return price * rng.int(3, 6);
  return price;
}

/** Cents, at least 1; most sellers price items over $100 in whole dollars. */
export function roundPrice(price: number, isSale: boolean, rng: Prng): number {
  if (isSale && price >= 10_000 && rng.next() < 0.6) return Math.round(price / 100) * 100;
  return Math.max(1, Math.round(price));
}
