/** Observations: idempotent batch inserts for ingest, and the one range read pricing needs. */
import { conditionKey, PRICED_CONDITIONS } from '../domain/conditions.js';
import type { Observation, PricePoint } from '../domain/observation.js';
import type { SqliteDatabase } from './connection.js';

/** An observation whose product is resolved to its row id. */
export interface ResolvedObservation extends Observation {
  productId: number;
}

export interface InsertResult {
  inserted: number;
  duplicates: number;
}

/**
 * The identity of CONTRACT.md as one string: (source, external_id) when the record has an
 * external id, otherwise every field. The table enforces the same identity with its two
 * unique indexes (schema.ts); this string only serves --dry-run's memory of what it has seen.
 */
function identityKey(o: ResolvedObservation): string {
  if (o.externalId !== null) return `e|${o.source}|${o.externalId}`;
  return `f|${o.source}|${o.productId}|${o.observedAt}|${o.priceMinor}|${conditionKey(o.grader, o.grade)}`;
}

const PRICED_LIST = PRICED_CONDITIONS.map((c) => `'${c}'`).join(', ');

export function createObservationRepo(db: SqliteDatabase) {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO observations (product_id, condition, observed_at, price_minor, source, grader, grade, external_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const bumpProduct = db.prepare(
    `UPDATE products SET observation_count = observation_count + ?,
       earliest_observed_at = MIN(COALESCE(earliest_observed_at, ?), ?) WHERE id = ?`,
  );
  const storedById = db.prepare<[string, string], { one: number }>(
    `SELECT 1 AS one FROM observations WHERE source = ? AND external_id = ? AND external_id <> ''`,
  );
  const storedByFields = db.prepare<[number, string, number, number, string], { one: number }>(
    `SELECT 1 AS one FROM observations
     WHERE product_id = ? AND condition = ? AND observed_at = ? AND price_minor = ? AND source = ? AND external_id = ''`,
  );
  const isStored = (o: ResolvedObservation): boolean =>
    o.externalId !== null
      ? storedById.get(o.source, o.externalId) !== undefined
      : storedByFields.get(o.productId, conditionKey(o.grader, o.grade), o.observedAt, o.priceMinor, o.source) !==
        undefined;

  // One statement for every priced cell: the IN list over the covering index makes it one
  // range scan per condition, reading price and source from the index alone.
  const windowPoints = db
    .prepare<[number, number, number], [string, string, number, number]>(
      `SELECT condition, source, observed_at, price_minor FROM observations
       WHERE product_id = ? AND condition IN (${PRICED_LIST}) AND observed_at >= ? AND observed_at < ?`,
    )
    .raw();
  const priorStatements = new Map<number, ReturnType<typeof preparePrior>>();
  function preparePrior(perCondition: number) {
    const parts = PRICED_CONDITIONS.map(
      (c) =>
        `SELECT * FROM (SELECT condition, source, observed_at, price_minor FROM observations
         WHERE product_id = @productId AND condition = '${c}' AND observed_at < @before ORDER BY observed_at DESC LIMIT ${perCondition})`,
    );
    return db
      .prepare<[{ productId: number; before: number }], [string, string, number, number]>(parts.join(' UNION ALL '))
      .raw();
  }

  return {
    /**
     * Inserts a batch in one transaction, skipping records already stored (same dedup key),
     * and keeps each product's observation count and earliest time current.
     */
    insertMany(rows: readonly ResolvedObservation[]): InsertResult {
      let inserted = 0;
      const perProduct = new Map<number, { count: number; earliest: number }>();
      db.transaction(() => {
        for (const o of rows) {
          const info = insert.run(
            o.productId,
            conditionKey(o.grader, o.grade),
            o.observedAt,
            o.priceMinor,
            o.source,
            o.grader,
            o.grade,
            o.externalId ?? '',
          );
          if (info.changes === 0) continue;
          inserted += 1;
          const agg = perProduct.get(o.productId);
          if (agg) {
            agg.count += 1;
            if (o.observedAt < agg.earliest) agg.earliest = o.observedAt;
          } else perProduct.set(o.productId, { count: 1, earliest: o.observedAt });
        }
        for (const [productId, agg] of perProduct) bumpProduct.run(agg.count, agg.earliest, agg.earliest, productId);
      })();
      return { inserted, duplicates: rows.length - inserted };
    },

    /**
     * For --dry-run: how many of these records an insert would add. `seen` carries the keys of
     * earlier batches of the same run, so a record repeated in the input counts once.
     */
    countNew(rows: readonly ResolvedObservation[], seen: Set<string>): InsertResult {
      let inserted = 0;
      for (const o of rows) {
        const key = identityKey(o);
        if (seen.has(key) || isStored(o)) continue;
        seen.add(key);
        inserted += 1;
      }
      return { inserted, duplicates: rows.length - inserted };
    },

    /**
     * Everything the engine needs to price one product at `asOf`: every priced point in
     * [from, asOf), plus the latest `priorPerCondition` points of each priced condition
     * before `from` (the engine's last-known tier). Two statements, index range scans only.
     */
    pricePoints(productId: number, from: number, asOf: number, priorPerCondition: number): PricePoint[] {
      const points: PricePoint[] = [];
      for (const [condition, source, observedAt, priceMinor] of windowPoints.all(productId, from, asOf)) {
        points.push({ condition, source, observedAt, priceMinor });
      }
      if (priorPerCondition > 0) {
        let prior = priorStatements.get(priorPerCondition);
        if (!prior) priorStatements.set(priorPerCondition, (prior = preparePrior(priorPerCondition)));
        for (const [condition, source, observedAt, priceMinor] of prior.all({ productId, before: from })) {
          points.push({ condition, source, observedAt, priceMinor });
        }
      }
      return points;
    },
  };
}

export type ObservationRepo = ReturnType<typeof createObservationRepo>;
