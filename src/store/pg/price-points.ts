/**
 * The pricing reads on PostgreSQL: the statements of ../sqlite/price-points.ts and
 * ../sqlite/price-point-series.ts (a series assembled by ../series-points.ts, as there), with
 * the order SQLite's index scans give made explicit (per condition, by time, then price,
 * source and external id), so the engine sees the same points in the same order from either
 * store.
 */
import { PRICED_CONDITIONS } from '../../domain/conditions.js';
import type { ConditionPoints, PricePoint } from '../../domain/observation.js';
import type { MatchedPoint, PricePointRange } from '../store.js';
import { pointColumns, seriesSpan, type Row } from '../series-points.js';
import type { Session } from './session.js';

const PRICED_LIST = PRICED_CONDITIONS.map((c) => `'${c}'`).join(', ');
const C = 'COLLATE "C"';
const POINT = `condition, source, observed_at, price_minor, CASE WHEN external_id = '' THEN sales_volume END AS sales_volume`;
/** The columns of POINT as the union of latestPerCondition names them. */
const POINT_OUT = `condition, source, observed_at, price_minor, sales_volume`;
const ASCENDING = `observed_at, price_minor, source ${C}, external_id ${C}`;
const DESCENDING = `observed_at DESC, price_minor DESC, source ${C} DESC, external_id ${C} DESC`;

/** Every priced point of a product in [from, to): per condition (in SQLite's IN-list order), ascending. */
const SPAN = `SELECT ${POINT} FROM observations
  WHERE product_id = $1 AND condition IN (${PRICED_LIST}) AND observed_at >= $2 AND observed_at < $3
  ORDER BY condition ${C}, ${ASCENDING}`;

/** The points of a product's extra grades in [from, to) (store.ts readExtra), in the order SQLite gives them. */
const EXTRA = `SELECT ${POINT} FROM observations
  WHERE product_id = $1 AND condition NOT IN (${PRICED_LIST}) AND condition NOT LIKE 'raw-%'
    AND observed_at >= $2 AND observed_at < $3
  ORDER BY condition ${C}, observed_at, price_minor, source ${C}`;

function checkLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`point limit must be an integer >= 0 (got ${limit})`);
}

/**
 * The latest `limit` points of each priced condition within each part's range (a condition on
 * observed_at using $2, $3): condition by condition, part by part, newest first, as
 * SQLite's UNION ALL of backward scans returns them.
 */
function latestPerCondition(parts: readonly { range: string; limit: number }[]): string {
  const selects = PRICED_CONDITIONS.flatMap((condition, c) =>
    parts.map(({ range, limit }, p) => {
      checkLimit(limit);
      return `(SELECT ${POINT}, external_id, ${c * parts.length + p} AS part FROM observations
        WHERE product_id = $1 AND condition = '${condition}' AND ${range} ORDER BY ${DESCENDING} LIMIT ${limit})`;
    }),
  );
  return `SELECT ${POINT_OUT} FROM (${selects.join(' UNION ALL ')}) parts ORDER BY part, ${DESCENDING}`;
}

const toPoint = (row: { condition: string; source: string; observed_at: number; price_minor: number; sales_volume: number | null }): PricePoint => ({
  condition: row.condition,
  source: row.source,
  observedAt: row.observed_at,
  priceMinor: row.price_minor,
  salesVolume: row.sales_volume,
});

export function createPgPricePointReader(session: Session) {
  const rows = (text: string, params: unknown[]) =>
    session.prepared<{ condition: string; source: string; observed_at: number; price_minor: number; sales_volume: number | null }>(text, params);
  return {
    /** Points matched by title in [from, to] (PricePointReader.matchedBy), as the SQLite store orders them. */
    async matchedBy(productId: number, from: number, to: number): Promise<MatchedPoint[]> {
      const found = await session.query<{ condition: string; source: string; observed_at: string | number; price_minor: string | number; matched_by: string }>(
        `SELECT condition, source, observed_at, price_minor, matched_by FROM observations
         WHERE product_id = $1 AND observed_at >= $2 AND observed_at <= $3 AND matched_by IS NOT NULL ORDER BY observed_at, id`,
        [productId, from, to],
      );
      return found.map((r) => ({ condition: r.condition, source: r.source, observedAt: Number(r.observed_at), priceMinor: Number(r.price_minor), matchedBy: r.matched_by }));
      },
    /** The points of the product's extra grades in [lookbackStart, asOf) (store.ts readExtra). */
    async readExtra(productId: number, range: PricePointRange): Promise<PricePoint[]> {
      return (await rows(EXTRA, [productId, range.lookbackStart, range.asOf])).map(toPoint);
    },
    /** The points of `range` for one product, as ../price-points.ts's read returns them. */
    async read(productId: number, range: PricePointRange): Promise<PricePoint[]> {
      const [older, inWindow] = await Promise.all([
        rows(
          latestPerCondition([
            { range: 'observed_at >= $2 AND observed_at < $3', limit: range.depthPerCondition },
            { range: 'observed_at < $2', limit: range.priorPerCondition },
          ]),
          [productId, range.lookbackStart, range.windowStart],
        ),
        rows(SPAN, [productId, range.windowStart, range.asOf]),
      ]);
      const points = new Array<PricePoint>(older.length + inWindow.length);
      let n = 0;
      for (let i = older.length - 1; i >= 0; i--) points[n++] = toPoint(older[i]!);
      for (const row of inWindow) points[n++] = toPoint(row);
      return points;
    },
    /** Every point any of the ranges needs, per condition in time order (../price-point-series.ts). */
    async readSeries(productId: number, ranges: readonly PricePointRange[]): Promise<ConditionPoints[]> {
      const span = seriesSpan(ranges);
      if (span === null) return [];
      const [older, inSpan] = await Promise.all([
        rows(latestPerCondition([{ range: 'observed_at < $2', limit: span.prior }]), [productId, span.from]),
        rows(SPAN, [productId, span.from, span.to]),
      ]);
      const asRow = (r: (typeof older)[number]): Row => [r.condition, r.source, r.observed_at, r.price_minor, r.sales_volume];
      return pointColumns(older.map(asRow), inSpan.map(asRow));
    },
  };
}
