/**
 * The PostgreSQL store: the same reads and writes as the SQLite store, for `--db
 * postgres://...`. Only this folder knows the dialect.
 */
import { openPool, redactUrl, type PgOpenOptions } from './connection.js';
import { bumpDataVersion, watchDataVersion } from './data-version.js';
import { createPgObservationRepo } from './observations.js';
import { createPgPricePointReader } from './price-points.js';
import { createPgProductRepo } from './products.js';
import { createPgApiKeyRepo, createPgCalibrationRepo, createPgIngestRunRepo } from './records.js';
import { createSession } from './session.js';

export async function openPgStore(url: string, options: PgOpenOptions = {}) {
  const pool = await openPool(url, options);
  const session = createSession(pool, url);
  const [{ version }] = (await session.query<{ version: number }>('SELECT version FROM data_version WHERE id = 1')) as [{ version: number }];
  const watch = watchDataVersion(pool, url, version);
  /** Writes outside an ingest's transaction bump the version at once; inside one, its commit does. */
  const onWrite = async () => {
    if (session.transaction !== null) return;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await bumpDataVersion(client);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  };
  const pricePoints = createPgPricePointReader(session);
  return {
    /** The URL without its password: what messages name. */
    path: redactUrl(url),
    products: createPgProductRepo(session, onWrite),
    observations: createPgObservationRepo(session, bumpDataVersion),
    pricePoints,
    pricePointSeries: pricePoints,
    apiKeys: createPgApiKeyRepo(session),
    ingestRuns: createPgIngestRunRepo(session),
    calibrations: createPgCalibrationRepo(session, onWrite),
    dataVersion: () => watch.current(),
    async inventory() {
      const [row] = await session.query<{ products: number; observations: number; activeKeys: number }>(
        `SELECT (SELECT count(*) FROM products) AS products,
                (SELECT coalesce(sum(observation_count), 0)::bigint FROM products) AS observations,
                (SELECT count(*) FROM api_keys WHERE revoked_at IS NULL) AS "activeKeys"`,
      );
      return row!;
    },
    async close() {
      await watch.close();
      await pool.end();
    },
  };
}

export type PgStore = Awaited<ReturnType<typeof openPgStore>>;
