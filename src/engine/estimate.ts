/**
 * One estimate = one pool of observations in one window, filtered, weighted and guarded
 * (docs/methodology.md §3-§6), or the median of last known points (§9). Values stay
 * unrounded; rounding happens once, when a slot is built.
 */
import {
  FLOOR_MIN_POINTS,
  FLOOR_MIN_SOURCES,
  FLOOR_QUANTILE,
  MIN_WINDOW_POINTS,
} from './methodology.js';
import { applyGuards } from './guards.js';
import { isIncluded, robustBounds, type LogBounds } from './robust-filter.js';
import { lowerBound, type ConditionSeries, type Series } from './series.js';
import { median, quantile } from './stats.js';
import type { Value } from './value.js';
import { recencyWeightedMean, stepTwap } from './twap.js';

/** A value computed from one pool, with its filter counts. */
export interface Estimate extends Value {
  included: number;
  excluded: number;
  /** The pool and bounds, to count sources of the kept points afterwards. */
  series: Series;
  i0: number;
  i1: number;
  bounds: LogBounds;
}

export type Weighting = 'step' | 'recency';

/** Shared scratch space and parameters of one bundle computation. */
export interface EstimateContext {
  asOf: number;
  windowMs: number;
  k: number;
  scratch: Float64Array;
}

function contains(ids: Int32Array, count: number, id: number): boolean {
  for (let j = 0; j < count; j++) if (ids[j] === id) return true;
  return false;
}

const ALL: LogBounds = { lo: -Infinity, hi: Infinity };

/** Filter, weighted mean and guards over the points of `s` in [start, ctx.asOf); null when none. */
export function estimateWindow(s: Series, start: number, weighting: Weighting, ctx: EstimateContext): Estimate | null {
  const i0 = lowerBound(s, start);
  const i1 = s.hi; // every point of a series is < asOf
  if (i1 <= i0) return null;
  const bounds = robustBounds(s, i0, i1, ctx.k, ctx.scratch);
  const buf = ctx.scratch;
  let included = 0;
  let newestAt = -Infinity;
  // Distinct sources of the kept points, counted up to FLOOR_MIN_SOURCES (all the guard needs).
  const seen = new Int32Array(FLOOR_MIN_SOURCES);
  let distinct = 0;
  for (let i = i0; i < i1; i++) {
    if (!isIncluded(s, i, bounds)) continue;
    buf[included++] = s.p[i]!;
    newestAt = s.t[i]!;
    if (distinct < FLOOR_MIN_SOURCES && !contains(seen, distinct, s.src[i]!)) seen[distinct++] = s.src[i]!;
  }
  const twap =
    weighting === 'step' ? stepTwap(s, i0, i1, bounds, ctx.asOf) : recencyWeightedMean(s, i0, i1, bounds, ctx.asOf);
  const med = median(buf, included);
  const depthOk = included >= FLOOR_MIN_POINTS && distinct >= FLOOR_MIN_SOURCES;
  const floor = depthOk ? quantile(buf, included, FLOOR_QUANTILE) : null;
  return {
    value: applyGuards(twap, med, floor),
    start,
    extended: weighting === 'recency',
    newestAt,
    included,
    excluded: i1 - i0 - included,
    series: s,
    i0,
    i1,
    bounds,
  };
}

/**
 * A cell's own price: the requested window, or the extended recency-weighted window (30 days,
 * depth-capped, §2.1) when the requested one keeps fewer than MIN_WINDOW_POINTS points (§5).
 */
export function estimateCell(c: ConditionSeries, ctx: EstimateContext): Estimate | null {
  const inWindow = estimateWindow(c.current, ctx.asOf - ctx.windowMs, 'step', ctx);
  if (inWindow !== null && inWindow.included >= MIN_WINDOW_POINTS) return inWindow;
  return estimateWindow(c.current, c.extendedStart, 'recency', ctx) ?? inWindow;
}

/**
 * The composite band (§7): a step TWAP over the extended window, from the latest start of its
 * members (§2.1), so an old sale of one member never holds over the span a capped member hides.
 */
export function estimateBand(c: ConditionSeries, ctx: EstimateContext): Estimate | null {
  return estimateWindow(c.current, c.extendedStart, 'step', ctx);
}

/** Last known price (§9): the median of the latest points before the 30-day lookback. */
export function estimateLastKnown(s: Series, ctx: EstimateContext): Estimate | null {
  const n = s.hi - s.lo;
  if (n === 0) return null;
  for (let i = 0; i < n; i++) ctx.scratch[i] = s.p[s.lo + i]!;
  return {
    value: median(ctx.scratch, n),
    start: s.t[s.lo]!,
    extended: false,
    newestAt: s.t[s.hi - 1]!,
    included: n,
    excluded: 0,
    series: s,
    i0: s.lo,
    i1: s.hi,
    bounds: ALL,
  };
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
