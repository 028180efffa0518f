/**
 * Turns the caller's points (in any order) into time-sorted series per priced condition:
 * first a timeline, every point in shared typed columns grouped by condition and sorted
 * once (the store returns index order, so usually only checked). Sorting uses full
 * tie-breaks (time, price, source name) so every later sum runs in the same order whatever
 * the input order (docs/methodology.md §1). Then the series of an instant: the depth cap
 * (§2.1), of the points before the requested window only the latest
 * EXTENDED_DEPTH_PER_CONDITION per condition count. A series is a range of shared columns,
 * so one timeline serves every instant of a price history without a copy.
 */
import { PRICED_CONDITIONS } from '../domain/conditions.js';
import type { ConditionPoints, PricePoint } from '../domain/observation.js';
import {
  EXTENDED_DEPTH_PER_CONDITION,
  EXTENDED_WINDOW_MS,
  PRICE_GUIDE_SOURCES,
  PRIOR_POINTS_PER_CONDITION,
  quoteWeight,
} from './methodology.js';

/** Columns shared by many series. */
interface Columns {
  /** observedAt, epoch ms. */
  readonly t: Float64Array;
  /** priceMinor. */
  readonly p: Float64Array;
  /** ln(priceMinor): the outlier filter works in log-price space. */
  readonly y: Float64Array;
  /** Source id: the rank of the source name, so comparing ids compares names. */
  readonly src: Int32Array;
  /** How many sales the point counts as (§4.1 quote weight): 1 for a sale. */
  readonly q: Float64Array;
  /** The point's sales_volume, NaN for none (for `oracle explain`). */
  readonly vol: Float64Array;
  /** 1 when the point is a price guide's quote (§4.1: a sales_volume, or a price guide's source), else 0. */
  readonly g: Uint8Array;
  /**
   * The point's matched_by (PricePoint.matchedBy), null for none (for `oracle explain`); the
   * column itself is null when no point has one, as from pricing's reads, which never carry it.
   */
  readonly by: (string | null)[] | null;
}

/** The points lo..hi-1 of shared columns, sorted by (time, price, source). */
export interface Series extends Columns {
  readonly lo: number;
  readonly hi: number;
}

/** The current (last 30 days, depth-capped) and prior (older, latest few) points of one condition. */
export interface ConditionSeries {
  current: Series;
  prior: Series;
}

export interface SeriesSet {
  /** Source names, sorted; `Series.src` values index this array. */
  sources: readonly string[];
  /** One per priced condition, in the order of PRICED_CONDITIONS. */
  conditions: readonly ConditionSeries[];
  /** True when no priced point exists before as_of. */
  empty: boolean;
  /** True when some priced point lies in the 30 days [asOf - EXTENDED_WINDOW_MS, asOf). */
  hasCurrent: boolean;
  /** Size of the largest series, for scratch buffers. */
  maxLength: number;
}

const CONDITION_INDEX = new Map(PRICED_CONDITIONS.map((c, i) => [c, i]));

function columns(n: number, withMatchedBy = false): Columns {
  return {
    t: new Float64Array(n),
    p: new Float64Array(n),
    y: new Float64Array(n),
    src: new Int32Array(n),
    q: new Float64Array(n),
    vol: new Float64Array(n),
    g: new Uint8Array(n),
    by: withMatchedBy ? new Array<string | null>(n).fill(null) : null,
  };
}

/** A range of columns; a literal, not a spread, so every series has one hidden class. */
function range(c: Columns, lo: number, hi: number): Series {
  return { t: c.t, p: c.p, y: c.y, src: c.src, q: c.q, vol: c.vol, g: c.g, by: c.by, lo, hi };
}

/** Order of (time, price, source rank); negative when point i of a sorts before point j of b. */
function compareAt(a: Columns, i: number, b: Columns, j: number): number {
  return a.t[i]! - b.t[j]! || a.p[i]! - b.p[j]! || a.src[i]! - b.src[j]!;
}

/** Sorts points lo..hi-1 of the columns in place, unless already in order (the common case). */
function sortRange(c: Columns, lo: number, hi: number): void {
  let sorted = true;
  for (let i = lo + 1; i < hi && sorted; i++) sorted = compareAt(c, i - 1, c, i) <= 0;
  if (sorted) return;
  const order = Array.from({ length: hi - lo }, (_, i) => lo + i).sort((i, j) => compareAt(c, i, c, j));
  const t = c.t.slice(lo, hi);
  const p = c.p.slice(lo, hi);
  const src = c.src.slice(lo, hi);
  const vol = c.vol.slice(lo, hi);
  const by = c.by?.slice(lo, hi);
  order.forEach((from, k) => {
    c.t[lo + k] = t[from - lo]!;
    c.p[lo + k] = p[from - lo]!;
    c.src[lo + k] = src[from - lo]!;
    c.vol[lo + k] = vol[from - lo]!;
    if (by !== undefined) c.by![lo + k] = by[from - lo]!;
  });
}

/** First index in [lo, hi) whose time is >= `at` (binary search on the sorted times). */
export function lowerBound(s: Series, at: number): number {
  let lo = s.lo;
  let hi = s.hi;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s.t[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Every usable point of a product, grouped by priced condition and sorted: condition c's
 * points are `starts[c]`..`starts[c + 1] - 1` of the columns. One timeline serves any number
 * of instants (`seriesAt`), so a price history sorts and takes logarithms once.
 */
export interface PointTimeline {
  readonly columns: Columns;
  readonly starts: Int32Array;
  /** Source names, sorted; `Columns.src` values index this array. */
  readonly sources: readonly string[];
}

/** Whether the engine prices from a point: a positive finite price observed before `before`. */
function usable(observedAt: number, price: number, before: number): boolean {
  return observedAt < before && price > 0 && price !== Infinity;
}

/**
 * Source names to ids in order of first appearance. Consecutive points usually share a
 * source (store order), so the last lookup is reused before asking the map.
 */
function sourceIds() {
  const ids = new Map<string, number>();
  let last = '';
  let lastId = -1;
  return {
    id(name: string): number {
      if (name !== last || lastId < 0) {
        last = name;
        lastId = ids.get(name) ?? ids.size;
        if (lastId === ids.size) ids.set(name, lastId);
      }
      return lastId;
    },
    /** The names sorted, and each id's rank among them: ranks order like names. */
    ranked(): { sources: string[]; rank: Int32Array } {
      const sources = [...ids.keys()].sort();
      const rank = new Int32Array(sources.length);
      sources.forEach((name, r) => (rank[ids.get(name)!] = r));
      return { sources, rank };
    },
  };
}

/** Sorts each condition's points (when not already in order) and takes their logarithms. */
function sortedTimeline(columns: Columns, starts: Int32Array, sources: readonly string[]): PointTimeline {
  for (let c = 0; c + 1 < starts.length; c++) sortRange(columns, starts[c]!, starts[c + 1]!);
  const guide = Uint8Array.from(sources, (name) => (PRICE_GUIDE_SOURCES.includes(name) ? 1 : 0));
  for (let i = 0; i < columns.p.length; i++) {
    columns.y[i] = Math.log(columns.p[i]!);
    const v = columns.vol[i]!;
    columns.q[i] = quoteWeight(Number.isNaN(v) ? null : v);
    columns.g[i] = Number.isNaN(v) ? guide[columns.src[i]!]! : 1;
  }
  return { columns, starts, sources };
}

/**
 * The timeline of points in any order: two passes into shared typed columns grouped by
 * condition (a counting sort), then one sort per condition only when it is not already in
 * order. Points at or after `before`, of other conditions, or with a price that is not a
 * positive finite number are left out.
 */
function timelineOf(
  points: readonly PricePoint[],
  before: number,
  conditions: readonly string[] = PRICED_CONDITIONS,
  conditionIndex: ReadonlyMap<string, number> = CONDITION_INDEX,
): PointTimeline {
  // Pass 1: condition and source of every point.
  // Condition indexes fit a byte for the priced conditions; the extra grades may be more.
  const cond = conditions.length < 128 ? new Int8Array(points.length) : new Int32Array(points.length);
  const srcOf = new Int32Array(points.length);
  const starts = new Int32Array(conditions.length + 1);
  const ids = sourceIds();
  let lastCondition = '';
  let lastIndex = -1;
  let matched = false;
  for (let i = 0; i < points.length; i++) {
    const pt = points[i]!;
    if (pt.matchedBy != null) matched = true;
    if (pt.condition !== lastCondition) {
      lastCondition = pt.condition;
      lastIndex = conditionIndex.get(pt.condition) ?? -1;
    }
    if (lastIndex < 0 || !usable(pt.observedAt, pt.priceMinor, before)) {
      cond[i] = -1;
      continue;
    }
    cond[i] = lastIndex;
    starts[lastIndex + 1]!++;
    srcOf[i] = ids.id(pt.source);
  }
  for (let c = 0; c < conditions.length; c++) starts[c + 1]! += starts[c]!;
  const { sources, rank } = ids.ranked();
  // Pass 2: counting sort by condition into shared columns.
  const cols = columns(starts[conditions.length]!, matched);
  const fill = starts.slice(0, conditions.length);
  for (let i = 0; i < points.length; i++) {
    const c = cond[i]!;
    if (c < 0) continue;
    const k = fill[c]!++;
    cols.t[k] = points[i]!.observedAt;
    cols.p[k] = points[i]!.priceMinor;
    cols.src[k] = rank[srcOf[i]!]!;
    cols.vol[k] = points[i]!.salesVolume ?? Number.NaN;
    if (cols.by !== null) cols.by[k] = points[i]!.matchedBy ?? null;
  }
  return sortedTimeline(cols, starts, sources);
}

/**
 * The timeline of points given condition by condition (columns, as a history read gives
 * them), with the same rules as `timelineOf`: the same points give the same timeline.
 */
export function timelineOfColumns(groups: readonly ConditionPoints[]): PointTimeline {
  const starts = new Int32Array(PRICED_CONDITIONS.length + 1);
  const index = groups.map((g) => CONDITION_INDEX.get(g.condition) ?? -1);
  const ids = sourceIds();
  groups.forEach((g, j) => {
    if (index[j]! < 0) return;
    for (let i = 0; i < g.observedAt.length; i++) {
      if (usable(g.observedAt[i]!, g.priceMinor[i]!, Infinity)) starts[index[j]! + 1]!++;
    }
  });
  for (let c = 0; c < PRICED_CONDITIONS.length; c++) starts[c + 1]! += starts[c]!;
  const cols = columns(starts[PRICED_CONDITIONS.length]!);
  const fill = starts.slice(0, PRICED_CONDITIONS.length);
  groups.forEach((g, j) => {
    const c = index[j]!;
    if (c < 0) return;
    for (let i = 0; i < g.observedAt.length; i++) {
      if (!usable(g.observedAt[i]!, g.priceMinor[i]!, Infinity)) continue;
      const k = fill[c]!++;
      cols.t[k] = g.observedAt[i]!;
      cols.p[k] = g.priceMinor[i]!;
      cols.src[k] = ids.id(g.source[i]!);
      cols.vol[k] = g.salesVolume?.[i] ?? Number.NaN;
    }
  });
  // Ids are in order of appearance until here: make them ranks of the sorted names.
  const { sources, rank } = ids.ranked();
  for (let k = 0; k < cols.src.length; k++) cols.src[k] = rank[cols.src[k]!]!;
  return sortedTimeline(cols, starts, sources);
}

/**
 * The series of one instant: per condition, every point in [windowStart, asOf), the latest
 * EXTENDED_DEPTH_PER_CONDITION in [asOf - 30 days, windowStart) and the latest
 * PRIOR_POINTS_PER_CONDITION older than 30 days (last known). Ranges of the timeline's
 * columns, found by binary search: no copy. So a caller that supplies more history than
 * `pointsRequest` asks for never changes a price.
 */
export function seriesAt(timeline: PointTimeline, asOf: number, windowStart: number): SeriesSet {
  const { columns: cols, starts } = timeline;
  const from = asOf - EXTENDED_WINDOW_MS;
  let maxLength = 0;
  let hasCurrent = false;
  let empty = true;
  const bySeries = Array.from({ length: starts.length - 1 }, (_, c): ConditionSeries => {
    const lo = starts[c]!;
    const hi = lowerBound(range(cols, lo, starts[c + 1]!), asOf);
    // A condition's points: [unread | prior (last known) | 30 days: unread | capped | window].
    const windowLo = lowerBound(range(cols, lo, hi), windowStart);
    const cut = lowerBound(range(cols, lo, windowLo), from);
    const capLo = Math.max(cut, windowLo - EXTENDED_DEPTH_PER_CONDITION);
    const priorLo = Math.max(lo, cut - PRIOR_POINTS_PER_CONDITION);
    maxLength = Math.max(maxLength, hi - capLo, cut - priorLo);
    if (hi > capLo) hasCurrent = true;
    if (hi > capLo || cut > priorLo) empty = false;
    return { current: range(cols, capLo, hi), prior: range(cols, priorLo, cut) };
  });
  return {
    sources: timeline.sources,
    conditions: bySeries,
    empty,
    hasCurrent,
    maxLength,
  };
}

/**
 * The series of one instant of the given conditions (in that order) from points in any order,
 * by the same rules as `buildSeries`: the extra grades (extra-grades.ts).
 */
export function buildSeriesOf(
  points: readonly PricePoint[],
  conditions: readonly string[],
  asOf: number,
  windowStart: number,
): SeriesSet {
  const index = new Map(conditions.map((c, i) => [c, i]));
  return seriesAt(timelineOf(points, asOf, conditions, index), asOf, windowStart);
}

/** The series of one instant from points in any order (`timelineOf`, then `seriesAt`). */
export function buildSeries(points: readonly PricePoint[], asOf: number, windowStart: number): SeriesSet {
  return seriesAt(timelineOf(points, asOf), asOf, windowStart);
}
