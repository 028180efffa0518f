/**
 * The long-running server's database connection: opened on first use (a server may start
 * before the first `oracle ingest` creates the file), read-only, and watched.
 *
 * An open connection keeps reading the file it opened even after that file is deleted,
 * replaced (`mv rebuilt.db oracle.db`) or truncated. So the path is stat'ed beside the
 * data_version read the caches need (once per event-loop turn), at most once per
 * FILE_CHECK_INTERVAL_MS: a stat on every turn was a measurable share of a cached request
 * (bench/findings.md). A different file there (device and inode) is opened in place of the
 * old one; a missing or empty file drops the connection and answers
 * DatabaseUnavailableError until a valid database is back. The
 * connection is read-only, and a file that is not an oracle database is refused, so the
 * server never writes a schema (or anything else) into a file it did not make. The one
 * write it does make, keys' last-used times, goes through a short-lived read-write
 * connection, and only into the file the reads came from.
 */
import { statSync, type Stats } from 'node:fs';
import { DatabaseUnavailableError } from '../domain/errors.js';
import { openStore, toDatabaseError } from '../store/open-store.js';
import { isPostgresUrl } from '../store/location.js';
import type { Store } from '../store/store.js';
import type { Awaitable } from './awaitable.js';

export interface StoreHandle {
  /**
   * Runs `fn` against the open store and its data version (read once per event-loop turn):
   * synchronously when it is open (the hot path), as a promise while it opens. SQLite
   * failures come out as DatabaseUnavailableError (and close the connection), thrown or
   * rejected; other errors pass through unchanged.
   */
  use<T>(fn: (store: Store, version: number) => Awaitable<T>): Awaitable<T>;
  /**
   * Runs `fn` on a short-lived read-write connection, only when the file at the path is
   * still the one the reads use; otherwise nothing is written.
   */
  write(fn: (store: Store) => Promise<void>): Promise<void>;
  /** Closes the reads' connection; `write` still reaches the file they used. */
  close(): Promise<void>;
}

/** Which file a path names: a replaced file has another inode (or device). */
interface FileIdentity {
  dev: number;
  ino: number;
}

function sameFile(a: FileIdentity, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

function unavailable(reason: string): DatabaseUnavailableError {
  return new DatabaseUnavailableError(`database unavailable: ${reason}`, { reason });
}

/** How often, at most, the server checks that the path still names the file it reads. */
export const FILE_CHECK_INTERVAL_MS = 250;

export interface StoreHandleOptions {
  /** Longest time between two checks of the path (0: every event-loop turn, as tests use). */
  fileCheckIntervalMs?: number;
}

export function createStoreHandle(path: string, options: StoreHandleOptions = {}): StoreHandle {
  if (isPostgresUrl(path)) return createServerStoreHandle(path);
  const checkIntervalMs = options.fileCheckIntervalMs ?? FILE_CHECK_INTERVAL_MS;
  let store: Store | undefined;
  let identity: FileIdentity | undefined;
  /** performance.now() after which the path is checked again. */
  let nextCheck = 0;
  let opening: Promise<Store> | undefined;
  // The file is checked and the data version read once per event-loop turn: under load one
  // turn serves many requests, and a check a turn old is as fresh as the request itself.
  let turnVersion: number | undefined;
  const endTurn = () => (turnVersion = undefined);

  /** Closes the reads' connection; `keepIdentity`: later writes may still go to that file. */
  function drop(keepIdentity = false): void {
    const current = store;
    store = undefined;
    if (!keepIdentity) identity = undefined;
    turnVersion = undefined;
    // Closing a connection to a broken file can fail too; it is gone either way.
    current?.close().catch(() => {});
  }

  async function openFile(): Promise<Store> {
    const opened = await openStore(path, { readonly: true });
    // Stat'ed after the open: if the path changed in between, the next turn's check sees it.
    const stats = statSync(path, { throwIfNoEntry: false });
    if (!stats) {
      await opened.close();
      throw unavailable('the database file was deleted');
    }
    identity = { dev: stats.dev, ino: stats.ino };
    nextCheck = performance.now() + checkIntervalMs;
    return (store = opened);
  }

  function get(): Promise<Store> {
    opening ??= openFile().finally(() => (opening = undefined));
    return opening;
  }

  /** The error to surface for `error`, dropping the connection when the file is unusable. */
  function failure(error: unknown): unknown {
    const translated = toDatabaseError(error);
    if (translated instanceof DatabaseUnavailableError) drop();
    return translated;
  }

  /**
   * The open store when the path still names its file, undefined when another file is
   * there now (to be opened); throws when the file is gone or empty.
   */
  function checked(current: Store): Store | undefined {
    nextCheck = performance.now() + checkIntervalMs;
    const stats = statSync(path, { throwIfNoEntry: false });
    if (!stats) {
      drop();
      throw unavailable('the database file was deleted');
    }
    if (!sameFile(identity as FileIdentity, stats)) {
      drop();
      return undefined;
    }
    if (stats.size === 0) {
      drop();
      throw unavailable('the database file is empty');
    }
    return current;
  }

  function run<T>(current: Store, fn: (store: Store, version: number) => Awaitable<T>): Awaitable<T> {
    if (turnVersion === undefined) {
      turnVersion = current.dataVersion();
      setImmediate(endTurn);
    }
    const result = fn(current, turnVersion);
    // A read that waited (a cache miss) fails as a rejection: translated like a thrown failure.
    return result instanceof Promise ? result.catch((error: unknown) => Promise.reject(failure(error))) : result;
  }

  function opened<T>(fn: (store: Store, version: number) => Awaitable<T>): Promise<T> {
    return get()
      .then((current) => run(current, fn))
      .catch((error: unknown) => Promise.reject(failure(error)));
  }

  return {
    use(fn) {
      try {
        let current = store;
        if (current && turnVersion === undefined && performance.now() >= nextCheck) current = checked(current);
        if (!current) return opened(fn);
        return run(current, fn);
      } catch (error) {
        throw failure(error);
      }
    },
    async write(fn) {
      const expected = identity;
      if (!expected) return;
      const before = statSync(path, { throwIfNoEntry: false });
      if (!before || !sameFile(expected, before)) return;
      let writer: Store | undefined;
      try {
        writer = await openStore(path);
        const stats = statSync(path, { throwIfNoEntry: false });
        if (!stats || !sameFile(expected, stats)) return;
        await fn(writer);
      } catch (error) {
        throw toDatabaseError(error);
      } finally {
        await writer?.close();
      }
    },
    close: async () => drop(true),
  };
}

/**
 * The server's store on a database server (PostgreSQL): there is no file to watch. One pool
 * serves the reads and the keys' last-used writes; it is opened on first use, and again on
 * the next request after an open that failed (a server may start before its database is up
 * or holds oracle's schema). The pool reconnects by itself, and the data version is the
 * store's own counter, kept current by its notifications. Writes after close get a store of
 * their own.
 */
function createServerStoreHandle(url: string): StoreHandle {
  let store: Store | undefined;
  let opening: Promise<Store> | undefined;
  const get = () =>
    (opening ??= openStore(url, { readonly: true }).then(
      (opened) => (store = opened),
      (error: unknown) => {
        opening = undefined;
        throw error;
      },
    ));
  return {
    use(fn) {
      const current = store;
      if (current) return fn(current, current.dataVersion());
      return get().then((opened) => fn(opened, opened.dataVersion()));
    },
    async write(fn) {
      if (store !== undefined || opening !== undefined) return fn(await get());
      // After close (the last key last-used times at shutdown): a store of its own, closed after.
      const own = await openStore(url);
      try {
        await fn(own);
      } finally {
        await own.close();
      }
    },
    async close() {
      const opened = store ?? (await opening?.catch(() => undefined));
      store = opening = undefined;
      await opened?.close();
    },
  };
}
