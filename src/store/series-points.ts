/**
 * The price points of a series as every store reads them (sqlite/price-point-series.ts,
 * pg/price-points.ts): the span one read of many instants covers, and the rows read turned
 * into the per-condition columns the engine takes (engine/series.ts slices them per instant).
 */
import type { ConditionPoints } from '../domain/observation.js';
import type { PricePointRange } from './store.js';

/** One price point as the stores' reads return it. */
export type Row = [
  condition: string,
  source: string,
  observedAt: number,
  priceMinor: number,
  salesVolume: number | null,
];

/**
 * What a series reads: every point from the earliest lookback to the latest instant, and the
 * latest `prior` per condition before that; null for no ranges. The ranges must share their
 * depth and prior limits (they do: one pricing request at many instants); the depth caps are
 * the engine's to apply per instant.
 */
export function seriesSpan(
  ranges: readonly PricePointRange[],
): { from: number; to: number; prior: number } | null {
  if (ranges.length === 0) return null;
  const { depthPerCondition: depth, priorPerCondition: prior } = ranges[0]!;
  let from = Infinity;
  let to = -Infinity;
  for (const r of ranges) {
    if (r.depthPerCondition !== depth || r.priorPerCondition !== prior)
      throw new RangeError('ranges of one series share their point limits');
    from = Math.min(from, r.lookbackStart);
    to = Math.max(to, r.asOf);
  }
  return { from, to, prior };
}

/** One condition's points as columns, in time order. */
export interface SeriesColumns {
  observedAt: number[];
  priceMinor: number[];
  source: string[];
  salesVolume: (number | null)[];
}

/**
 * Per condition, in time order: first `older` (per condition newest first, as the backward
 * scans return them), then what `add` and `addPages` are given (per condition in time order).
 */
export function conditionColumns(older: readonly Row[]) {
  const byCondition = new Map<string, SeriesColumns>();
  const of = (condition: string) => {
    let c = byCondition.get(condition);
    if (!c) byCondition.set(condition, (c = { observedAt: [], priceMinor: [], source: [], salesVolume: [] }));
    return c;
  };
  const add = ([condition, source, observedAt, priceMinor, salesVolume]: Row) => {
    const c = of(condition);
    c.observedAt.push(observedAt);
    c.priceMinor.push(priceMinor);
    c.source.push(source);
    c.salesVolume.push(salesVolume);
  };
  for (let i = older.length - 1; i >= 0; i--) add(older[i]!);
  return {
    add,
    /** A condition's points read a page at a time, in time order: joined once, after what it holds. */
    addPages(condition: string, pages: readonly SeriesColumns[]) {
      const c = byCondition.get(condition);
      // Usually one page and nothing older: its columns are taken as they are, not copied.
      if (c === undefined && pages.length === 1) byCondition.set(condition, pages[0]!);
      else {
        const parts = c === undefined ? pages : [c, ...pages];
        const [first, ...rest] = parts as [SeriesColumns, ...SeriesColumns[]];
        byCondition.set(condition, {
          observedAt: first.observedAt.concat(...rest.map((p) => p.observedAt)),
          priceMinor: first.priceMinor.concat(...rest.map((p) => p.priceMinor)),
          source: first.source.concat(...rest.map((p) => p.source)),
          salesVolume: first.salesVolume.concat(...rest.map((p) => p.salesVolume)),
        });
      }
    },
    done: (): ConditionPoints[] => [...byCondition].map(([condition, c]) => ({ condition, ...c })),
  };
}

/** The read of a series as the engine takes it, from the rows of seriesSpan's two reads: `older` newest first, `span` in time order (per condition). */
export function pointColumns(older: readonly Row[], span: Iterable<Row>): ConditionPoints[] {
  const columns = conditionColumns(older);
  for (const row of span) columns.add(row);
  return columns.done();
}
