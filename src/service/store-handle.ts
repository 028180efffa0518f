/**
 * The long-running server's database connection: opened on first use (a server may start
 * before the first `oracle ingest` creates the file), and dropped when SQLite reports the
 * file unusable, so the next request opens it again instead of failing forever.
 */
import { DatabaseUnavailableError } from '../domain/errors.js';
import { toDatabaseError } from '../store/connection.js';
import { openStore, type Store } from '../store/store.js';
import type { Awaitable } from './awaitable.js';

export interface StoreHandle {
  /**
   * Runs `fn` against the open store: synchronously when it is open (the hot path), as a
   * promise while it opens. SQLite failures come out as DatabaseUnavailableError (and close
   * the connection), thrown or rejected; other errors pass through unchanged.
   */
  use<T>(fn: (store: Store) => T): Awaitable<T>;
  close(): void;
}

export function createStoreHandle(path: string, open: (path: string) => Promise<Store> = openStore): StoreHandle {
  let store: Store | undefined;
  let opening: Promise<Store> | undefined;

  function drop(): void {
    const current = store;
    store = undefined;
    try {
      current?.close();
    } catch {
      // Closing a connection to a broken file can fail too; it is gone either way.
    }
  }

  async function get(): Promise<Store> {
    if (store) return store;
    opening ??= open(path).finally(() => (opening = undefined));
    return (store = await opening);
  }

  /** The error to surface for `error`, dropping the connection when the file is unusable. */
  function failure(error: unknown): unknown {
    const translated = toDatabaseError(error);
    if (translated instanceof DatabaseUnavailableError) drop();
    return translated;
  }

  return {
    use(fn) {
      if (!store) return get().then(fn).catch((error: unknown) => Promise.reject(failure(error)));
      try {
        return fn(store);
      } catch (error) {
        throw failure(error);
      }
    },
    close: drop,
  };
}
