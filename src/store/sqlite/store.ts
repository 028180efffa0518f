/**
 * The SQLite store (the default): a file, read and written with better-sqlite3 prepared
 * statements (drizzle-orm defines the schema and its migrations; loading the ORM on every
 * command would cost a large share of start-up, see connection.ts). The repos are
 * synchronous, as better-sqlite3 is; this module puts them behind the store's async
 * interface (../store.ts) without changing when anything runs: every promise here is
 * settled by the time it is returned.
 */
import type { IngestWriter, IngestWriterOptions, Inventory, OpenOptions, Store } from '../store.js';
import { createApiKeyRepo } from './api-key-repo.js';
import { createRateRepo } from './rate-repo.js';
import { createCalibrationRepo } from './calibration-repo.js';
import { closeDatabase, isInMemoryCopy, openDatabase, type SqliteDatabase } from './connection.js';
import { createIngestRunRepo } from './ingest-run-repo.js';
import { createObservationRepo, type ObservationRepo } from './observation-repo.js';
import { createPricePointReader } from './price-points.js';
import { createPricePointSeriesReader } from './price-point-series.js';
import { createProductRepo, type ProductRepo } from './product-repo.js';
import { createWatchRepo } from './watch-repo.js';
import { createIndexRepo } from './index-repo.js';
import { createWriteLock } from './write-lock.js';
import { onFirstUse } from '../../domain/first-use.js';

/**
 * `fn`'s value as a promise, its exception (as `translate` makes it) as a rejection: the async
 * face of a synchronous call.
 */
function settledAs<T>(fn: () => T, translate: (error: unknown) => unknown = (error) => error): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(translate(error));
  }
}

export async function openSqliteStore(path: string, options: OpenOptions = {}): Promise<Store> {
  const db: SqliteDatabase = await openDatabase(path, options);
  // Prepared once: db.pragma() compiles the statement on every call, and `oracle serve`
  // reads the version on every request.
  const dataVersion = onFirstUse(() => db.prepare<[], number>('PRAGMA data_version').pluck());
  const inventory = onFirstUse(() =>
    db.prepare<[], Inventory>(
      `SELECT (SELECT count(*) FROM products) AS products,
              (SELECT coalesce(sum(observation_count), 0) FROM products) AS observations,
              (SELECT count(*) FROM api_keys WHERE revoked_at IS NULL) AS activeKeys`,
    ),
  );
  const writeLock = createWriteLock(db);
  if (options.lockWait) writeLock.configure(options.lockWait);
  // Within the store's calls, a write that waited out --lock-wait fails as the ingest's does.
  const settled = <T>(fn: () => T) => settledAs(fn, writeLock.busyError);
  const products = createProductRepo(db);
  const observations = createObservationRepo(db, writeLock);
  const pricePoints = createPricePointReader(db);
  const pricePointSeries = createPricePointSeriesReader(db);
  const apiKeys = createApiKeyRepo(db);
  const ingestRuns = createIngestRunRepo(db, writeLock);
  const calibrations = createCalibrationRepo(db);
  const rates = createRateRepo(db);
  const watches = createWatchRepo(db);
  const indexes = createIndexRepo(db);
  return {
    dialect: 'sqlite',
    location: path,
    address: path,
    inMemoryCopy: isInMemoryCopy(db),
    products: {
      findByKey: (key) => settled(() => products.findByKey(key)),
      findByRefsourceId: (id) => settled(() => products.findByRefsourceId(id)),
      findByTcgplayerId: (id) => settled(() => products.findByTcgplayerId(id)),
      findByIdentity: (scheme, value) => settled(() => products.findByIdentity(scheme, value)),
      count: () => settled(() => products.count()),
      pageAfter: (afterId, limit) => settled(() => products.pageAfter(afterId, limit)),
      all: () => settled(() => products.all()),
      catalog: (search, limit) => settled(() => products.catalog(search, limit)),
      catalogJson: () => settled(() => products.catalogJson()),
      catalogPage: (afterKey, limit) => settled(() => products.catalogPage(afterKey, limit)),
      keysLike: (text, limit) => settled(() => products.keysLike(text, limit)),
      activeIn: (condition, from, to, min) => settled(() => products.activeIn(condition, from, to, min)),
      vocabulary: (pause) => products.vocabulary(pause),
    },
    pricePoints: {
      read: (productId, range, options) => settled(() => pricePoints.read(productId, range, options)),
      readExtra: (productId, range, options) =>
        settled(() => pricePoints.readExtra(productId, range, options)),
    },
    pricePointSeries: {
      readSeries: (productId, ranges, pause) => pricePointSeries.readSeries(productId, ranges, pause),
    },
    apiKeys: {
      create: (id, label, hash, at) => settled(() => apiKeys.create(id, label, hash, at)),
      list: () => settled(() => apiKeys.list()),
      findByHash: (hash) => settled(() => apiKeys.findByHash(hash)),
      revoke: (id, at) => settled(() => apiKeys.revoke(id, at)),
      touch: (uses) =>
        settled(() => db.transaction(() => uses.forEach(([id, at]) => apiKeys.touch(id, at)))()),
    },
    ingestRuns: {
      start: (run) => settled(() => ingestRuns.start(run)),
      finish: (id, at, status, counts, error) =>
        settled(() => ingestRuns.finish(id, at, status, counts, error)),
      markInterrupted: () => settled(() => ingestRuns.markInterrupted()),
      recent: (limit) => settled(() => ingestRuns.recent(limit)),
    },
    calibrations: {
      insert: (asOf, createdAt, body) => settled(() => calibrations.insert(asOf, createdAt, body)),
      usableAt: (at) => settled(() => calibrations.usableAt(at)),
      all: () => settled(() => calibrations.all()),
    },
    rates: {
      add: (list) => settled(() => writeLock.run(() => rates.add(list))),
      all: () => settled(() => rates.all()),
    },
    watches: {
      add: (rule, createdAt) => settled(() => watches.add(rule, createdAt)),
      rules: () => settled(() => watches.rules()),
      remove: (id) => settled(() => watches.remove(id)),
      record: (changes) => settled(() => watches.record(changes)),
      pending: () => settled(() => watches.pending()),
      delivery: (id, outcome) => settled(() => watches.delivery(id, outcome)),
      events: (limit, status) => settled(() => watches.events(limit, status)),
    },
    indexes: {
      add: (definition, createdAt) => settled(() => indexes.add(definition, createdAt)),
      list: () => settled(() => indexes.list()),
      byName: (name) => settled(() => indexes.byName(name)),
      values: (indexId, from, to, version) => settled(() => indexes.values(indexId, from, to, version)),
      lastVersion: (indexId) => settled(() => indexes.lastVersion(indexId)),
      publish: (indexId, values) => settled(() => indexes.publish(indexId, values)),
    },
    dataVersion: () => dataVersion().get() as number,
    inventory: () => settled(() => inventory().get() as Inventory),
    openIngest: (writerOptions) => settled(() => openIngestWriter(products, observations, writerOptions)),
    close: () => settled(() => closeDatabase(db)),
  };
}

/**
 * The ingest's writer over one connection. Each row is inserted at once into the open
 * transaction (BEGIN IMMEDIATE on the first row), so `commit` finds the batch written and
 * only commits it; a failure it meets is thrown at once, as the interface allows.
 */
function openIngestWriter(
  products: ProductRepo,
  observations: ObservationRepo,
  options: IngestWriterOptions,
): IngestWriter {
  let inserted = 0;
  let duplicates = 0;
  const outcome = () => {
    const result = { inserted, duplicates };
    inserted = duplicates = 0;
    return result;
  };
  if (options.dryRun) {
    // What a dry run has counted, so a record twice in the input counts once.
    const seen = new Set<string>();
    return {
      products,
      upsertProducts() {
        throw new Error('a dry run writes no products');
      },
      insert(row) {
        if (observations.isNew(row, seen)) inserted += 1;
        else duplicates += 1;
      },
      commit: () => Promise.resolve(outcome()),
      rollback: () => settledAs(() => void outcome()),
      close: () => Promise.resolve(),
    };
  }
  const writer = observations.openWriter();
  return {
    products,
    upsertProducts(changed) {
      writer.begin(); // the products join the observations' transaction
      products.upsertMany(changed);
    },
    insert(row) {
      if (writer.insert(row)) inserted += 1;
      else duplicates += 1;
    },
    commit() {
      writer.commit();
      return Promise.resolve(outcome());
    },
    rollback: () =>
      settledAs(() => {
        outcome();
        writer.rollback();
      }),
    close: () => settledAs(() => writer.close()),
  };
}
