// @ts-check
/**
 * The backtest's metrics (docs/backtest.md, "Metrics"). Percentiles are linear-interpolation
 * quantiles (Hyndman-Fan type 7, as numpy and R compute them by default).
 */

/** A price off by more than this fraction of the truth counts as badly off. */
export const BAD_ERROR = 0.25;
/** A jump is followed once the price is within this fraction of the truth ... */
export const FOLLOW_TOLERANCE = 0.1;
/** ... and stays within it for this many hourly instants (the first one included). */
export const FOLLOW_HOLD_HOURS = 6;
/** Hours after a jump or crash that are watched. */
export const FOLLOW_HORIZON_HOURS = 120;
/** The first hours after a jump, where the share of prices off by more than BAD_ERROR is counted. */
export const AFTER_JUMP_HOURS = 24;

/**
 * Signed error as a fraction of the truth: above 0 when the price is too high.
 * @param {number} price
 * @param {number} truth
 */
export function relativeError(price, truth) {
  return (price - truth) / truth;
}

/**
 * Absolute error as a fraction of the truth.
 * @param {number} price
 * @param {number} truth
 */
export function absoluteError(price, truth) {
  return Math.abs(price - truth) / truth;
}

/**
 * Type-7 quantile of sorted values.
 * @param {ArrayLike<number>} sorted ascending, not empty
 * @param {number} q in [0, 1]
 */
export function sortedQuantile(sorted, q) {
  const h = (sorted.length - 1) * q;
  const k = Math.floor(h);
  const lower = /** @type {number} */ (sorted[k]);
  if (k + 1 >= sorted.length) return lower;
  const upper = /** @type {number} */ (sorted[k + 1]);
  return lower + (h - k) * (upper - lower);
}

/**
 * @typedef {object} ErrorSummary
 * @property {number} n priced (instant, cell) pairs
 * @property {number | null} mdape median absolute error, % of truth
 * @property {number | null} p90 90th percentile of the absolute error, %
 * @property {number | null} p99 99th percentile, %
 * @property {number | null} over25 share of prices off by more than 25 %, %
 * @property {number | null} bias median signed error, % of truth (above 0: priced too high)
 */

/**
 * Summarises signed errors (fractions of the truth, `relativeError`).
 * @param {ArrayLike<number>} signed
 * @returns {ErrorSummary}
 */
export function summarizeErrors(signed) {
  const n = signed.length;
  if (n === 0) return { n, mdape: null, p90: null, p99: null, over25: null, bias: null };
  const sortedSigned = Float64Array.from(signed).sort();
  const sorted = sortedSigned.map(Math.abs).sort();
  let bad = 0;
  for (const e of sorted) if (e > BAD_ERROR) bad++;
  return {
    n,
    mdape: 100 * sortedQuantile(sorted, 0.5),
    p90: 100 * sortedQuantile(sorted, 0.9),
    p99: 100 * sortedQuantile(sorted, 0.99),
    over25: (100 * bad) / n,
    bias: 100 * sortedQuantile(sortedSigned, 0.5),
  };
}

/**
 * Share (%) of scored pairs a method priced; null when nothing was scored.
 * @param {number} priced
 * @param {number} scored
 */
export function coverage(priced, scored) {
  return scored === 0 ? null : (100 * priced) / scored;
}

/**
 * Share (%) of intervals holding the truth; null without intervals.
 * @param {readonly { low: number, high: number, truth: number }[]} intervals
 */
export function intervalCoverage(intervals) {
  if (intervals.length === 0) return null;
  let hit = 0;
  for (const { low, high, truth } of intervals) if (truth >= low && truth <= high) hit++;
  return (100 * hit) / intervals.length;
}

/**
 * Hours a method took to follow a jump: the first hour h (1, 2, ...) after the jump from which its
 * price is within FOLLOW_TOLERANCE of the truth at h and at each of the next FOLLOW_HOLD_HOURS - 1
 * hourly instants, all inside the horizon. An unpriced instant is not within. null: not followed
 * within the horizon.
 * @param {readonly { price: number | null, truth: number }[]} hourly the instants 1..horizon hours after the jump
 * @returns {number | null}
 */
export function hoursToFollow(hourly) {
  const within = hourly.map(
    ({ price, truth }) => price !== null && absoluteError(price, truth) <= FOLLOW_TOLERANCE,
  );
  for (let i = 0; i + FOLLOW_HOLD_HOURS <= within.length; i++) {
    if (within.slice(i, i + FOLLOW_HOLD_HOURS).every(Boolean)) return i + 1;
  }
  return null;
}

/**
 * How many of the first AFTER_JUMP_HOURS hourly instants after a jump a method priced, and how
 * many of those prices were off by more than BAD_ERROR.
 * @param {readonly { price: number | null, truth: number }[]} hourly the instants 1..horizon hours after the jump
 * @returns {{ priced: number, off: number }}
 */
export function offAfterJump(hourly) {
  let priced = 0;
  let off = 0;
  for (const { price, truth } of hourly.slice(0, AFTER_JUMP_HOURS)) {
    if (price === null) continue;
    priced++;
    if (absoluteError(price, truth) > BAD_ERROR) off++;
  }
  return { priced, off };
}

/**
 * Summary of hours-to-follow over jump events.
 * @param {readonly (number | null)[]} hours null = not followed within the horizon
 * @returns {{ events: number, medianHours: number | null, p90Hours: number | null, within24h: number | null, notFollowed: number }}
 */
export function summarizeFollow(hours) {
  const n = hours.length;
  if (n === 0) return { events: 0, medianHours: null, p90Hours: null, within24h: null, notFollowed: 0 };
  // Not followed sorts after every followed event: the median is then "more than the horizon".
  const sorted = hours.map((h) => h ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b);
  const pick = (/** @type {number} */ q) => {
    const v = /** @type {number} */ (sorted[Math.max(0, Math.ceil(q * n) - 1)]);
    return Number.isFinite(v) ? v : null;
  };
  return {
    events: n,
    /** Nearest-rank median and P90 in hours; null when beyond the horizon. */
    medianHours: pick(0.5),
    p90Hours: pick(0.9),
    within24h: (100 * hours.filter((h) => h !== null && h <= 24).length) / n,
    notFollowed: hours.filter((h) => h === null).length,
  };
}

/**
 * Share (%) of the priced instants off by more than BAD_ERROR, over events' `offAfterJump` counts.
 * @param {readonly { priced: number, off: number }[]} counts
 */
export function shareOffAfterJumps(counts) {
  const priced = counts.reduce((a, c) => a + c.priced, 0);
  return priced === 0 ? null : (100 * counts.reduce((a, c) => a + c.off, 0)) / priced;
}
