/**
 * The one read pricing needs, bounded per bundle whatever a product's history: per priced
 * condition, every point of the requested window, the latest few of the 30 days before it
 * and the latest few older ones (docs/methodology.md §1-§2). Two statements, index range
 * scans only.
 */
import type { Statement } from 'better-sqlite3';
import { PRICED_CONDITIONS } from '../../domain/conditions.js';
import type { PricePoint } from '../../domain/observation.js';
import type { PointReadOptions, PricePointRange } from '../store.js';
import { type SqliteDatabase } from './connection.js';
import { onFirstUse } from '../../domain/first-use.js';

interface LatestParams {
  productId: number;
  lookbackStart: number;
  windowStart: number;
}

type Row = [
  condition: string,
  source: string,
  observedAt: number,
  priceMinor: number,
  salesVolume: number | null,
  matchedBy?: string | null,
];

const PRICED_LIST = PRICED_CONDITIONS.map((c) => `'${c}'`).join(', ');

/**
 * A point's columns. A quote's sales_volume (methodology §4.1) is read only for points
 * without an external id (price guides' quotes): SQLite defers the table seek until the CASE
 * reads it, so a sale costs no more than from a covering index (docs/benchmarks.md).
 * matched_by, set only on sales (title matches), would cost every sale that seek: it is read
 * only when asked for (PointReadOptions.matchedBy, `oracle explain`).
 */
const pointColumns = (matchedBy: boolean) =>
  `condition, source, observed_at, price_minor, CASE WHEN external_id = '' THEN sales_volume END${matchedBy ? ', matched_by' : ''}`;

const toPoint = ([condition, source, observedAt, priceMinor, salesVolume, matchedBy]: Row): PricePoint =>
  matchedBy === undefined
    ? { condition, source, observedAt, priceMinor, salesVolume }
    : { condition, source, observedAt, priceMinor, salesVolume, matchedBy };

/** Creates the reader; its statements are prepared once per connection. */
export function createPricePointReader(db: SqliteDatabase) {
  // The IN list over the index (product, condition, observed_at, price, source, external_id)
  // is one range scan per condition, price and source read from the index (pointColumns).
  const windowStatement = (matchedBy: boolean) =>
    onFirstUse(() =>
      db
        .prepare<[number, number, number], Row>(
          `SELECT ${pointColumns(matchedBy)} FROM observations
           WHERE product_id = ? AND condition IN (${PRICED_LIST}) AND observed_at >= ? AND observed_at < ?`,
        )
        .raw(),
    );
  const windowPoints = [windowStatement(false), windowStatement(true)] as const;
  // Backward range scans that stop after a few rows, two per condition (the 30 days before
  // the window, then older), so the cost no longer grows with how densely a product trades.
  // The limits are literals: with bound LIMIT parameters the statement was slower (bench/findings.md).
  const latest = (condition: string, range: string, limit: number, matchedBy: boolean) =>
    `SELECT * FROM (SELECT ${pointColumns(matchedBy)} FROM observations
     WHERE product_id = @productId AND condition = '${condition}' AND ${range}
     ORDER BY observed_at DESC LIMIT ${limit})`;
  const latestStatements = new Map<string, Statement<[LatestParams], Row>>();
  function latestBefore(depth: number, prior: number, matchedBy: boolean): Statement<[LatestParams], Row> {
    if (!Number.isSafeInteger(depth) || !Number.isSafeInteger(prior) || depth < 0 || prior < 0) {
      throw new RangeError(`point limits must be integers >= 0 (got ${depth}, ${prior})`);
    }
    const key = `${depth}/${prior}/${matchedBy}`;
    let statement = latestStatements.get(key);
    if (statement === undefined) {
      const parts = PRICED_CONDITIONS.flatMap((c) => [
        latest(c, 'observed_at >= @lookbackStart AND observed_at < @windowStart', depth, matchedBy),
        latest(c, 'observed_at < @lookbackStart', prior, matchedBy),
      ]);
      statement = db.prepare<[LatestParams], Row>(parts.join(' UNION ALL ')).raw();
      latestStatements.set(key, statement);
    }
    return statement;
  }

  // Extra grades (conditions.ts isExtraCondition): every other graded condition of the product
  // in the 30 days, one range scan of the product's index entries past the priced list.
  const extraStatement = (matchedBy: boolean) =>
    onFirstUse(() =>
      db
        .prepare<[number, number, number], Row>(
          `SELECT ${pointColumns(matchedBy)} FROM observations
           WHERE product_id = ? AND condition NOT IN (${PRICED_LIST}) AND condition NOT LIKE 'raw-%'
             AND observed_at >= ? AND observed_at < ?
           ORDER BY condition, observed_at, price_minor, source`,
        )
        .raw(),
    );
  const extraPoints = [extraStatement(false), extraStatement(true)] as const;

  return {
    /** The points of the product's extra grades in [lookbackStart, asOf) (store.ts readExtra). */
    readExtra(productId: number, range: PricePointRange, options?: PointReadOptions): PricePoint[] {
      return extraPoints[options?.matchedBy ? 1 : 0]()
        .all(productId, range.lookbackStart, range.asOf)
        .map(toPoint);
    },
    /**
     * The points of `range` for one product. Each condition's points come out in time order
     * (the older ones reversed from their descending scans, then the window's), so the
     * engine's sortedness check passes and it skips sorting. With `options.matchedBy` the same
     * points, each with its matched_by (`oracle explain`).
     */
    read(productId: number, range: PricePointRange, options?: PointReadOptions): PricePoint[] {
      const matchedBy = options?.matchedBy === true;
      const older = latestBefore(range.depthPerCondition, range.priorPerCondition, matchedBy).all({
        productId,
        lookbackStart: range.lookbackStart,
        windowStart: range.windowStart,
      });
      const inWindow = windowPoints[matchedBy ? 1 : 0]().all(productId, range.windowStart, range.asOf);
      const points = new Array<PricePoint>(older.length + inWindow.length);
      let n = 0;
      for (let i = older.length - 1; i >= 0; i--) points[n++] = toPoint(older[i]!);
      for (const row of inWindow) points[n++] = toPoint(row);
      return points;
    },
  };
}

export type PricePointReader = ReturnType<typeof createPricePointReader>;
