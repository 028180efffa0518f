/**
 * Opening the SQLite file: pragmas for a reader (`oracle serve`) beside a writer
 * (a cron `oracle ingest`), and schema migrations applied on open.
 */
import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { DatabaseUnavailableError } from '../domain/errors.js';

export type SqliteDatabase = Database.Database;

/** How long a statement waits on a lock held by another connection before it fails. */
export const BUSY_TIMEOUT_MS = 5_000;

const MIGRATIONS_DIR = fileURLToPath(new URL('../../drizzle', import.meta.url));

/**
 * The compiled driver, named directly: better-sqlite3's default lookup goes through the
 * `bindings` package, which probes a dozen paths on every start (measurable in `oracle price`).
 */
function nativeBinding(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node');
  } catch {
    return undefined; // an unusual install layout: let the driver search
  }
}

export interface OpenOptions {
  /** Create the file when it does not exist (ingest); everything else wants an error instead. */
  create?: boolean;
}

/** Opens (and migrates) the database at `path`; ':memory:' works for tests. */
export async function openDatabase(path: string, options: OpenOptions = {}): Promise<SqliteDatabase> {
  if (path !== ':memory:' && !options.create && !existsSync(path)) {
    throw new DatabaseUnavailableError(
      `database ${resolve(path)} does not exist: load data with 'oracle ingest' first, or name your database with --db <path> (or ORACLE_DB)`,
    );
  }
  let db: SqliteDatabase;
  try {
    db = new Database(path, { timeout: BUSY_TIMEOUT_MS, nativeBinding: nativeBinding() });
    // WAL lets `serve` read while `ingest` writes; NORMAL sync is durable across
    // application crashes in WAL mode and much faster than FULL.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('cache_size = -65536'); // 64 MiB page cache
    await migrate(db);
  } catch (error) {
    if (error instanceof DatabaseUnavailableError) throw error;
    throw new DatabaseUnavailableError(`cannot open database ${path}: ${(error as Error).message}`, { cause: error });
  }
  return db;
}

/**
 * Applies drizzle-kit's migrations when the file is behind. `user_version` records how many
 * are applied, so an up-to-date file costs one pragma and the migrator (and the ORM, about
 * 90 ms to load) is imported only when there is work to do.
 */
async function migrate(db: SqliteDatabase): Promise<void> {
  const journal = JSON.parse(readFileSync(`${MIGRATIONS_DIR}/meta/_journal.json`, 'utf8')) as {
    entries: unknown[];
  };
  const target = journal.entries.length;
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current >= target) return;
  const [{ drizzle }, { migrate: runMigrations }] = await Promise.all([
    import('drizzle-orm/better-sqlite3'),
    import('drizzle-orm/better-sqlite3/migrator'),
  ]);
  runMigrations(drizzle(db), { migrationsFolder: MIGRATIONS_DIR });
  db.pragma(`user_version = ${target}`);
}

/** SQLite result codes that mean the file cannot serve right now: locked, corrupt, gone or unreadable. */
const UNAVAILABLE_CODES = /^SQLITE_(BUSY|LOCKED|CORRUPT|NOTADB|CANTOPEN|IOERR|FULL|READONLY)/;

/**
 * Translates a SQLite failure into DatabaseUnavailableError (cause kept) so every edge maps
 * one named error; anything else (a programming or engine error) is returned unchanged.
 */
export function toDatabaseError(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && UNAVAILABLE_CODES.test(code)) {
    return new DatabaseUnavailableError(`database unavailable: ${(error as Error).message}`, { cause: error });
  }
  return error;
}
