/** Market index definitions (docs/indexes.md): one row per name, never edited. */
import type { IndexDefinition, StoredIndex } from '../../domain/market-index.js';
import { type SqliteDatabase } from './connection.js';
import { onFirstUse } from '../../domain/first-use.js';

export const INDEX_COLUMNS = `id, name, label, selector, selector_value AS selectorValue, slot, method,
  base_date AS baseDate, created_at AS createdAt`;

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
  return {
    add: (d: IndexDefinition, createdAt: number): StoredIndex | null =>
      insert().get(d.name, d.label, d.selector, d.selectorValue, d.slot, d.method, d.baseDate, createdAt) ??
      null,
    list: (): StoredIndex[] => all().all(),
    byName: (name: string): StoredIndex | undefined => one().get(name),
  };
}
