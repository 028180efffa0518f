/**
 * The pricing reads on PostgreSQL: the statements of ../sqlite/price-points.ts and
 * ../sqlite/price-point-series.ts (a series assembled by ../series-points.ts, as there), with
 * the order SQLite's index scans give made explicit (per condition, by time, then price,
 * source and external id), so the engine sees the same points in the same order from either
 * store.
 */
import { PRICED_CONDITIONS } from '../../domain/conditions.js';
import type { ConditionPoints, PricePoint } from '../../domain/observation.js';
import type { PointReadOptions, PricePointRange } from '../store.js';
import { pointColumns, seriesSpan, type Row } from '../series-points.js';
import type { Session } from './session.js';

const PRICED_LIST = PRICED_CONDITIONS.map((c) => `'${c}'`).join(', ');
const C = 'COLLATE "C"';
const POINT = `condition, source, observed_at, price_minor, CASE WHEN external_id = '' THEN sales_volume END AS sales_volume`;
/** POINT and matched_by: the points `oracle explain` reads (PointReadOptions.matchedBy). */
const POINT_MATCHED = `${POINT}, matched_by`;
/** The columns of POINT (or POINT_MATCHED) as the union of latestPerCondition names them. */
const pointOut = (matchedBy: boolean) => `condition, source, observed_at, price_minor, sales_volume${matchedBy ? ', matched_by' : ''}`;
const ASCENDING = `observed_at, price_minor, source ${C}, external_id ${C}`;
const DESCENDING = `observed_at DESC, price_minor DESC, source ${C} DESC, external_id ${C} DESC`;

/** Every priced point of a product in [from, to): per condition (in SQLite's IN-list order), ascending. */
const spanOf = (point: string) => `SELECT ${point} FROM observations
  WHERE product_id = $1 AND condition IN (${PRICED_LIST}) AND observed_at >= $2 AND observed_at < $3
  ORDER BY condition ${C}, ${ASCENDING}`;
const SPAN = spanOf(POINT);

/** The points of a product's extra grades in [from, to) (store.ts readExtra), in the order SQLite gives them. */
const extraOf = (point: string) => `SELECT ${point} FROM observations
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
function latestPerCondition(parts: readonly { range: string; limit: number }[], matchedBy = false): string {
  const point = matchedBy ? POINT_MATCHED : POINT;
  const selects = PRICED_CONDITIONS.flatMap((condition, c) =>
    parts.map(({ range, limit }, p) => {
      checkLimit(limit);
      return `(SELECT ${point}, external_id, ${c * parts.length + p} AS part FROM observations
        WHERE product_id = $1 AND condition = '${condition}' AND ${range} ORDER BY ${DESCENDING} LIMIT ${limit})`;
    }),
  );
  return `SELECT ${pointOut(matchedBy)} FROM (${selects.join(' UNION ALL ')}) parts ORDER BY part, ${DESCENDING}`;
}

interface PointRow {
  condition: string;
  source: string;
  observed_at: number;
  price_minor: number;
  sales_volume: number | null;
  /** Only when read (PointReadOptions.matchedBy). */
  matched_by?: string | null;
}

const toPoint = (row: PointRow): PricePoint => {
  const point: PricePoint = {
    condition: row.condition,
    source: row.source,
    observedAt: row.observed_at,
    priceMinor: row.price_minor,
    salesVolume: row.sales_volume,
  };
  if (row.matched_by !== undefined) point.matchedBy = row.matched_by;
  return point;
};

export function createPgPricePointReader(session: Session) {
  const rows = (text: string, params: unknown[]) => session.prepared<PointRow>(text, params);
  return {
    /** The points of the product's extra grades in [lookbackStart, asOf) (store.ts readExtra). */
    async readExtra(productId: number, range: PricePointRange, options?: PointReadOptions): Promise<PricePoint[]> {
      return (await rows(extraOf(options?.matchedBy ? POINT_MATCHED : POINT), [productId, range.lookbackStart, range.asOf])).map(toPoint);
    },
    /** The points of `range` for one product, as ../price-points.ts's read returns them. */
    async read(productId: number, range: PricePointRange, options?: PointReadOptions): Promise<PricePoint[]> {
      const matchedBy = options?.matchedBy === true;
      const [older, inWindow] = await Promise.all([
        rows(
          latestPerCondition([
            { range: 'observed_at >= $2 AND observed_at < $3', limit: range.depthPerCondition },
            { range: 'observed_at < $2', limit: range.priorPerCondition },
          ], matchedBy),
          [productId, range.lookbackStart, range.windowStart],
        ),
        rows(matchedBy ? spanOf(POINT_MATCHED) : SPAN, [productId, range.windowStart, range.asOf]),
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
