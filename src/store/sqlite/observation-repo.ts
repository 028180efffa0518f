/** Observations: idempotent inserts for ingest (streamed, or a batch). Pricing reads live in price-points.ts. */
import { conditionKey } from '../../domain/conditions.js';
import type { InsertResult, ObservationRow, ResolvedObservation } from '../store.js';
import { CATALOG_CACHE_KIB, READ_CACHE_KIB, setPageCache, type SqliteDatabase } from './connection.js';
import type { WriteLock } from './write-lock.js';
import { onFirstUse } from '../../domain/first-use.js';

/**
 * Streaming writes for ingest: each row goes straight into an open transaction (no batch
 * array in memory); `commit` ends it. A caller may refill one row object for every row
 * (IngestWriter.insert). The products' count and earliest time are kept in a small per-product map and
 * written just before each COMMIT, in the same transaction.
 */
export interface ObservationWriter {
  /**
   * Inserts one observation unless an identical one is stored (CONTRACT.md identity);
   * opens a transaction (BEGIN IMMEDIATE) when none is open. True when it was new.
   */
  insert(row: ObservationRow): boolean;
  /**
   * Opens the transaction now, if none is open: the store's other writes (products) then join
   * it, with the catalog's page cache (connection.ts) until a commit of observations.
   */
  begin(): void;
  /** Updates the products' aggregates and commits; nothing when no transaction is open. */
  commit(): void;
  /** Rolls back what is not committed (nothing when no transaction is open). */
  rollback(): void;
  /** Rolls back what is not committed and gives the connection back to other writes. */
  close(): void;
}

/**
 * The identity of CONTRACT.md as one string: (source, external_id) when the record has an
 * external id, otherwise every field. The table enforces the same identity with its two
 * unique indexes (schema.ts); this string only serves --dry-run's memory of what it has seen.
 */
function identityKey({
  productId,
  condition,
  observedAt,
  priceMinor,
  source,
  externalId,
}: ObservationRow): string {
  if (externalId !== '') return `e|${source}|${externalId}`;
  return `f|${source}|${productId}|${observedAt}|${priceMinor}|${condition}`;
}

export function createObservationRepo(db: SqliteDatabase, writeLock: WriteLock) {
  const storedById = onFirstUse(() =>
    db.prepare<[string, string], { one: number }>(
      `SELECT 1 AS one FROM observations WHERE source = ? AND external_id = ? AND external_id <> ''`,
    ),
  );
  const storedByFields = onFirstUse(() =>
    db.prepare<[number, string, number, number, string], { one: number }>(
      `SELECT 1 AS one FROM observations
       WHERE product_id = ? AND condition = ? AND observed_at = ? AND price_minor = ? AND source = ? AND external_id = ''`,
    ),
  );
  /** For --dry-run: true when an insert would add this row; `seen` remembers the rows counted before. */
  function isNew(row: ObservationRow, seen: Set<string>): boolean {
    const key = identityKey(row);
    if (seen.has(key)) return false;
    const { productId, condition, observedAt, priceMinor, source, externalId } = row;
    const stored =
      externalId !== ''
        ? storedById().get(source, externalId) !== undefined
        : storedByFields().get(productId, condition, observedAt, priceMinor, source) !== undefined;
    if (stored) return false;
    seen.add(key);
    return true;
  }
  // A writer's statements, prepared together when the first writer opens: its error path
  // (ROLLBACK) is never the first to prepare one.
  const writing = onFirstUse(() => ({
    begin: db.prepare('BEGIN IMMEDIATE'),
    insert: db.prepare(
      `INSERT OR IGNORE INTO observations (product_id, condition, observed_at, price_minor, source, grader, grade, external_id, sales_volume, matched_by, currency, amount_minor)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    bumpProduct: db.prepare(
      `UPDATE products SET observation_count = observation_count + ?,
         earliest_observed_at = MIN(COALESCE(earliest_observed_at, ?), ?) WHERE id = ?`,
    ),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
  }));

  /** Opens a streaming writer (see ObservationWriter); one at a time per store. */
  function openWriter(): ObservationWriter {
    const statements = writing();
    // Every product id a writer gets was just read from this database, and nothing deletes
    // products, so the per-row foreign-key lookup (a visible share of a bulk load's writing
    // thread, bench/findings.md) checks nothing; it is back on when the writer closes.
    db.pragma('foreign_keys = OFF');
    let open = false;
    let cacheKib = READ_CACHE_KIB;
    const useCache = (kib: number) => {
      if (cacheKib === kib) return;
      setPageCache(db, kib);
      cacheKib = kib;
    };
    // A catalog's lookups and writes take the small cache from the start: a re-run whose
    // products are all stored writes nothing, and its lookups filled the read cache as the
    // catalog grew. The first observation of a transaction takes the read cache back.
    useCache(CATALOG_CACHE_KIB);
    // Observations inserted in the open transaction: the commit gives them the read cache back
    // (switching at most once a commit, however a source mixes products and observations).
    let observed = false;
    // Per product: [count, earliest]. At most one entry per product the transaction touched.
    const perProduct = new Map<number, [number, number]>();
    const start = () => {
      if (open) return;
      writeLock.run(() => statements.begin.run());
      open = true;
    };
    return {
      begin() {
        if (!observed) useCache(CATALOG_CACHE_KIB);
        start();
      },
      insert(row) {
        if (!open) {
          useCache(READ_CACHE_KIB);
          start();
        }
        observed = true;
        const { productId, observedAt } = row;
        if (
          statements.insert.run(
            productId,
            row.condition,
            observedAt,
            row.priceMinor,
            row.source,
            row.grader,
            row.grade,
            row.externalId,
            row.salesVolume ?? null,
            row.matchedBy ?? null,
            row.currency ?? 'USD',
            row.amountMinor ?? null,
          ).changes === 0
        )
          return false;
        const agg = perProduct.get(productId);
        if (agg === undefined) perProduct.set(productId, [1, observedAt]);
        else {
          agg[0] += 1;
          if (observedAt < agg[1]) agg[1] = observedAt;
        }
        return true;
      },
      commit() {
        if (!open) return;
        for (const [productId, [count, earliest]] of perProduct)
          statements.bumpProduct.run(count, earliest, earliest, productId);
        statements.commit.run();
        open = false;
        perProduct.clear();
        if (observed) useCache(READ_CACHE_KIB);
        observed = false;
      },
      rollback() {
        // SQLite may already have rolled back by itself (e.g. after SQLITE_FULL).
        if (open && db.inTransaction) statements.rollback.run();
        open = false;
        perProduct.clear();
        observed = false;
      },
      close() {
        this.rollback();
        db.pragma('foreign_keys = ON');
        useCache(READ_CACHE_KIB);
      },
    };
  }

  return {
    /**
     * Inserts a batch in one transaction, skipping records already stored (CONTRACT.md
     * identity), and keeps each product's observation count and earliest time current.
     */
    insertMany(rows: readonly ResolvedObservation[]): InsertResult {
      const writer = openWriter();
      let inserted = 0;
      try {
        for (const o of rows) {
          const row = { ...o, condition: conditionKey(o.grader, o.grade), externalId: o.externalId ?? '' };
          if (writer.insert(row)) inserted += 1;
        }
        writer.commit();
      } finally {
        writer.close();
      }
      return { inserted, duplicates: rows.length - inserted };
    },

    openWriter,

    isNew,
  };
}

export type ObservationRepo = ReturnType<typeof createObservationRepo>;
