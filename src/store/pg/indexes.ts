/** Market index definitions on PostgreSQL: the statements of the SQLite repo (../sqlite/index-repo.ts). */
import {
  NO_VERSION_LIMIT,
  type IndexDefinition,
  type PublishedIndexValue,
  type StoredIndex,
} from '../../domain/market-index.js';
import type { VersionedWrite } from './records.js';
import type { Session } from './session.js';

const INDEX_COLUMNS = `id, name, label, selector, selector_value AS "selectorValue", slot, method,
  base_date AS "baseDate", created_at AS "createdAt"`;

const VALUE_COLUMNS = `at, version, value, low, high, priced, linked, published_at AS "publishedAt"`;
/** Rows a statement inserts: 9 parameters each, far below PostgreSQL's 65,535. */
const PUBLISH_BATCH = 1000;

export function createPgIndexRepo(session: Session, versionedWrite: VersionedWrite) {
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
    values: (indexId: number, from: number, to: number, version = NO_VERSION_LIMIT) =>
      q<PublishedIndexValue>(
        `SELECT ${VALUE_COLUMNS} FROM index_values v
         WHERE index_id = $1 AND at BETWEEN $2 AND $3 AND version = (
           SELECT max(version) FROM index_values w WHERE w.index_id = v.index_id AND w.at = v.at AND w.version <= $4)
         ORDER BY at`,
        [indexId, from, to, version],
      ),
    async lastVersion(indexId: number): Promise<number> {
      const [row] = await q<{ last: number }>(
        'SELECT coalesce(max(version), 0) AS last FROM index_values WHERE index_id = $1',
        [indexId],
      );
      return row!.last;
    },
    // Bumps the data version: a server's cached index bodies must not outlive a publication.
    publish: (indexId: number, values: readonly PublishedIndexValue[]): Promise<void> =>
      versionedWrite(async (client) => {
        for (let i = 0; i < values.length; i += PUBLISH_BATCH) {
          const batch = values.slice(i, i + PUBLISH_BATCH);
          await client.query(
            `INSERT INTO index_values (index_id, at, version, value, low, high, priced, linked, published_at)
             VALUES ${batch.map((_, j) => `(${Array.from({ length: 9 }, (_, k) => `$${j * 9 + k + 1}`).join(', ')})`).join(', ')}`,
            batch.flatMap((v) => [
              indexId,
              v.at,
              v.version,
              v.value,
              v.low,
              v.high,
              v.priced,
              v.linked,
              v.publishedAt,
            ]),
          );
        }
      }),
  };
}
