/**
 * The price points of many instants of one product (a price history), read with two
 * statements instead of two per instant: the latest few per condition before the earliest
 * instant's lookback, and every priced point from there to the latest instant. The engine
 * sorts them once into a timeline and slices it per instant (engine/series.ts), so every
 * instant sees exactly what `read` (price-points.ts) returns for its range and is priced as
 * `oracle price --at` would price it.
 */
import type { Statement } from 'better-sqlite3';
import { PRICED_CONDITIONS } from '../../domain/conditions.js';
import { conditionColumns, seriesSpan, type Row } from '../series-points.js';
import { preparedOnFirstUse, type SqliteDatabase } from './connection.js';
import type { PricePointRange } from '../store.js';
import type { ConditionPoints } from '../../domain/observation.js';

/** A condition's points as three JSON arrays of one aggregate row. */
type ConditionRow = [condition: string, observedAt: string, priceMinor: string, source: string, salesVolume: string];

const PRICED_LIST = PRICED_CONDITIONS.map((c) => `'${c}'`).join(', ');

export function createPricePointSeriesReader(db: SqliteDatabase) {
  // A busy product's year is a great many points: one aggregate row per condition, its
  // columns as JSON arrays, hands them over far more cheaply than a row array per point
  // (bench/findings.md). The aggregates follow the covering index's scan, one condition
  // after another, each in the index's order (time, price, source), the engine's, with no
  // sort (checked in the tests; the engine sorts anyway if an order ever differs).
  const spanColumns = preparedOnFirstUse(() =>
    db
      .prepare<[number, number, number], ConditionRow>(
        `SELECT condition, json_group_array(observed_at), json_group_array(price_minor), json_group_array(source),
           json_group_array(CASE WHEN external_id = '' THEN sales_volume END)
         FROM observations
         WHERE product_id = ? AND condition IN (${PRICED_LIST}) AND observed_at >= ? AND observed_at < ?
         GROUP BY condition`,
      )
      .raw(),
  );
  // Limits are literals, as in price-points.ts: one statement per limit, prepared once.
  const olderStatements = new Map<number, Statement<[{ productId: number; before: number }], Row>>();
  function olderThan(limit: number) {
    let statement = olderStatements.get(limit);
    if (statement === undefined) {
      if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`point limit must be an integer >= 0 (got ${limit})`);
      const parts = PRICED_CONDITIONS.map(
        (c) => `SELECT * FROM (SELECT condition, source, observed_at, price_minor, CASE WHEN external_id = '' THEN sales_volume END FROM observations
         WHERE product_id = @productId AND condition = '${c}' AND observed_at < @before ORDER BY observed_at DESC LIMIT ${limit})`,
      );
      statement = db.prepare<[{ productId: number; before: number }], Row>(parts.join(' UNION ALL ')).raw();
      olderStatements.set(limit, statement);
    }
    return statement;
  }

  return {
    /** Every point any of the ranges needs (seriesSpan), per priced condition in time order. */
    readSeries(productId: number, ranges: readonly PricePointRange[]): ConditionPoints[] {
      const span = seriesSpan(ranges);
      if (span === null) return [];
      const columns = conditionColumns(olderThan(span.prior).all({ productId, before: span.from }));
      for (const [condition, observedAt, priceMinor, source, salesVolume] of spanColumns().iterate(productId, span.from, span.to)) {
        columns.addColumns(condition, {
          observedAt: JSON.parse(observedAt) as number[],
          priceMinor: JSON.parse(priceMinor) as number[],
          source: JSON.parse(source) as string[],
          salesVolume: JSON.parse(salesVolume) as (number | null)[],
        });
      }
      return columns.done();
    },
  };
}

export type PricePointSeriesReader = ReturnType<typeof createPricePointSeriesReader>;
