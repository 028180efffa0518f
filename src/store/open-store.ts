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
  if (isPostgresUrl(location)) return (await import('./pg/store.js')).openPgStore(location, options);
  return openSqliteStore(location, options);
}

/**
 * Translates a failure of a SQLite store into DatabaseUnavailableError (cause kept) so every
 * edge maps one named error; anything else (a programming or engine error) is returned
 * unchanged. The PostgreSQL store translates its own failures before they leave it.
 */
export { toDatabaseError } from './sqlite/connection.js';
