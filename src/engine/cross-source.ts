/**
 * The cross-source check (docs/methodology.md §18): whether the sources pricing one product's
 * ungraded condition agree, so that a product mapped to the wrong card (or a source pricing
 * another variant) is said and its price withheld, never averaged in silently.
 */
import {
  CROSS_SOURCE_MAX_RATIO,
  CROSS_SOURCE_MIN_GAP_MINOR,
  CROSS_SOURCE_MIN_POINTS,
} from './methodology.js';
import { isIncluded, robustBounds } from './robust-filter.js';
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
 * null when fewer than two sources have points. Each source is judged by the median of its points
 * the robust filter keeps (§3, `k` its width), so that one wild sale is an outlier of its source,
 * not its source out of line; a source the filter drops whole is judged at its point nearest the
 * rest (out of line even there, it is out of line: what a wrong mapping looks like), when it has CROSS_SOURCE_MIN_POINTS of them or is a price guide (one sale
 * alone is an outlier; one guide quote is already a market's average).
 */
export function crossSourceCheck(
  s: Series,
  sources: readonly string[],
  k: number,
  scratch: Float64Array,
): CrossSource | null {
  const all = pointsBySource(s, () => true);
  if (all.size < 2) return null;
  const bounds = robustBounds(s, s.lo, s.hi, k, scratch);
  const kept = pointsBySource(s, (i) => isIncluded(s, i, bounds));
  const bySource = new Map(kept);
  // A source dropped whole is read at its point nearest the others': out of line even there, it is.
  for (const [src, ys] of all)
    if (!kept.has(src) && (ys.length >= CROSS_SOURCE_MIN_POINTS || quotesOnly(s, src)))
      bySource.set(src, [nearest(ys, bounds.centre)]);
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

/** The value of `ys` nearest `centre`. */
function nearest(ys: readonly number[], centre: number): number {
  let best = ys[0]!;
  for (const y of ys) if (Math.abs(y - centre) < Math.abs(best - centre)) best = y;
  return best;
}

/** Whether every point of source `src` in `s` is a price guide's quote. */
function quotesOnly(s: Series, src: number): boolean {
  for (let i = s.lo; i < s.hi; i++) if (s.src[i] === src && s.g[i] === 0) return false;
  return true;
}

/** The ln prices of the points of `s` that `keep` takes, by source index. */
function pointsBySource(s: Series, keep: (i: number) => boolean): Map<number, number[]> {
  const bySource = new Map<number, number[]>();
  for (let i = s.lo; i < s.hi; i++) {
    if (!keep(i)) continue;
    const list = bySource.get(s.src[i]!) ?? [];
    list.push(s.y[i]!);
    bySource.set(s.src[i]!, list);
  }
  return bySource;
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
