/**
 * The price points of many instants of one product (a price history), read with two
 * statements instead of two per instant: every priced point from the earliest instant's
 * lookback to the latest instant, and the latest few before that, then sliced per instant
 * in memory. Each slice holds exactly what `read` (price-points.ts) returns for its range,
 * so the engine prices every instant as `oracle price --at` would.
 */
import type { Statement } from 'better-sqlite3';
import { PRICED_CONDITIONS } from '../domain/conditions.js';
import type { PricePoint } from '../domain/observation.js';
import type { SqliteDatabase } from './connection.js';
import type { PricePointRange } from './price-points.js';

export type Row = [condition: string, source: string, observedAt: number, priceMinor: number];

const PRICED_LIST = PRICED_CONDITIONS.map((c) => `'${c}'`).join(', ');

/** Index of the first point of `points` at or after `t` (points sorted by time). */
function lowerBound(points: readonly PricePoint[], t: number): number {
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (points[mid]!.observedAt < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * What a series reads: every point from the earliest lookback to the latest instant, and the
 * latest `prior` per condition before that; null for no ranges. The ranges must share their
 * depth and prior limits (they do: one pricing request at many instants).
 */
export function seriesSpan(ranges: readonly PricePointRange[]): { from: number; to: number; prior: number } | null {
  if (ranges.length === 0) return null;
  const { depthPerCondition: depth, priorPerCondition: prior } = ranges[0]!;
  let from = Infinity;
  let to = -Infinity;
  for (const r of ranges) {
    if (r.depthPerCondition !== depth || r.priorPerCondition !== prior) throw new RangeError('ranges of one series share their point limits');
    from = Math.min(from, r.lookbackStart);
    to = Math.max(to, r.asOf);
  }
  return { from, to, prior };
}

/**
 * The points of each range from the rows of seriesSpan: `older` (per condition, newest first,
 * as the backward scans return them) and `span` (per condition in time order).
 */
export function slicePerRange(older: readonly Row[], span: Iterable<Row>, ranges: readonly PricePointRange[]): PricePoint[][] {
  const { depthPerCondition: depth, priorPerCondition: prior } = ranges[0]!;
  // Per condition, in time order: the latest `prior` before the span, then the span.
  const byCondition = new Map<string, PricePoint[]>();
  const add = ([condition, source, observedAt, priceMinor]: Row) => {
    let list = byCondition.get(condition);
    if (!list) byCondition.set(condition, (list = []));
    list.push({ condition, source, observedAt, priceMinor });
  };
  for (let i = older.length - 1; i >= 0; i--) add(older[i]!);
  for (const row of span) add(row);

  const lists = [...byCondition.values()];
  return ranges.map((r) => {
    const out: PricePoint[] = [];
    for (const points of lists) {
      const lookback = lowerBound(points, r.lookbackStart);
      const window = lowerBound(points, r.windowStart);
      const end = lowerBound(points, r.asOf);
      for (let i = Math.max(0, lookback - prior); i < lookback; i++) out.push(points[i]!);
      for (let i = Math.max(lookback, window - depth); i < end; i++) out.push(points[i]!);
    }
    return out;
  });
}

export function createPricePointSeriesReader(db: SqliteDatabase) {
  const spanRows = db
    .prepare<[number, number, number], Row>(
      `SELECT condition, source, observed_at, price_minor FROM observations
       WHERE product_id = ? AND condition IN (${PRICED_LIST}) AND observed_at >= ? AND observed_at < ?`,
    )
    .raw();
  // One range scan per condition over the covering index: each condition's rows come in the
  // index's order (time, price, source), the engine's, with no sort (checked in the tests).
  // Limits are literals, as in price-points.ts: one statement per limit, prepared once.
  const olderStatements = new Map<number, Statement<[{ productId: number; before: number }], Row>>();
  function olderThan(limit: number) {
    let statement = olderStatements.get(limit);
    if (statement === undefined) {
      if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`point limit must be an integer >= 0 (got ${limit})`);
      const parts = PRICED_CONDITIONS.map(
        (c) => `SELECT * FROM (SELECT condition, source, observed_at, price_minor FROM observations
         WHERE product_id = @productId AND condition = '${c}' AND observed_at < @before ORDER BY observed_at DESC LIMIT ${limit})`,
      );
      statement = db.prepare<[{ productId: number; before: number }], Row>(parts.join(' UNION ALL ')).raw();
      olderStatements.set(limit, statement);
    }
    return statement;
  }

  return {
    /**
     * The points of each range, in the order given; the ranges must share their depth and
     * prior limits (they do: one pricing request at many instants).
     */
    readSeries(productId: number, ranges: readonly PricePointRange[]): PricePoint[][] {
      const span = seriesSpan(ranges);
      if (span === null) return [];
      // Iterated, not collected: a year of a busy product is ~100k rows, and a row array
      // per row held until the end is what the garbage collector then pays for.
      return slicePerRange(olderThan(span.prior).all({ productId, before: span.from }), spanRows.iterate(productId, span.from, span.to), ranges);
    },
  };
}

export type PricePointSeriesReader = ReturnType<typeof createPricePointSeriesReader>;
