/**
 * One condition's own estimate (docs/methodology.md §3-§5): the reference set (the window,
 * topped up with earlier points when thin), the robust filter with the regime rule,
 * recency weights, and the estimate's uncertainty. Everything in ln(price); the step by step
 * record stays on the result so `oracle explain` can show which points were kept and why.
 */
import { DAY_MS } from '../domain/time.js';
import {
  DRIFT_VARIANCE_PER_DAY,
  MAD_TO_SIGMA,
  MIN_HALF_LIFE_MS,
  MIN_REFERENCE_POINTS,
  QUOTE_AGE_MS,
  QUOTE_LED_SHARE,
  QUOTE_SPAN_MS,
  RECENCY_POINTS,
  REGIME_RUN_POINTS,
  REGIME_SHARE,
  REGIME_RECENT_GAPS,
  REGIME_SPAN_GAPS,
  SALE_SIGMA_PRIOR,
  SALE_SIGMA_PRIOR_POINTS,
} from './methodology.js';
import {
  isIncluded,
  robustBounds,
  shrinkingBounds,
  type LogBounds,
  type ShrinkingBounds,
} from './robust-filter.js';
import { lowerBound, type Series } from './series.js';
import { median } from './stats.js';

/** A ln-price estimate and where it came from. */
export interface LogEstimate {
  /** ln(price in cents), unrounded. */
  mean: number;
  /** Variance of `mean` as an estimate of the ln true price now. */
  variance: number;
  /** Start of the widest window whose data entered the value (epoch ms). */
  start: number;
  /** True when points before the requested window entered the value. */
  extended: boolean;
  /** observedAt of the newest point that entered the value. */
  newestAt: number;
}

/** The market's move carried into a thin condition's own estimate (§6.1). */
export interface Carry {
  /** Index of the reference condition (PRICED_CONDITIONS): the busiest one. */
  from: number;
  /** The reference's own estimate now and its level CARRY_HOLD_MS ago (ln cents). */
  current: number;
  held: number;
  /** Of those two, the one nearer to the reference's level at the kept points' mean time: the level the move is measured to. */
  now: number;
  /** now minus the reference's level at the kept points' mean time, added to the own estimate. */
  move: number;
  /** The own estimate before the carry (ln cents). */
  before: number;
}

/** A condition's own estimate, with the record of how it was made. */
export interface Estimate extends LogEstimate {
  series: Series;
  /** Points i0..i1-1 of the series form the reference set (after the regime rule); kept ones are within `bounds`. */
  i0: number;
  /** Start of the reference set before the regime rule (<= i0): points before it were outside the reference set. */
  referenceStart: number;
  i1: number;
  bounds: LogBounds;
  /** True when the newest points formed a run beyond one bound and became the reference (§3.2). */
  regime: boolean;
  /**
   * True when the reference set was mostly guide quotes, so the estimate follows the latest
   * quote (point i0) and the points newer than it; the filter is centred on that quote (§4.2).
   */
  followed: boolean;
  included: number;
  /** Kept points inside the requested window. */
  windowKept: number;
  /** Lowest and highest ln price of the kept points inside the requested window (NaN without one): §6.6. */
  windowLo: number;
  windowHi: number;
  /** True when built from the last known points, all older than the 30 days (§6.7, §8). */
  old: boolean;
  /** True when the condition's only point (of the 30 days, or of the last known ones) is a price guide's quote: §6.6. */
  loneQuote: boolean;
  excluded: number;
  halfLifeMs: number;
  /** Robust sale-to-sale scale of the kept points (ln units, before the prior). */
  sigma: number;
  /** The variance of one next sale around the level (§9): sigma² pooled with the prior's. */
  scatter: number;
  effectivePoints: number;
  /** The recency-weighted mean time of the kept points (epoch ms): when the estimate stood. */
  meanAt: number;
  /** The market's move carried into the estimate (§6.1), or null: `mean` includes it. */
  carry: Carry | null;
}

/**
 * The age of point i at `asOf` for its recency weight and drift (§4, §4.1): a sale's own age; a
 * price guide's quote stands for the sales it summarises, QUOTE_AGE_MS older on average.
 */
export function pointAge(s: Series, i: number, asOf: number): number {
  return asOf - s.t[i]! + (s.g[i] === 1 ? QUOTE_AGE_MS : 0);
}

/** The recency weight of a kept point of age `ageMs` (§4): 2^(-age / half-life). */
export function recencyWeight(ageMs: number, halfLifeMs: number): number {
  return Math.pow(2, -ageMs / halfLifeMs);
}

/** Shared scratch space and parameters of one bundle computation. */
export interface EstimateContext {
  asOf: number;
  windowStart: number;
  k: number;
  scratch: Float64Array;
  /** A second buffer as long as `scratch`: the regime rule's sorted log prices, then the recency weights of the kept quotes (§4.1). */
  sorted: Float64Array;
}

/** The context of one bundle's estimates, its buffers sized for series of up to `maxLength` points. */
export function estimateContext(
  asOf: number,
  windowStart: number,
  k: number,
  maxLength: number,
): EstimateContext {
  return { asOf, windowStart, k, scratch: new Float64Array(maxLength), sorted: new Float64Array(maxLength) };
}

/**
 * The regime rule (§3.2): the largest m such that, against the filter bounds of the points
 * before them, the median of the newest m lies beyond a bound, at least REGIME_SHARE of the
 * newest m lie past the midpoint between the older centre and that median, those span at
 * least REGIME_SPAN_GAPS mean gaps between the reference set's sales (a burst of shill sales
 * within minutes on a card that sells twice a week is not a market move; the same run spread
 * over days is), and the newest of them sold within REGIME_RECENT_GAPS mean gaps of the newest
 * point (later sales back at the old level end a burst). m runs over REGIME_RUN_POINTS, then
 * about x1.5 each step, while the older part keeps REGIME_RUN_POINTS points. 0 when none.
 */
function regimeRun(s: Series, i0: number, i1: number, scratch: Float64Array, older: ShrinkingBounds): number {
  const n = i1 - i0;
  const meanGap = (s.t[i1 - 1]! - s.t[i0]!) / (n - 1);
  const newest = s.t[i1 - 1]!;
  let best = 0;
  for (let m = REGIME_RUN_POINTS; m <= n - REGIME_RUN_POINTS; m = Math.max(m + 1, Math.floor(m * 1.5))) {
    const b = older.before(i1 - m);
    // The run is judged on its sales: a quote lags the move it would show (§4.1).
    let sales = 0;
    for (let i = i1 - m; i < i1; i++) if (s.g[i] === 0) scratch[sales++] = s.y[i]!;
    if (sales < REGIME_RUN_POINTS) continue;
    const centreNew = median(scratch, sales);
    if (centreNew <= b.hi && centreNew >= b.lo) continue;
    const mid = (centreNew + (b.lo + b.hi) / 2) / 2;
    const up = centreNew > b.hi;
    let past = 0;
    let first = Infinity;
    let last = -Infinity;
    for (let i = i1 - m; i < i1; i++) {
      if (s.g[i] === 0 && (up ? s.y[i]! > mid : s.y[i]! < mid)) {
        past++;
        first = Math.min(first, s.t[i]!);
        last = s.t[i]!;
      }
    }
    if (
      past >= REGIME_SHARE * sales &&
      last - first >= REGIME_SPAN_GAPS * meanGap &&
      newest - last <= REGIME_RECENT_GAPS * meanGap
    )
      best = m;
  }
  return best;
}

/**
 * The estimate of one condition from the points of `s` (time-sorted, all before as_of); null
 * when it has none. The reference set is every point from the requested window on, or the
 * latest MIN_REFERENCE_POINTS when the window holds fewer.
 */
export function estimateCondition(s: Series, ctx: EstimateContext, old = false): Estimate | null {
  const { asOf, k, scratch } = ctx;
  const i1 = s.hi;
  const iw = lowerBound(s, ctx.windowStart);
  let i0 = i1 - iw >= MIN_REFERENCE_POINTS ? iw : Math.max(s.lo, i1 - MIN_REFERENCE_POINTS);
  if (i1 <= i0) return null;
  const shownFrom = Math.min(i0, iw);
  // The reference set's bounds, then its older parts' for the regime rule, from one sort.
  const sorted = shrinkingBounds(s, i0, i1, k, ctx.sorted, scratch);
  const whole = sorted.before(i1);
  const run = i1 - i0 >= 2 * REGIME_RUN_POINTS ? regimeRun(s, i0, i1, scratch, sorted) : 0;
  const regime = run > 0;
  if (regime) i0 = i1 - run;
  let bounds = regime ? robustBounds(s, i0, i1, k, scratch) : whole;
  // Quotes followed (§4.2): the latest quote and what came after it; the older points' steps
  // still say how far one next point strays, and their filter scale how far newer sales may lie.
  const latestQuote = quoteLedFrom(s, i0, i1);
  const followed = latestQuote >= 0;
  let referenceScale: { n: number; sigma: number } | null = null;
  if (followed) {
    referenceScale = stepScale(s, i0, i1, bounds, scratch);
    i0 = latestQuote;
    const centre = s.y[latestQuote]!;
    bounds = { lo: centre - k * bounds.sigma, hi: centre + k * bounds.sigma, centre, sigma: bounds.sigma };
  }
  // Kept points, newest first, into the scratch buffer: their ln prices.
  let n = 0;
  let oldestKept = -1;
  let windowKept = 0;
  let windowLo = Number.NaN;
  let windowHi = Number.NaN;
  for (let i = i1 - 1; i >= i0; i--) {
    if (!isIncluded(s, i, bounds)) continue;
    scratch[n++] = s.y[i]!;
    oldestKept = i;
    if (i >= iw) {
      windowKept++;
      if (!(s.y[i]! >= windowLo)) windowLo = s.y[i]!;
      if (!(s.y[i]! <= windowHi)) windowHi = s.y[i]!;
    }
  }
  // The half-life: age of the RECENCY_POINTS-th newest kept point (or the oldest), at least the minimum.
  let seen = 0;
  let halfLifeMs = MIN_HALF_LIFE_MS;
  for (let i = i1 - 1; i >= i0; i--) {
    if (!isIncluded(s, i, bounds)) continue;
    if (++seen === Math.min(RECENCY_POINTS, n)) {
      halfLifeMs = Math.max(MIN_HALF_LIFE_MS, asOf - s.t[i]!);
      break;
    }
  }
  let sw = 0;
  let sw2 = 0;
  let anchor = 0;
  let swy = 0;
  let swAge = 0;
  // Each kept point weighs its recency times its quote weight q (§4.1): a quote counting as q
  // sales has a variance of 1/q sale's, so Σw²·(1/q) = Σw·r enters the effective points. Two
  // kept quotes of one source less than QUOTE_SPAN_MS apart share part of their sales: their
  // covariance, correlation 1 - gap / span, enters too (§5). `quoted` holds r·√q of each kept
  // quote of the reference set (0 for the other points), by index from i0.
  const quoted = ctx.sorted;
  for (let i = i0; i < i1; i++) {
    quoted[i - i0] = 0;
    if (!isIncluded(s, i, bounds)) continue;
    const age = pointAge(s, i, asOf);
    const r = recencyWeight(age, halfLifeMs);
    const w = r * s.q[i]!;
    sw += w;
    sw2 += w * r;
    if (followed && i === i0) anchor = w * r;
    swy += w * s.y[i]!;
    swAge += w * age;
    if (s.g[i] === 1) {
      quoted[i - i0] = r * Math.sqrt(s.q[i]!);
      sw2 += 2 * quoted[i - i0]! * quoteOverlap(s, i, i0, quoted);
    }
  }
  const mean = swy / sw;
  const effectivePoints = (sw * sw) / sw2;
  const { n: scaleN, sigma } = referenceScale ?? madScale(scratch, n);
  const pooled =
    (scaleN * sigma * sigma + SALE_SIGMA_PRIOR_POINTS * SALE_SIGMA_PRIOR * SALE_SIGMA_PRIOR) /
    (scaleN + SALE_SIGMA_PRIOR_POINTS);
  // A followed quote is the level as of its date (§4.2): only the points after it add their
  // scatter to the level's variance, and the next point's own scatter comes on top (§9).
  const variance =
    (pooled * Math.max(0, sw2 - anchor)) / (sw * sw) + (DRIFT_VARIANCE_PER_DAY * swAge) / sw / DAY_MS;
  const extended = oldestKept < iw;
  return {
    mean,
    variance,
    start: extended ? s.t[oldestKept]! : ctx.windowStart,
    extended,
    newestAt: s.t[lastKept(s, i0, i1, bounds)]!,
    series: s,
    i0,
    referenceStart: shownFrom,
    i1,
    bounds,
    regime,
    followed,
    included: n,
    windowKept,
    windowLo,
    windowHi,
    old,
    loneQuote: i1 - s.lo === 1 && s.g[s.lo] === 1,
    excluded: i1 - shownFrom - n,
    halfLifeMs,
    sigma,
    scatter: pooled,
    effectivePoints,
    meanAt: asOf - swAge / sw,
    carry: null,
  };
}

/**
 * Quotes followed (§4.2): the index of the latest price guide's quote of points i0..i1-1 when
 * more than QUOTE_LED_SHARE of them are quotes, else -1.
 */
function quoteLedFrom(s: Series, i0: number, i1: number): number {
  let quotes = 0;
  let latest = -1;
  for (let i = i0; i < i1; i++) {
    if (s.g[i] !== 1) continue;
    quotes++;
    latest = i;
  }
  return quotes > QUOTE_LED_SHARE * (i1 - i0) ? latest : -1;
}

/** The count and robust scale (1.4826 · MAD about their median) of the first n numbers of `values` (overwritten). */
function madScale(values: Float64Array, n: number): { n: number; sigma: number } {
  const centre = median(values, n);
  for (let j = 0; j < n; j++) values[j] = Math.abs(values[j]! - centre);
  return { n, sigma: n === 0 ? 0 : MAD_TO_SIGMA * median(values, n) };
}

/**
 * The scatter of one next point of a followed series (§4.2): `madScale` of the steps between
 * consecutive kept points of i0..i1-1 (within `b`), one per step. The level follows the latest
 * quote, so what strays is the next point from the last one, not every point from a centre.
 */
function stepScale(s: Series, i0: number, i1: number, b: LogBounds, scratch: Float64Array) {
  let n = 0;
  let previous = Number.NaN;
  for (let i = i0; i < i1; i++) {
    if (!isIncluded(s, i, b)) continue;
    if (!Number.isNaN(previous)) scratch[n++] = s.y[i]! - previous;
    previous = s.y[i]!;
  }
  return madScale(scratch, n);
}

/**
 * Σ over the kept quotes j of quote i's source before it, less than QUOTE_SPAN_MS older, of
 * their correlation with i (1 - gap / span) times r_j·√q_j (`quoted[j - i0]`, 0 for a point that
 * is not a kept quote): quote i's covariance with them, in the units of the effective points'
 * denominator.
 */
function quoteOverlap(s: Series, i: number, i0: number, quoted: Float64Array): number {
  let sum = 0;
  for (let j = i - 1; j >= i0; j--) {
    const gap = s.t[i]! - s.t[j]!;
    if (gap >= QUOTE_SPAN_MS) break;
    if (quoted[j - i0]! > 0 && s.src[j] === s.src[i]) sum += (1 - gap / QUOTE_SPAN_MS) * quoted[j - i0]!;
  }
  return sum;
}

function lastKept(s: Series, i0: number, i1: number, b: LogBounds): number {
  for (let i = i1 - 1; i >= i0; i--) if (isIncluded(s, i, b)) return i;
  return i1 - 1;
}

/** Kept points per source name of an estimate, keys in name order (for `meta.source_counts`). */
export function sourceCounts(e: Estimate | null, sources: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  if (e === null) return counts;
  const perSource = new Array<number>(sources.length).fill(0);
  for (let i = e.i0; i < e.i1; i++) if (isIncluded(e.series, i, e.bounds)) perSource[e.series.src[i]!]!++;
  sources.forEach((name, id) => {
    if (perSource[id]! > 0) counts[name] = perSource[id]!;
  });
  return counts;
}
