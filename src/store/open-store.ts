/**
 * The opener: picks the store for a location. It stands above the dialects (./sqlite/,
 * ./pg/), which implement the interface (store.ts) and never import this module. With
 * store.ts and location.ts it is all that code outside src/store imports from it.
 */
import { isPostgresUrl } from './location.js';
import { openSqliteStore } from './sqlite/store.js';
import type { OpenOptions, Store } from './store.js';

/**
 * Opens the store at `location`: a `postgres://` or `postgresql://` URL (PostgreSQL), else a
 * SQLite file path (':memory:' for tests). The PostgreSQL store is loaded only when named, so
 * a SQLite command never pays for its driver at start-up.
 */
export async function openStore(location: string, options: OpenOptions = {}): Promise<Store> {
  const store = isPostgresUrl(location)
    ? await (await import('./pg/store.js')).openPgStore(location, options)
    : await openSqliteStore(location, options);
  await closeDeadRuns(store);
  return store;
}

/**
 * Marks `interrupted` the ingest runs left `running` by a process that is gone (a kill -9, a
 * crash, a disk so full that the run's last write failed too: ingest-runs.ts), the next time
 * any command or server opens the database rather than at the next ingest only, so that the
 * table never shows a dead run as going on. One read of the running rows when there is none to
 * mark; best effort: a database this process cannot write (read-only, a copy in memory, a
 * writer holding the lock) keeps the rows for the next open.
 */
async function closeDeadRuns(store: Store): Promise<void> {
  if (store.inMemoryCopy) return;
  try {
    await store.ingestRuns.markInterrupted();
  } catch {
    // Left for the next open that can write.
  }
}

/**
 * Translates a failure of a SQLite store into DatabaseUnavailableError (cause kept) so every
 * edge maps one named error; anything else (a programming or engine error) is returned
 * unchanged. The PostgreSQL store translates its own failures before they leave it.
 */
export { toDatabaseError } from './sqlite/connection.js';
