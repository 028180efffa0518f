/**
 * The long-running server's database connection: opened on first use (a server may start
 * before the first `oracle ingest` creates the file), and dropped when SQLite reports the
 * file unusable, so the next request opens it again instead of failing forever.
 */
import { DatabaseUnavailableError } from '../domain/errors.js';
import { toDatabaseError } from '../store/connection.js';
import { openStore, type Store } from '../store/store.js';

export interface StoreHandle {
  /**
   * Runs `fn` against the open store. SQLite failures come out as DatabaseUnavailableError
   * (and close the connection); other errors pass through unchanged.
   */
  use<T>(fn: (store: Store) => T): Promise<T>;
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
      // The open store is the hot path: no extra async frame for it.
      try {
        return Promise.resolve(fn(store));
      } catch (error) {
        return Promise.reject(failure(error));
      }
    },
    close: drop,
  };
}
