/**
 * Where a command's database is when neither --db nor ORACLE_DB names one. In a project folder
 * (one holding an `oracle.db`, which `oracle ingest` or `npm run demo` made there) it is that
 * file, as before oracle had a global install; anywhere else it is the user's own database in
 * the XDG data directory, so an `oracle` installed with npm finds the same data from any folder.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
/** The environment a run reads (context.ts Env). */
type Env = Readonly<Record<string, string | undefined>>;

/** The database of a project folder: `oracle.db` in the working directory. */
export const PROJECT_DB = 'oracle.db';

/**
 * The user's database: $XDG_DATA_HOME/oracle/oracle.db, or ~/.local/share/oracle/oracle.db
 * when XDG_DATA_HOME is unset or not absolute (the XDG Base Directory specification says a
 * relative one is to be ignored).
 */
export function userDatabase(env: Env): string {
  const xdg = env.XDG_DATA_HOME;
  const data = xdg !== undefined && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.local', 'share');
  return join(data, 'oracle', PROJECT_DB);
}

/** The database when none is named: the project folder's when the working directory has one, else the user's. */
export function defaultDatabase(env: Env): string {
  return existsSync(PROJECT_DB) ? PROJECT_DB : userDatabase(env);
}

/**
 * Makes the folder of the user's database before a command creates it there (a fresh account
 * has no ~/.local/share/oracle); a path someone named is left as named, where a missing folder
 * is their mistake to hear about.
 */
export function prepareUserDatabase(location: string, env: Env): void {
  if (location === userDatabase(env)) mkdirSync(dirname(location), { recursive: true });
}

/** How --help states the default. */
export const DEFAULT_DB_TEXT =
  './oracle.db when it exists, else $XDG_DATA_HOME/oracle/oracle.db (~/.local/share/oracle/oracle.db)';
