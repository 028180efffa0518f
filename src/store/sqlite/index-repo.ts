/** Market index definitions (docs/indexes.md): one row per name, never edited; and their published values. */
import {
  NO_VERSION_LIMIT,
  type IndexDefinition,
  type PublishedIndexValue,
  type StoredIndex,
} from '../../domain/market-index.js';
import { type SqliteDatabase } from './connection.js';
import { onFirstUse } from '../../domain/first-use.js';

export const INDEX_COLUMNS = `id, name, label, selector, selector_value AS selectorValue, slot, method,
  base_date AS baseDate, created_at AS createdAt`;

const VALUE_COLUMNS = `at, version, value, low, high, priced, linked, published_at AS publishedAt`;

export function createIndexRepo(db: SqliteDatabase) {
  // A name taken already inserts nothing and returns no row: no error to tell from a real one.
  const insert = onFirstUse(() =>
    db.prepare<unknown[], StoredIndex>(
      `INSERT INTO market_indexes (name, label, selector, selector_value, slot, method, base_date, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING RETURNING ${INDEX_COLUMNS}`,
    ),
  );
  const all = onFirstUse(() =>
    db.prepare<[], StoredIndex>(`SELECT ${INDEX_COLUMNS} FROM market_indexes ORDER BY name`),
  );
  const one = onFirstUse(() =>
    db.prepare<[string], StoredIndex>(`SELECT ${INDEX_COLUMNS} FROM market_indexes WHERE name = ?`),
  );
  const versionsUpTo = onFirstUse(() =>
    db.prepare<[number, number, number, number], PublishedIndexValue>(
      `SELECT ${VALUE_COLUMNS} FROM index_values v
       WHERE index_id = ? AND at BETWEEN ? AND ? AND version = (
         SELECT max(version) FROM index_values w WHERE w.index_id = v.index_id AND w.at = v.at AND w.version <= ?)
       ORDER BY at`,
    ),
  );
  const last = onFirstUse(() =>
    db
      .prepare<[number], number>('SELECT coalesce(max(version), 0) FROM index_values WHERE index_id = ?')
      .pluck(),
  );
  const insertValue = onFirstUse(() =>
    db.prepare<unknown[]>(
      `INSERT INTO index_values (index_id, at, version, value, low, high, priced, linked, published_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  );
  return {
    add: (d: IndexDefinition, createdAt: number): StoredIndex | null =>
      insert().get(d.name, d.label, d.selector, d.selectorValue, d.slot, d.method, d.baseDate, createdAt) ??
      null,
    list: (): StoredIndex[] => all().all(),
    byName: (name: string): StoredIndex | undefined => one().get(name),
    values: (indexId: number, from: number, to: number, version = NO_VERSION_LIMIT): PublishedIndexValue[] =>
      versionsUpTo().all(indexId, from, to, version),
    lastVersion: (indexId: number): number => last().get(indexId) as number,
    publish: (indexId: number, values: readonly PublishedIndexValue[]): void =>
      db.transaction(() => {
        for (const v of values)
          insertValue().run(
            indexId,
            v.at,
            v.version,
            v.value,
            v.low,
            v.high,
            v.priced,
            v.linked,
            v.publishedAt,
          );
      })(),
  };
}
