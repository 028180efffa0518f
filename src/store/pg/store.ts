/**
 * The PostgreSQL store (`--db postgres://...`): the Store interface (../store.ts) over a
 * node-postgres pool, answering as the SQLite store does. Only this folder knows the dialect.
 */
import { redactUrl } from '../location.js';
import { DEADLINE_DEFAULTS, type OpenOptions, type Store } from '../store.js';
import { openPool, toPgDatabaseError } from './connection.js';
import { bumpDataVersion, watchDataVersion } from './data-version.js';
import { openPgIngestWriter } from './ingest-writer.js';
import { createPointCache } from './point-cache.js';
import { createPgPricePointReader, readProductTail } from './price-points.js';
import { createPgProductRepo } from './products.js';
import {
  createPgApiKeyRepo,
  createPgCalibrationRepo,
  createPgRateRepo,
  createPgIngestRunRepo,
  type VersionedWrite,
} from './records.js';
import { createSession } from './session.js';
import { createPgWatchRepo } from './watches.js';
import { createPgIndexRepo } from './indexes.js';

export async function openPgStore(url: string, options: OpenOptions = {}): Promise<Store> {
  const deadlines = options.deadlines ?? DEADLINE_DEFAULTS.command;
  const pool = await openPool(url, { create: options.create, deadlines });
  const session = createSession(pool, url);
  const [row] = await session.query<{ version: number }>('SELECT version FROM data_version WHERE id = 1');
  // The server opens its store read-only: it follows other processes' writes; a command need not.
  const watch = watchDataVersion(pool, url, row!.version, options.readonly === true, deadlines);
  /** A write that cached answers depend on, outside an ingest: its transaction bumps the version too. */
  const versionedWrite: VersionedWrite = async (fn) => {
    const client = await pool
      .connect()
      .catch((error: unknown) => Promise.reject(toPgDatabaseError(error, url)));
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await bumpDataVersion(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw toPgDatabaseError(error, url);
    } finally {
      client.release();
    }
  };
  // The server keeps products' points between data versions; a command's version never moves, so it reads the database.
  const cache =
    options.readonly === true ? createPointCache(readProductTail(session), () => watch.current()) : undefined;
  const pricePoints = createPgPricePointReader(session, cache);
  return {
    dialect: 'postgres',
    location: redactUrl(url),
    address: url,
    products: createPgProductRepo(session),
    pricePoints,
    pricePointSeries: pricePoints,
    apiKeys: createPgApiKeyRepo(session, versionedWrite),
    ingestRuns: createPgIngestRunRepo(session),
    calibrations: createPgCalibrationRepo(session, versionedWrite),
    rates: createPgRateRepo(session, versionedWrite),
    watches: createPgWatchRepo(session),
    indexes: createPgIndexRepo(session, versionedWrite),
    dataVersion: () => watch.current(),
    async inventory() {
      const [counts] = await session.query<{ products: number; observations: number; activeKeys: number }>(
        `SELECT (SELECT count(*) FROM products) AS products,
                (SELECT coalesce(sum(observation_count), 0)::bigint FROM products) AS observations,
                (SELECT count(*) FROM api_keys WHERE revoked_at IS NULL) AS "activeKeys"`,
      );
      return counts!;
    },
    openIngest: (writerOptions) => openPgIngestWriter(pool, url, writerOptions, options.lockWait),
    async close() {
      await watch.close();
      await pool.end();
    },
  };
}
