/**
 * The one read pricing needs, bounded per bundle whatever a product's history: per priced
 * condition, every point of the requested window, the latest few of the 30 days before it
 * and the latest few older ones (docs/methodology.md §1-§2). Two statements, index range
 * scans only.
 */
import type { Statement } from 'better-sqlite3';
import { PRICED_CONDITIONS } from '../../domain/conditions.js';
import type { PricePoint } from '../../domain/observation.js';
import type { MatchedPoint, PricePointRange } from '../store.js';
import { preparedOnFirstUse, type SqliteDatabase } from './connection.js';


interface LatestParams {
  productId: number;
  lookbackStart: number;
  windowStart: number;
}

type Row = [condition: string, source: string, observedAt: number, priceMinor: number, salesVolume: number | null];

const PRICED_LIST = PRICED_CONDITIONS.map((c) => `'${c}'`).join(', ');

/** Creates the reader; its statements are prepared once per connection. */
export function createPricePointReader(db: SqliteDatabase) {
  // The IN list over the index (product, condition, observed_at, price, source, external_id)
  // is one range scan per condition, price and source read from the index. A quote's
  // sales_volume (methodology §4.1) is read only for points without an external id (price
  // guides' quotes): SQLite defers the table seek until the CASE reads it, so a sale costs no
  // more than from a covering index (docs/benchmarks.md).
  const windowPoints = preparedOnFirstUse(() =>
    db
      .prepare<[number, number, number], Row>(
        `SELECT condition, source, observed_at, price_minor, CASE WHEN external_id = '' THEN sales_volume END FROM observations
         WHERE product_id = ? AND condition IN (${PRICED_LIST}) AND observed_at >= ? AND observed_at < ?`,
      )
      .raw(),
  );
  // Backward range scans that stop after a few rows, two per condition (the 30 days before
  // the window, then older), so the cost no longer grows with how densely a product trades.
  // The limits are literals: with bound LIMIT parameters the statement was slower (bench/findings.md).
  const latest = (condition: string, range: string, limit: number) =>
    `SELECT * FROM (SELECT condition, source, observed_at, price_minor, CASE WHEN external_id = '' THEN sales_volume END FROM observations
     WHERE product_id = @productId AND condition = '${condition}' AND ${range}
     ORDER BY observed_at DESC LIMIT ${limit})`;
  const latestStatements = new Map<string, Statement<[LatestParams], Row>>();
  function latestBefore(depth: number, prior: number): Statement<[LatestParams], Row> {
    if (!Number.isSafeInteger(depth) || !Number.isSafeInteger(prior) || depth < 0 || prior < 0) {
      throw new RangeError(`point limits must be integers >= 0 (got ${depth}, ${prior})`);
    }
    const key = `${depth}/${prior}`;
    let statement = latestStatements.get(key);
    if (statement === undefined) {
      const parts = PRICED_CONDITIONS.flatMap((c) => [
        latest(c, 'observed_at >= @lookbackStart AND observed_at < @windowStart', depth),
        latest(c, 'observed_at < @lookbackStart', prior),
      ]);
      statement = db.prepare<[LatestParams], Row>(parts.join(' UNION ALL ')).raw();
      latestStatements.set(key, statement);
    }
    return statement;
  }

  const matched = preparedOnFirstUse(() =>
    db.prepare<[number, number, number], { condition: string; source: string; observedAt: number; priceMinor: number; matchedBy: string }>(
      `SELECT condition, source, observed_at AS observedAt, price_minor AS priceMinor, matched_by AS matchedBy FROM observations
       WHERE product_id = ? AND observed_at >= ? AND observed_at <= ? AND matched_by IS NOT NULL ORDER BY observed_at, id`,
    ),
  );
  // Extra grades (conditions.ts isExtraCondition): every other graded condition of the product
  // in the 30 days, one range scan of the product's index entries past the priced list.
  const extraPoints = preparedOnFirstUse(() =>
    db
      .prepare<[number, number, number], Row>(
        `SELECT condition, source, observed_at, price_minor FROM observations
         WHERE product_id = ? AND condition NOT IN (${PRICED_LIST}) AND condition NOT LIKE 'raw-%'
           AND observed_at >= ? AND observed_at < ?
         ORDER BY condition, observed_at, price_minor, source`,
      )
      .raw(),
  );

  return {
    /** Points matched by title in [from, to] (PricePointReader.matchedBy). */
    matchedBy(productId: number, from: number, to: number): MatchedPoint[] {
      return matched().all(productId, from, to);
    },
    /** The points of the product's extra grades in [lookbackStart, asOf) (store.ts readExtra). */
    readExtra(productId: number, range: PricePointRange): PricePoint[] {
      return extraPoints()
        .all(productId, range.lookbackStart, range.asOf)
        .map(([condition, source, observedAt, priceMinor]) => ({ condition, source, observedAt, priceMinor }));
    },
    /**
     * The points of `range` for one product. Each condition's points come out in time order
     * (the older ones reversed from their descending scans, then the window's), so the
     * engine's sortedness check passes and it skips sorting.
     */
    read(productId: number, range: PricePointRange): PricePoint[] {
      const older = latestBefore(range.depthPerCondition, range.priorPerCondition).all({
        productId,
        lookbackStart: range.lookbackStart,
        windowStart: range.windowStart,
      });
      const inWindow = windowPoints().all(productId, range.windowStart, range.asOf);
      const points = new Array<PricePoint>(older.length + inWindow.length);
      let n = 0;
      for (let i = older.length - 1; i >= 0; i--) {
        const [condition, source, observedAt, priceMinor, salesVolume] = older[i]!;
        points[n++] = { condition, source, observedAt, priceMinor, salesVolume };
      }
      for (const [condition, source, observedAt, priceMinor, salesVolume] of inWindow) {
        points[n++] = { condition, source, observedAt, priceMinor, salesVolume };
      }
      return points;
    },
  };
}

export type PricePointReader = ReturnType<typeof createPricePointReader>;
