/**
 * The outlier filter (docs/methodology.md §3): robust centre and scale in log-price space.
 * Card prices are multiplicative, so a 10x lot sale and a 0.1x mis-key are symmetric in logs.
 * Median and MAD resist up to half the points being wrong, so the filter works with 3 points,
 * where mean ± k·stddev cannot flag anything (max |z| = (n-1)/√n).
 */
import { LOG_SCALE_FLOOR, MAD_TO_SIGMA } from './methodology.js';
import type { Series } from './series.js';
import { median } from './stats.js';

/** Inclusive bounds in ln(price): a point is kept when lo <= ln(price) <= hi. */
export interface LogBounds {
  lo: number;
  hi: number;
  /** The median and robust scale the bounds came from (`oracle explain` shows each point's z). */
  centre: number;
  sigma: number;
}

/**
 * Bounds for the points i0..i1-1 of a series: centre = median of ln(price),
 * σ = max(1.4826·MAD, LOG_SCALE_FLOOR), kept when |ln(price) - centre| <= k·σ.
 * `scratch` must hold i1 - i0 numbers.
 */
export function robustBounds(s: Series, i0: number, i1: number, k: number, scratch: Float64Array): LogBounds {
  const n = i1 - i0;
  for (let i = 0; i < n; i++) scratch[i] = s.y[i0 + i]!;
  const centre = median(scratch, n);
  for (let i = 0; i < n; i++) scratch[i] = Math.abs(s.y[i0 + i]! - centre);
  const sigma = Math.max(MAD_TO_SIGMA * median(scratch, n), LOG_SCALE_FLOOR);
  return { lo: centre - k * sigma, hi: centre + k * sigma, centre, sigma };
}

/** Whether point i of the series passes the filter. */
export function isIncluded(s: Series, i: number, b: LogBounds): boolean {
  const y = s.y[i]!;
  return y >= b.lo && y <= b.hi;
}
