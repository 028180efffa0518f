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

/** Index of the first of sorted[0..size) at or above `value`. */
function firstAtLeast(sorted: Float64Array, size: number, value: number): number {
  let lo = 0;
  let hi = size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * `robustBounds` of the points i0..j-1 for j falling from i1 (the regime rule's older parts,
 * which shrink as its run of newest points grows): the range's log prices are sorted once and
 * each call takes the points from j on out of the sorted copy, so the median is read off
 * and the MAD found by merging the deviations on either side of it, instead of two
 * selections over a fresh copy per call. The same order statistics, so the same numbers as
 * `robustBounds` (checked in the tests). `sorted` and `work` must hold i1 - i0 numbers;
 * `work` is overwritten by each call.
 */
export function shrinkingBounds(
  s: Series,
  i0: number,
  i1: number,
  k: number,
  sorted: Float64Array,
  work: Float64Array,
) {
  let size = i1 - i0;
  for (let i = 0; i < size; i++) sorted[i] = s.y[i0 + i]!;
  sorted.subarray(0, size).sort();
  let end = i1;
  /** The k-th smallest deviation |sorted[i] - centre| (0-based) and the next, from the two sorted sides. */
  const deviations = (centre: number, rank: number): [number, number] => {
    // Left of `right`: values below the centre, deviations growing leftwards; from it on, rightwards.
    let right = firstAtLeast(sorted, size, centre);
    let left = right - 1;
    let current = 0;
    for (let taken = 0; taken <= rank + 1; taken++) {
      const dl = left >= 0 ? Math.abs(sorted[left]! - centre) : Infinity;
      const dr = right < size ? Math.abs(sorted[right]! - centre) : Infinity;
      const d = dl <= dr ? dl : dr;
      if (dl <= dr) left--;
      else right++;
      if (taken === rank) current = d;
      else if (taken === rank + 1) return [current, d];
    }
    return [current, current];
  };
  return {
    /** The bounds of points i0..j-1 (j at most the previous call's). */
    before(j: number): LogBounds {
      if (j < end) {
        // Take y[j..end) out: sorted in `work`, then one merging pass over the sorted copy
        // (equal values are interchangeable).
        const r = end - j;
        for (let i = 0; i < r; i++) work[i] = s.y[j + i]!;
        work.subarray(0, r).sort();
        let kept = 0;
        let x = 0;
        for (let i = 0; i < size; i++) {
          if (x < r && sorted[i] === work[x]) x++;
          else sorted[kept++] = sorted[i]!;
        }
        size = kept;
        end = j;
      }
      // Quantile type 7 at 0.5, as `median`: x[h] + (h - ⌊h⌋)·(x[h + 1] - x[h]).
      const h = (size - 1) * 0.5;
      const r = Math.floor(h);
      const frac = h - r;
      const centre = frac === 0 ? sorted[r]! : sorted[r]! + frac * (sorted[r + 1]! - sorted[r]!);
      const [d0, d1] = deviations(centre, r);
      const mad = frac === 0 ? d0 : d0 + frac * (d1 - d0);
      const sigma = Math.max(MAD_TO_SIGMA * mad, LOG_SCALE_FLOOR);
      return { lo: centre - k * sigma, hi: centre + k * sigma, centre, sigma };
    },
  };
}

export type ShrinkingBounds = ReturnType<typeof shrinkingBounds>;
