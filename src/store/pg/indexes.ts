/** Market index definitions on PostgreSQL: the statements of the SQLite repo (../sqlite/index-repo.ts). */
import type { IndexDefinition, StoredIndex } from '../../domain/market-index.js';
import type { Session } from './session.js';

const INDEX_COLUMNS = `id, name, label, selector, selector_value AS "selectorValue", slot, method,
  base_date AS "baseDate", created_at AS "createdAt"`;

export function createPgIndexRepo(session: Session) {
  const q = session.query;
  return {
    async add(d: IndexDefinition, createdAt: number): Promise<StoredIndex | null> {
      const [row] = await q<StoredIndex>(
        `INSERT INTO market_indexes (name, label, selector, selector_value, slot, method, base_date, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (name) DO NOTHING RETURNING ${INDEX_COLUMNS}`,
        [d.name, d.label, d.selector, d.selectorValue, d.slot, d.method, d.baseDate, createdAt],
      );
      return row ?? null;
    },
    list: () => q<StoredIndex>(`SELECT ${INDEX_COLUMNS} FROM market_indexes ORDER BY name COLLATE "C"`),
    async byName(name: string): Promise<StoredIndex | undefined> {
      const [row] = await q<StoredIndex>(`SELECT ${INDEX_COLUMNS} FROM market_indexes WHERE name = $1`, [
        name,
      ]);
      return row;
    },
  };
}
