/**
 * Time weights over irregular sales (docs/methodology.md §4 and §5). Both functions read the
 * points i0..i1-1 of a time-sorted series, skip the ones outside the filter bounds, and
 * return a weighted mean in cents (unrounded).
 */
import { RECENCY_HALF_LIFE_MS } from './methodology.js';
import { isIncluded, type LogBounds } from './robust-filter.js';
import type { Series } from './series.js';

/**
 * Step TWAP: each kept sale's price holds from its time until the next kept sale at a later
 * time, the last until `end`. Sales at the same instant share their interval equally (their
 * mean holds). Time before the first kept sale carries no weight, so a single sale is its own
 * price. At least one point must be kept; every time is < `end`.
 */
export function stepTwap(s: Series, i0: number, i1: number, b: LogBounds, end: number): number {
  let weighted = 0;
  let total = 0;
  let runTime = NaN;
  let runSum = 0;
  let runCount = 0;
  for (let i = i0; i < i1; i++) {
    if (!isIncluded(s, i, b)) continue;
    const t = s.t[i]!;
    if (t !== runTime) {
      if (runCount > 0) {
        const hold = t - runTime;
        weighted += (hold * runSum) / runCount;
        total += hold;
      }
      runTime = t;
      runSum = 0;
      runCount = 0;
    }
    runSum += s.p[i]!;
    runCount++;
  }
  const hold = end - runTime;
  weighted += (hold * runSum) / runCount;
  total += hold;
  return weighted / total;
}

/**
 * Recency-weighted mean for the 30-day sparse window: weight 2^(-(end - t) / half-life) per
 * kept sale, ignoring the gaps between sales (in a sparse market a gap measures inactivity,
 * not how long a price was valid). Simultaneous sales get equal weights.
 */
export function recencyWeightedMean(s: Series, i0: number, i1: number, b: LogBounds, end: number): number {
  let weighted = 0;
  let total = 0;
  for (let i = i0; i < i1; i++) {
    if (!isIncluded(s, i, b)) continue;
    const w = Math.pow(2, -(end - s.t[i]!) / RECENCY_HALF_LIFE_MS);
    weighted += w * s.p[i]!;
    total += w;
  }
  return weighted / total;
}
