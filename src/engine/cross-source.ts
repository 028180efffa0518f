/**
 * The cross-source check (docs/methodology.md §18): whether the sources pricing one product's
 * ungraded condition agree, so that a product mapped to the wrong card (or a source pricing
 * another variant) is said and its price withheld, never averaged in silently.
 */
import { CROSS_SOURCE_MAX_RATIO, CROSS_SOURCE_MIN_GAP_MINOR } from './methodology.js';
import type { Series } from './series.js';
import { median } from './stats.js';

/** What the check found among the sources of one series (two or more). */
export interface CrossSource {
  /** Each source's median price of the series, US cents (unrounded), by source name. */
  medians: Record<string, number>;
  /** The highest median over the lowest. */
  ratio: number;
  /** False when ratio > CROSS_SOURCE_MAX_RATIO and the two differ by more than CROSS_SOURCE_MIN_GAP_MINOR. */
  agree: boolean;
  /** The source whose median is furthest from the median of all points (the one out of line), or null when they agree. */
  outlier: string | null;
}

/**
 * The check over the points of `s` (ln prices), per source of `sources` (Series.src indexes it);
 * null when fewer than two sources have points.
 */
export function crossSourceCheck(s: Series, sources: readonly string[]): CrossSource | null {
  const bySource = new Map<number, number[]>();
  for (let i = s.lo; i < s.hi; i++) {
    const list = bySource.get(s.src[i]!) ?? [];
    list.push(s.y[i]!);
    bySource.set(s.src[i]!, list);
  }
  if (bySource.size < 2) return null;
  const medians: Record<string, number> = {};
  let lo = Infinity;
  let hi = -Infinity;
  for (const [src, ys] of [...bySource.entries()].sort((a, b) => a[0] - b[0])) {
    const m = median(Float64Array.from(ys), ys.length);
    medians[sources[src]!] = Math.exp(m);
    lo = Math.min(lo, m);
    hi = Math.max(hi, m);
  }
  const ratio = Math.exp(hi - lo);
  const agree = !(ratio > CROSS_SOURCE_MAX_RATIO && Math.exp(hi) - Math.exp(lo) > CROSS_SOURCE_MIN_GAP_MINOR);
  let outlier: string | null = null;
  if (!agree) {
    const all = Float64Array.from({ length: s.hi - s.lo }, (_, j) => s.y[s.lo + j]!);
    const centre = Math.exp(median(all, all.length));
    let far = -1;
    for (const [name, m] of Object.entries(medians)) {
      const distance = Math.abs(Math.log(m / centre));
      if (distance > far) [far, outlier] = [distance, name];
    }
  }
  return { medians, ratio, agree, outlier };
}

/** The check as the ungraded slot's `meta.cross_source` shows it: medians in whole cents, the ratio as text. */
export function crossSourceMeta(check: CrossSource) {
  return {
    agree: check.agree,
    ratio: check.ratio.toFixed(2),
    max_ratio: CROSS_SOURCE_MAX_RATIO,
    medians_minor: Object.fromEntries(Object.entries(check.medians).map(([k, v]) => [k, Math.round(v)])),
    out_of_line: check.outlier,
  };
}
