// @ts-check
/**
 * The four simple alternatives a user could pick instead of our engine (issue 9). Each prices a
 * cell from that cell's own observations only (every source), over windows [t - span, t) like
 * the engine's, and gives null where it has nothing to price from. docs/backtest.md states
 * exactly how each is read.
 */
import { stats } from './built.js';
import { DAY, END, HOUR, START } from './model.js';

/** @typedef {import('./market.js').Series} Series */

export const WINDOW_MS = 24 * HOUR;
/** Coda-style filter: points further than this many standard deviations from the mean are dropped. */
export const CODA_STDDEVS = 2;
/** Coda-style: fewer points than this are not filtered (a standard deviation of 1-2 points means nothing). */
export const CODA_MIN_POINTS = 3;
/** Coda-style floor: the blend never goes below this quantile of the kept points. */
export const CODA_FLOOR_QUANTILE = 0.2;
/** 7-day median: its window, the band around the raw median (x1/10 to x10), the move that republishes. */
export const SEVEN_DAY_MS = 7 * DAY;
export const SEVEN_DAY_BAND = 10;
export const SEVEN_DAY_REPUBLISH = 0.1;

/**
 * First index of `t` (sorted) at or after `x`.
 * @param {Float64Array} t
 * @param {number} x
 */
export function lowerBound(t, x) {
  let lo = 0;
  let hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (/** @type {number} */ (t[mid]) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The prices of `series` in [from, to) as a fresh buffer (the order statistics reorder it).
 * @param {Series} series
 * @param {number} from
 * @param {number} to
 */
export function windowPrices(series, from, to) {
  return series.price.slice(lowerBound(series.t, from), lowerBound(series.t, to));
}

/** 1. Plain mean of the 24 h window. @param {Series} series @param {number} t */
export function mean24(series, t) {
  const p = windowPrices(series, t - WINDOW_MS, t);
  if (p.length === 0) return null;
  let sum = 0;
  for (const x of p) sum += x;
  return sum / p.length;
}

/** 2. Plain median of the 24 h window. @param {Series} series @param {number} t */
export function median24(series, t) {
  const p = windowPrices(series, t - WINDOW_MS, t);
  return p.length === 0 ? null : stats.median(p, p.length);
}

/**
 * 3. "Coda": over the 24 h window, drop points more than 2 (population) standard deviations from
 * the mean (windows of 3 points or more), then the 50/50 blend of the kept points' TWAP (each
 * point holds until the next kept point, the last until t) and their median, floored at their
 * 20th percentile.
 * @param {Series} series
 * @param {number} t
 */
export function codaBlend(series, t) {
  const from = lowerBound(series.t, t - WINDOW_MS);
  const to = lowerBound(series.t, t);
  const n = to - from;
  if (n === 0) return null;
  let mean = 0;
  for (let i = from; i < to; i++) mean += /** @type {number} */ (series.price[i]);
  mean /= n;
  let variance = 0;
  for (let i = from; i < to; i++) {
    const price = /** @type {number} */ (series.price[i]);
    variance += (price - mean) ** 2;
  }
  const limit = CODA_STDDEVS * Math.sqrt(variance / n);
  /** @type {number[]} */
  const kept = [];
  for (let i = from; i < to; i++) {
    if (n < CODA_MIN_POINTS || Math.abs(/** @type {number} */ (series.price[i]) - mean) <= limit)
      kept.push(i);
  }
  let weighted = 0;
  let span = 0;
  kept.forEach((i, k) => {
    const until =
      k + 1 < kept.length ? /** @type {number} */ (series.t[/** @type {number} */ (kept[k + 1])]) : t;
    const dt = until - /** @type {number} */ (series.t[i]);
    weighted += /** @type {number} */ (series.price[i]) * dt;
    span += dt;
  });
  const prices = Float64Array.from(kept, (i) => /** @type {number} */ (series.price[i]));
  const median = stats.median(prices, prices.length);
  // Points at the same instant as t cannot exist ([from, t) excludes t); equal times give span 0.
  const twap = span > 0 ? weighted / span : median;
  const floor = stats.quantile(prices, prices.length, CODA_FLOOR_QUANTILE);
  return Math.max((twap + median) / 2, floor);
}

/**
 * The 7-day band median at the instant `t`: the median of the 7-day window's points within
 * [m / 10, m x 10] of the window's raw median m; null without points.
 * @param {Series} series
 * @param {number} t
 */
export function bandMedian7d(series, t) {
  const p = windowPrices(series, t - SEVEN_DAY_MS, t);
  if (p.length === 0) return null;
  const raw = stats.median(p, p.length);
  const kept = p.filter((x) => x >= raw / SEVEN_DAY_BAND && x <= raw * SEVEN_DAY_BAND);
  return stats.median(kept, kept.length);
}

/**
 * 4. The 7-day median as a published price: recomputed every hour on the hour (`bandMedian7d`),
 * and republished only when it moves more than 10 % from the price published last; without a
 * point in 7 days there is no price (and the next one is published as it comes).
 * Returns the published price at each hour boundary start + k h, k = 0..(end - start) / 1 h
 * (NaN: none); start and end are the simulated period's unless given (the real-sales mode's span).
 * @param {Series} series
 * @param {number} [start] on the hour
 * @param {number} [end]
 * @returns {Float64Array}
 */
export function sevenDayTrack(series, start = START, end = END) {
  const hours = Math.round((end - start) / HOUR);
  const track = new Float64Array(hours + 1).fill(Number.NaN);
  let published = Number.NaN;
  let lastFrom = -1;
  let lastTo = -1;
  for (let k = 0; k <= hours; k++) {
    const t = start + k * HOUR;
    const from = lowerBound(series.t, t - SEVEN_DAY_MS);
    const to = lowerBound(series.t, t);
    if (from !== lastFrom || to !== lastTo) {
      lastFrom = from;
      lastTo = to;
      const m = bandMedian7d(series, t);
      if (m === null) published = Number.NaN;
      else if (Number.isNaN(published) || Math.abs(m / published - 1) > SEVEN_DAY_REPUBLISH) published = m;
    }
    track[k] = published;
  }
  return track;
}

/**
 * The published 7-day price at an instant on the hour, from its track (built from `start`).
 * @param {Float64Array} track
 * @param {number} t
 * @param {number} [start]
 */
export function sevenDayAt(track, t, start = START) {
  const k = (t - start) / HOUR;
  if (!Number.isInteger(k))
    throw new RangeError(`the 7-day median publishes on the hour; ${new Date(t).toISOString()} is not`);
  const v = track[k];
  return v === undefined || Number.isNaN(v) ? null : v;
}
