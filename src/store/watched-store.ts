/**
 * The long-running server's store: a `Store` that opens its database on first use (a server
 * may start before the first `oracle ingest` creates it), reads through a read-only
 * connection, and reopens it by itself. A command opens a plain store (openStore) instead.
 *
 * A SQLite file is watched: an open connection keeps reading the file it opened even after
 * that file is deleted, replaced (`mv rebuilt.db oracle.db`) or truncated. So the path is
 * stat'ed at most once per FILE_CHECK_INTERVAL_MS (a stat on every request was a measurable
 * share of a cached one, bench/findings.md). A different file there (device and inode) is
 * opened in place of the old one; a missing or empty file drops the connection and reads
 * fail with DatabaseUnavailableError until a valid database is back. A file that is not an
 * oracle database is refused, so the server never writes a schema (or anything else) into a
 * file it did not make. The one write it makes, keys' last-used times (`apiKeys.touch`),
 * goes through a short-lived read-write connection, and only into the file the reads came
 * from, even after `close` (the server writes its last ones at shutdown).
 *
 * `dataVersion()` never throws: it also moves when the connection is replaced or dropped (each
 * connection's versions start over), so whatever was cached under the old one is never
 * served again, and it is read once per event-loop turn (under load one turn serves many
 * requests, and a version a turn old is as fresh as the request itself).
 */
import { statSync, type Stats } from 'node:fs';
import { DatabaseUnavailableError } from '../domain/errors.js';
import { isPostgresUrl, redactUrl } from './location.js';
import { openStore, toDatabaseError } from './open-store.js';
import { DEADLINE_DEFAULTS, type DatabaseDeadlines, type Store } from './store.js';

/** How often, at most, the server checks that the path still names the file it reads. */
export const FILE_CHECK_INTERVAL_MS = 250;

export interface WatchedStoreOptions {
  /** Longest time between two checks of the path (0: on every use, as tests use). */
  fileCheckIntervalMs?: number;
  /** A PostgreSQL store's deadlines (default: DEADLINE_DEFAULTS.serve). */
  deadlines?: DatabaseDeadlines;
  /** Told, at each open, what a user should know of how the file is read (OpenOptions.notice). */
  notice?: (message: string) => void;
}

/** Which file a path names (a replaced file has another inode or device), and its state when opened. */
interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

function sameFile(a: FileIdentity, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** The same file, written since (a copy in memory of it is out of date). */
function changed(a: FileIdentity, b: Stats): boolean {
  return a.size !== b.size || a.mtimeMs !== b.mtimeMs;
}

function unavailable(reason: string): DatabaseUnavailableError {
  return new DatabaseUnavailableError(`database unavailable: ${reason}`, { reason });
}

/** The server's store at `location` (a SQLite file, watched, or a PostgreSQL URL), opened on first use. */
export function createWatchedStore(location: string, options: WatchedStoreOptions = {}): Store {
  return isPostgresUrl(location)
    ? createServerPgStore(location, options.deadlines ?? DEADLINE_DEFAULTS.serve)
    : createWatchedFile(location, options.fileCheckIntervalMs ?? FILE_CHECK_INTERVAL_MS, options.notice);
}

/** A data version over connections that come and go: it moves when the connection's own does, or the connection changes. */
function versionCounter() {
  let seen: Store | undefined;
  let seenVersion = 0;
  let version = 0;
  return {
    of(store: Store): number {
      const inner = store.dataVersion();
      if (store !== seen || inner !== seenVersion) {
        seen = store;
        seenVersion = inner;
        version += 1;
      }
      return version;
    },
    /** The connection is gone: nothing read through it may be taken as current. */
    dropped(): void {
      seen = undefined;
      version += 1;
    },
    get current(): number {
      return version;
    },
  };
}

/**
 * The reading and writing parts of a store, each call run by `read` against the open
 * connection, but `apiKeys.touch`, run by `write`.
 */
function storeOver(
  location: string,
  read: <T>(fn: (store: Store) => Promise<T>) => Promise<T>,
  write: (fn: (store: Store) => Promise<void>) => Promise<void>,
  rest: Pick<Store, 'dataVersion' | 'close'>,
): Store {
  return {
    dialect: isPostgresUrl(location) ? 'postgres' : 'sqlite',
    location: isPostgresUrl(location) ? redactUrl(location) : location,
    address: location,
    products: {
      findByKey: (key) => read((s) => s.products.findByKey(key)),
      findByRefsourceId: (id) => read((s) => s.products.findByRefsourceId(id)),
      findByTcgplayerId: (id) => read((s) => s.products.findByTcgplayerId(id)),
      findByIdentity: (scheme, value) => read((s) => s.products.findByIdentity(scheme, value)),
      count: () => read((s) => s.products.count()),
      pageAfter: (afterId, limit) => read((s) => s.products.pageAfter(afterId, limit)),
      all: () => read((s) => s.products.all()),
      catalog: (search, limit) => read((s) => s.products.catalog(search, limit)),
      catalogJson: () => read((s) => s.products.catalogJson()),
      catalogPage: (afterKey, limit) => read((s) => s.products.catalogPage(afterKey, limit)),
      keysLike: (text, limit) => read((s) => s.products.keysLike(text, limit)),
      activeIn: (condition, from, to, min) => read((s) => s.products.activeIn(condition, from, to, min)),
      vocabulary: (pause) => read((s) => s.products.vocabulary(pause)),
    },
    pricePoints: {
      read: (productId, range, options) => read((s) => s.pricePoints.read(productId, range, options)),
      readExtra: (productId, range, options) =>
        read((s) => s.pricePoints.readExtra(productId, range, options)),
    },
    pricePointSeries: {
      readSeries: (productId, ranges, pause) =>
        read((s) => s.pricePointSeries.readSeries(productId, ranges, pause)),
    },
    apiKeys: {
      create: (id, label, hash, at) => read((s) => s.apiKeys.create(id, label, hash, at)),
      list: () => read((s) => s.apiKeys.list()),
      findByHash: (hash) => read((s) => s.apiKeys.findByHash(hash)),
      revoke: (id, at) => read((s) => s.apiKeys.revoke(id, at)),
      touch: (uses) => write((s) => s.apiKeys.touch(uses)),
    },
    ingestRuns: {
      start: (run) => read((s) => s.ingestRuns.start(run)),
      finish: (id, at, status, counts, error) =>
        read((s) => s.ingestRuns.finish(id, at, status, counts, error)),
      markInterrupted: () => read((s) => s.ingestRuns.markInterrupted()),
      recent: (limit) => read((s) => s.ingestRuns.recent(limit)),
    },
    calibrations: {
      insert: (asOf, createdAt, body) => read((s) => s.calibrations.insert(asOf, createdAt, body)),
      usableAt: (at) => read((s) => s.calibrations.usableAt(at)),
      all: () => read((s) => s.calibrations.all()),
    },
    rates: {
      add: (list) => read((s) => s.rates.add(list)),
      all: () => read((s) => s.rates.all()),
    },
    watches: {
      add: (rule, createdAt) => read((s) => s.watches.add(rule, createdAt)),
      rules: () => read((s) => s.watches.rules()),
      remove: (id) => read((s) => s.watches.remove(id)),
      record: (changes) => read((s) => s.watches.record(changes)),
      pending: () => read((s) => s.watches.pending()),
      delivery: (id, outcome) => read((s) => s.watches.delivery(id, outcome)),
      events: (limit, status) => read((s) => s.watches.events(limit, status)),
    },
    indexes: {
      add: (definition, createdAt) => read((s) => s.indexes.add(definition, createdAt)),
      list: () => read((s) => s.indexes.list()),
      byName: (name) => read((s) => s.indexes.byName(name)),
      values: (indexId, from, to, version) => read((s) => s.indexes.values(indexId, from, to, version)),
      lastVersion: (indexId) => read((s) => s.indexes.lastVersion(indexId)),
      publish: (indexId, values) => read((s) => s.indexes.publish(indexId, values)),
    },
    inventory: () => read((s) => s.inventory()),
    openIngest: (writerOptions) => read((s) => s.openIngest(writerOptions)),
    ...rest,
  };
}

/**
 * A SQLite file, read through a read-only connection that follows the file at `path`; one that
 * reads a copy of the file in memory (a WAL-mode file on a read-only mount) is opened again
 * when the file is written in place.
 */
function createWatchedFile(
  path: string,
  checkIntervalMs: number,
  notice: ((message: string) => void) | undefined,
): Store {
  let store: Store | undefined;
  let identity: FileIdentity | undefined;
  /** performance.now() after which the path is checked again. */
  let nextCheck = 0;
  let opening: Promise<Store> | undefined;
  /** Why a check dropped the connection (the file was deleted or emptied): the next read's answer. */
  let lost: DatabaseUnavailableError | undefined;
  const versions = versionCounter();
  let turnVersion: number | undefined;
  const endTurn = () => (turnVersion = undefined);

  /** Closes the reads' connection; `keepIdentity`: later writes may still go to that file. */
  function drop(keepIdentity = false): void {
    const current = store;
    store = undefined;
    if (!keepIdentity) identity = undefined;
    turnVersion = undefined;
    if (current === undefined) return;
    versions.dropped();
    // Closing a connection to a broken file can fail too; it is gone either way.
    current.close().catch(() => {});
  }

  async function openFile(): Promise<Store> {
    const opened = await openStore(path, { readonly: true, notice });
    // Stat'ed after the open: if the path changed in between, the next check sees it.
    const stats = statSync(path, { throwIfNoEntry: false });
    if (!stats) {
      await opened.close();
      throw unavailable('the database file was deleted');
    }
    identity = { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs };
    nextCheck = performance.now() + checkIntervalMs;
    lost = undefined;
    return (store = opened);
  }

  /** The error to surface for `error`, dropping the connection when the file is unusable. */
  function failure(error: unknown): unknown {
    const translated = toDatabaseError(error);
    if (translated instanceof DatabaseUnavailableError) drop();
    return translated;
  }

  /** The open connection when the path still names its file (checked when due); undefined when none is open or usable. */
  function live(): Store | undefined {
    const current = store;
    const now = performance.now();
    if (current === undefined || now < nextCheck) return current;
    nextCheck = now + checkIntervalMs;
    const stats = statSync(path, { throwIfNoEntry: false });
    const same = stats !== undefined && sameFile(identity as FileIdentity, stats);
    if (
      same &&
      stats.size > 0 &&
      !(current.inMemoryCopy === true && changed(identity as FileIdentity, stats))
    )
      return current;
    // Another file there now (or a copy's file written) is simply opened; a missing or empty one is what the next read answers.
    if (!stats) lost = unavailable('the database file was deleted');
    else if (same && stats.size === 0) lost = unavailable('the database file is empty');
    drop();
    return undefined;
  }

  async function read<T>(fn: (store: Store) => Promise<T>): Promise<T> {
    try {
      if (lost !== undefined) {
        const reason = lost;
        lost = undefined;
        // Unless a database is back already, the first read after the check says what happened to the file.
        const stats = statSync(path, { throwIfNoEntry: false });
        if (!stats || stats.size === 0) throw reason;
      }
      return await fn(live() ?? (await (opening ??= openFile().finally(() => (opening = undefined)))));
    } catch (error) {
      throw failure(error);
    }
  }

  async function write(fn: (store: Store) => Promise<void>): Promise<void> {
    const expected = identity;
    if (!expected) return;
    const before = statSync(path, { throwIfNoEntry: false });
    if (!before || !sameFile(expected, before)) return;
    let writer: Store | undefined;
    try {
      writer = await openStore(path, { write: true });
      // The file could have been replaced while the writer opened: write only into the one the reads used.
      const stats = statSync(path, { throwIfNoEntry: false });
      if (!stats || !sameFile(expected, stats)) return;
      await fn(writer);
    } catch (error) {
      throw toDatabaseError(error);
    } finally {
      await writer?.close();
    }
  }

  return storeOver(path, read, write, {
    dataVersion() {
      if (turnVersion !== undefined) return turnVersion;
      const current = live();
      if (current === undefined) return versions.current;
      try {
        turnVersion = versions.of(current);
      } catch (error) {
        // The connection is dropped: the next read opens the file again and answers for it.
        const translated = failure(error);
        if (!(translated instanceof DatabaseUnavailableError)) throw translated;
        return versions.current;
      }
      setImmediate(endTurn);
      return turnVersion;
    },
    close: async () => drop(true),
  });
}

/**
 * The server's store on a database server (PostgreSQL): there is no file to watch. One pool
 * serves the reads and the keys' last-used writes; it is opened on first use, and again on
 * the next use after an open that failed (a server may start before its database is up or
 * holds oracle's schema). The pool reconnects by itself, and the data version is the store's
 * own counter, kept current by its notifications. Writes after close get a store of their own.
 */
function createServerPgStore(url: string, deadlines: DatabaseDeadlines): Store {
  let store: Store | undefined;
  let opening: Promise<Store> | undefined;
  const versions = versionCounter();
  const open = () =>
    (opening ??= openStore(url, { readonly: true, deadlines }).then(
      (opened) => (store = opened),
      (error: unknown) => {
        opening = undefined;
        throw error;
      },
    ));
  const read = async <T>(fn: (store: Store) => Promise<T>): Promise<T> => fn(store ?? (await open()));
  async function write(fn: (store: Store) => Promise<void>): Promise<void> {
    if (store !== undefined || opening !== undefined) return fn(await open());
    // After close (the last key last-used times at shutdown): a store of its own, closed after.
    const own = await openStore(url, { deadlines });
    try {
      await fn(own);
    } finally {
      await own.close();
    }
  }
  return storeOver(url, read, write, {
    dataVersion: () => (store === undefined ? versions.current : versions.of(store)),
    async close() {
      const opened = store ?? (await opening?.catch(() => undefined));
      store = opening = undefined;
      await opened?.close();
    },
  });
}
