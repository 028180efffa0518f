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
import type { CachedPointRow, PointCache, ReadTail } from './point-cache.js';
import type { Session } from './session.js';

const PRICED_LIST = PRICED_CONDITIONS.map((c) => `'${c}'`).join(', ');
const C = 'COLLATE "C"';
const POINT = `condition, source, observed_at, price_minor, CASE WHEN external_id = '' THEN sales_volume END AS sales_volume`;
/** POINT and matched_by: the points `oracle explain` reads (PointReadOptions.matchedBy). */
const POINT_MATCHED = `${POINT}, matched_by`;
/** The columns of POINT (or POINT_MATCHED) as the union of latestPerCondition names them. */
const pointOut = (matchedBy: boolean) =>
  `condition, source, observed_at, price_minor, sales_volume${matchedBy ? ', matched_by' : ''}`;
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

/**
 * Every priced point of a product from $2 on, per condition in the reader's order (for the
 * point cache), at most $3 of them: readProductTail asks for one more than a tail may hold, to
 * tell one too large to keep without reading it all.
 */
const TAIL = `SELECT ${POINT} FROM observations
  WHERE product_id = $1 AND condition IN (${PRICED_LIST}) AND observed_at >= $2
  ORDER BY condition, ${ASCENDING} LIMIT $3`;

function checkLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 0)
    throw new RangeError(`point limit must be an integer >= 0 (got ${limit})`);
}

/**
 * The latest `limit` points of each priced condition within each part's range (a condition on
 * observed_at using $2, $3): condition by condition, part by part, newest first, as
 * SQLite's UNION ALL of backward scans returns them.
 */
function latestPerCondition(
  parts: readonly { range: string; limit: number }[],
  matchedBy = false,
  unordered = false,
): string {
  const point = matchedBy ? POINT_MATCHED : POINT;
  const selects = PRICED_CONDITIONS.flatMap((condition, c) =>
    parts.map(({ range, limit }, p) => {
      checkLimit(limit);
      // The index (product_id, condition, observed_at, price_minor, ...) gives the newest
      // first, so the scan stops after `limit` rows and their ties; only that handful is then
      // sorted on the text columns in C order, which the index (default collation) cannot give.
      return `(SELECT * FROM (SELECT ${point}, external_id, ${c * parts.length + p} AS part FROM observations
        WHERE product_id = $1 AND condition = '${condition}' AND ${range}
        ORDER BY observed_at DESC, price_minor DESC FETCH FIRST ${limit} ROWS WITH TIES) newest ORDER BY ${DESCENDING} LIMIT ${limit})`;
    }),
  );
  // `unordered`: the parts with their `part` and `external_id`, for bundleRead to order.
  if (unordered) return `SELECT *, 0 AS kind FROM (${selects.join(' UNION ALL ')}) parts`;
  return `SELECT ${pointOut(matchedBy)} FROM (${selects.join(' UNION ALL ')}) parts ORDER BY part, ${DESCENDING}`;
}

/**
 * The bundle read in one statement, one round trip: the latest points of each condition before
 * the window ($2 lookback start, $3 window start: latestPerCondition's parts, `kind` 0) and
 * every point of the window ($3 to $4, `kind` 1), each set in its own order (newest first per
 * part; per condition oldest first), the sets one after the other.
 */
function bundleRead(parts: readonly { range: string; limit: number }[], matchedBy: boolean): string {
  const point = matchedBy ? POINT_MATCHED : POINT;
  const older = latestPerCondition(parts, matchedBy, true);
  const when = (kind: number, column: string, order = '') =>
    `CASE WHEN kind = ${kind} THEN ${column} END${order}`;
  return `SELECT ${pointOut(matchedBy)}, kind FROM (
    ${older}
    UNION ALL
    SELECT ${point}, external_id, 0 AS part, 1 AS kind FROM observations
      WHERE product_id = $1 AND condition IN (${PRICED_LIST}) AND observed_at >= $3 AND observed_at < $4
  ) points
  ORDER BY kind, part, ${when(1, 'condition', ` ${C}`)},
    ${when(0, 'observed_at', ' DESC')}, ${when(0, 'price_minor', ' DESC')}, ${when(0, 'source', ` ${C} DESC`)}, ${when(0, 'external_id', ` ${C} DESC`)},
    ${when(1, 'observed_at')}, ${when(1, 'price_minor')}, ${when(1, 'source', ` ${C}`)}, ${when(1, 'external_id', ` ${C}`)}`;
}

interface PointRow extends CachedPointRow {
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

/** The reads of the point cache (point-cache.ts): a product's points from an instant on, and the latest few before it. */
export function readProductTail(session: Session): ReadTail {
  return async (productId, from, prior, limit) => {
    const [older, tail] = await Promise.all([
      session.prepared<CachedPointRow>(latestPerCondition([{ range: 'observed_at < $2', limit: prior }]), [
        productId,
        from,
      ]),
      session.prepared<CachedPointRow>(TAIL, [productId, from, limit + 1]),
    ]);
    return tail.length > limit ? undefined : { older, tail };
  };
}

/** `cache`: the server's (point-cache.ts), which pricing's reads go through; none for a command. */
export function createPgPricePointReader(session: Session, cache?: PointCache) {
  const rows = (text: string, params: unknown[]) => session.prepared<PointRow>(text, params);
  return {
    /** The points of the product's extra grades in [lookbackStart, asOf) (store.ts readExtra). */
    async readExtra(
      productId: number,
      range: PricePointRange,
      options?: PointReadOptions,
    ): Promise<PricePoint[]> {
      return (
        await rows(extraOf(options?.matchedBy ? POINT_MATCHED : POINT), [
          productId,
          range.lookbackStart,
          range.asOf,
        ])
      ).map(toPoint);
    },
    /** The points of `range` for one product, as ../price-points.ts's read returns them. */
    async read(productId: number, range: PricePointRange, options?: PointReadOptions): Promise<PricePoint[]> {
      const matchedBy = options?.matchedBy === true;
      const cached = matchedBy || cache === undefined ? undefined : await cache.read(productId, range);
      if (cached !== undefined) return cached;
      const text = bundleRead(
        [
          { range: 'observed_at >= $2 AND observed_at < $3', limit: range.depthPerCondition },
          { range: 'observed_at < $2', limit: range.priorPerCondition },
        ],
        matchedBy,
      );
      const found = await session.prepared<PointRow & { kind: number }>(text, [
        productId,
        range.lookbackStart,
        range.windowStart,
        range.asOf,
      ]);
      // The older points come newest first: the engine takes them oldest first, then the window's.
      const older = found.findIndex((row) => row.kind === 1);
      const split = older < 0 ? found.length : older;
      const points = new Array<PricePoint>(found.length);
      let n = 0;
      for (let i = split - 1; i >= 0; i--) points[n++] = toPoint(found[i]!);
      for (let i = split; i < found.length; i++) points[n++] = toPoint(found[i]!);
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
      const asRow = (r: (typeof older)[number]): Row => [
        r.condition,
        r.source,
        r.observed_at,
        r.price_minor,
        r.sales_volume,
      ];
      return pointColumns(older.map(asRow), inSpan.map(asRow));
    },
  };
}
