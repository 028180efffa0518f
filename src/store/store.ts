/**
 * The store: the only code that touches SQLite. Queries are better-sqlite3 prepared
 * statements (drizzle-orm defines the schema and its migrations; loading the ORM on every
 * command would slow every command's start-up, see connection.ts).
 */
import { createApiKeyRepo } from './api-key-repo.js';
import { createCalibrationRepo } from './calibration-repo.js';
import { closeDatabase, openDatabase, type OpenOptions, type SqliteDatabase } from './connection.js';
import { createIngestRunRepo } from './ingest-run-repo.js';
import { createObservationRepo } from './observation-repo.js';
import { createPricePointReader, type PricePointReader } from './price-points.js';
import { createPricePointSeriesReader, type PricePointSeriesReader } from './price-point-series.js';
import { createProductRepo } from './product-repo.js';
import { createWriteLock, type WriteLock } from './write-lock.js';

export interface Store {
  readonly path: string;
  readonly products: ReturnType<typeof createProductRepo>;
  readonly observations: ReturnType<typeof createObservationRepo>;
  /** The bounded read pricing needs (price-points.ts). */
  readonly pricePoints: PricePointReader;
  /** The same read for many instants of one product, in two statements (price-point-series.ts). */
  readonly pricePointSeries: PricePointSeriesReader;
  readonly apiKeys: ReturnType<typeof createApiKeyRepo>;
  readonly ingestRuns: ReturnType<typeof createIngestRunRepo>;
  /** How the ingest's writes wait for another writer (default: the busy timeout, then fail). */
  readonly writeLock: WriteLock;
  /** Fitted grader premiums and grade ratios (`oracle calibrate`). */
  readonly calibrations: ReturnType<typeof createCalibrationRepo>;
  /** Changes whenever another connection commits a write: the cue to drop cached bundles. */
  dataVersion(): number;
  /** Runs `fn` in one transaction. */
  transaction<T>(fn: () => T): T;
  /** `PRAGMA integrity_check`: 'ok' when the file is sound. */
  integrityCheck(): string;
  /** What the file holds, in three small reads (observations are counted per product on insert). */
  inventory(): Inventory;
  close(): void;
}

export interface Inventory {
  products: number;
  observations: number;
  /** Keys not revoked. */
  activeKeys: number;
}

export async function openStore(path: string, options: OpenOptions = {}): Promise<Store> {
  const db: SqliteDatabase = await openDatabase(path, options);
  // Prepared once: db.pragma() compiles the statement on every call, and `oracle serve`
  // reads the version on every request.
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const inventory = db.prepare<[], Inventory>(
    `SELECT (SELECT count(*) FROM products) AS products,
            (SELECT coalesce(sum(observation_count), 0) FROM products) AS observations,
            (SELECT count(*) FROM api_keys WHERE revoked_at IS NULL) AS activeKeys`,
  );
  const writeLock = createWriteLock(db);
  return {
    path,
    products: createProductRepo(db),
    observations: createObservationRepo(db, writeLock),
    pricePoints: createPricePointReader(db),
    pricePointSeries: createPricePointSeriesReader(db),
    apiKeys: createApiKeyRepo(db),
    ingestRuns: createIngestRunRepo(db, writeLock),
    writeLock,
    calibrations: createCalibrationRepo(db),
    dataVersion: () => dataVersion.get() as number,
    transaction: (fn) => db.transaction(fn)(),
    integrityCheck: () => db.pragma('integrity_check', { simple: true }) as string,
    inventory: () => inventory.get() as Inventory,
    close: () => closeDatabase(db),
  };
}

export type { StoredProduct } from './product-repo.js';
export type { ResolvedObservation, InsertResult, ObservationWriter } from './observation-repo.js';
export type { PricePointRange, PricePointReader } from './price-points.js';
export type { ApiKeyRecord } from './api-key-repo.js';
export type { IngestCounts, IngestRunStatus } from './ingest-run-repo.js';
export type { StoredCalibration } from './calibration-repo.js';
