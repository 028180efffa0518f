// @ts-check
/** Order statistics for timing samples. */

/**
 * The p-th percentile (0-100) by the nearest-rank method: always a value that was measured.
 * @param {readonly number[]} samples
 * @param {number} p
 * @returns {number}
 */
export function percentile(samples, p) {
  if (samples.length === 0) throw new Error('percentile of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return /** @type {number} */ (sorted[rank - 1]);
}

/**
 * @param {readonly number[]} samples
 * @returns {number}
 */
export function median(samples) {
  return percentile(samples, 50);
}

/**
 * Rounds for display and JSON: enough digits to compare, no float noise.
 * @param {number} value
 * @param {number} [digits]
 * @returns {number}
 */
export function round(value, digits = 3) {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
