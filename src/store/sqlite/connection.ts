/**
 * Opening the SQLite file: pragmas for a reader (`oracle serve`) beside a writer
 * (a cron `oracle ingest`), and schema migrations applied on open.
 *
 * Only a caller that asks to create a database (`create: true`: ingest) may write a schema
 * into a file. Every other caller opens only a file oracle made (its `user_version` counts
 * the migrations applied): a missing, empty (0-byte) or foreign file is refused, unchanged.
 */
import Database from 'better-sqlite3';
import { accessSync, chmodSync, closeSync, constants, existsSync, openSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { DatabaseUnavailableError } from '../../domain/errors.js';
import { MIGRATIONS_DIR, newerSchemaError } from '../migrations.js';
import { readOnlyCopy } from './read-only-copy.js';

export type SqliteDatabase = Database.Database;

/** How long a statement waits on a lock held by another connection before it fails. */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * SQLite's page cache of a connection, in KiB: pricing and export revisit the pricing index's
 * pages of many products, the server's reads keep the hot ones in memory, and an ingest of
 * observations keeps the last page of each product's range of that index.
 */
export const READ_CACHE_KIB = 64 * 1024;

/**
 * The page cache of an ingest's connection until its first observation, and while it writes
 * catalog products: 2 MiB, about SQLite's default (2,000 KiB). Products and their search index
 * are appended, so a few pages are written at a time, and each record's lookups read a few
 * index pages once; a larger cache only kept pages already used and filled as the database
 * outgrew it, so a catalog ingest's memory grew with the catalog (bench/findings.md, 6b).
 */
export const CATALOG_CACHE_KIB = 2 * 1024;

/** Sets the connection's page cache to `kib` KiB (a negative cache_size counts KiB, not pages). */
export function setPageCache(db: SqliteDatabase, kib: number): void {
  db.pragma(`cache_size = -${kib}`);
}

/** The tables every reader of the file relies on; a file without them is not oracle's. */
const REQUIRED_TABLES = ['products', 'observations', 'api_keys'] as const;

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
  /**
   * Create the file, or the schema in an empty (0-byte) file: ingest. Without it the file
   * must already be an oracle database, and a missing, empty or foreign file is refused.
   */
  create?: boolean;
  /**
   * Read-only: SQLite cannot change the file through this connection, not even on close (a
   * read-write connection that closes last checkpoints its WAL into the file). The server's
   * reads use one. A file behind on migrations is migrated first by a short read-write open.
   */
  readonly?: boolean;
  /**
   * The caller writes: a file this process may not write is refused at open, naming it and
   * the fix, where a command that only reads gets it read-only.
   */
  write?: boolean;
  /** Told what a user should know of how the file is read (through a copy in memory, read-only-copy.ts). */
  notice?: (message: string) => void;
}

/** The unavailable-database error with its client-safe reason (the message adds the path). */
function unavailable(
  path: string,
  reason: string,
  hint = '',
  cause?: unknown,
  remedy?: string,
): DatabaseUnavailableError {
  return new DatabaseUnavailableError(`database ${resolve(path)}: ${reason}${hint}`, {
    reason,
    cause,
    remedy,
  });
}

/** The mode of a database oracle creates; SQLite gives its -wal and -shm the same (the umask may take more away). */
const NEW_DATABASE_MODE = 0o600;

/** Why this process may not access `path` in `mode` (an errno code: EACCES, EROFS on a read-only mount), or null. */
function accessDenied(path: string, mode: number): string | null {
  try {
    accessSync(path, mode);
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'EACCES';
  }
}

const writeDenied = (path: string): string | null => accessDenied(path, constants.W_OK);
const unreadable = (path: string): boolean => accessDenied(path, constants.R_OK) !== null;

const READERS_WORK = 'commands that only read work on it as it is';

/**
 * Why a writer cannot use `path`, before SQLite is asked: a read-only mount, a read-only file,
 * or a directory where the -wal and -shm cannot be made. SQLite would open it anyway, fail at
 * the first write with "attempt to write a readonly database" and leave a -shm of the file's
 * mode behind, which blocked every later writer until someone deleted it.
 */
function writeRefusal(path: string): DatabaseUnavailableError | null {
  const file = resolve(path);
  const dir = dirname(file);
  const fileDenied = existsSync(path) ? writeDenied(path) : null;
  const dirDenied = writeDenied(dir);
  if (fileDenied === 'EROFS' || (fileDenied === null && dirDenied === 'EROFS')) {
    const remedy = `to write, make the file system of ${dir} read-write, or copy the database to a writable place; ${READERS_WORK}`;
    return unavailable(path, 'the database is on a read-only file system', `: ${remedy}`, undefined, remedy);
  }
  if (fileDenied !== null) {
    const remedy = `make it writable (chmod u+w ${file}) or run as its owner; ${READERS_WORK}`;
    return unavailable(path, 'the database file is read-only', `: ${remedy}`, undefined, remedy);
  }
  for (const side of [`${path}-wal`, `${path}-shm`]) {
    if (!existsSync(side) || writeDenied(side) === null) continue;
    // Left by a reader while the database was read-only (SQLite gives them the file's mode):
    // their owner makes them writable again; anyone else is told how.
    try {
      chmodSync(side, NEW_DATABASE_MODE);
    } catch {
      const remedy = `make it writable (chmod u+w ${resolve(side)}) or run as its owner; a reader left it while the database was read-only`;
      return unavailable(
        path,
        `${side.slice(path.length + 1)} file is read-only`,
        `: ${remedy}`,
        undefined,
        remedy,
      );
    }
  }
  if (!existsSync(`${path}-wal`) && dirDenied !== null) {
    const remedy = `SQLite keeps its -wal and -shm files beside the database: make ${dir} writable, or move the database; ${READERS_WORK}`;
    return unavailable(path, 'the directory of the database is read-only', `: ${remedy}`, undefined, remedy);
  }
  return null;
}

const LOAD_HINT =
  ": load data with 'oracle ingest' (or the sample with 'oracle demo') first, or name your database with --db <path> (or ORACLE_DB)";

/** Opens (and migrates) the database at `path`; ':memory:' works for tests. */
export async function openDatabase(path: string, options: OpenOptions = {}): Promise<SqliteDatabase> {
  const create = options.create === true || path === ':memory:';
  if (!create && !existsSync(path)) {
    throw new DatabaseUnavailableError(`database ${resolve(path)} does not exist${LOAD_HINT}`, {
      reason: 'the database file does not exist',
    });
  }
  if (path !== ':memory:' && options.readonly !== true) {
    const refusal = writeRefusal(path);
    // A command that only reads opens a file it may not write read-only; a writer is refused.
    if (refusal !== null && !create && options.write !== true)
      return openDatabase(path, { ...options, readonly: true });
    if (refusal !== null) throw refusal;
    if (create && !existsSync(path)) {
      try {
        closeSync(openSync(path, 'wx', NEW_DATABASE_MODE));
      } catch {
        // Made by another process meanwhile, or not creatable: SQLite's open says which.
      }
    }
  }
  try {
    // prepared() closes the connection when it fails.
    const db = new Database(path, {
      timeout: BUSY_TIMEOUT_MS,
      nativeBinding: nativeBinding(),
      readonly: options.readonly === true,
      fileMustExist: !create,
    });
    return await prepared(db, path, options, create);
  } catch (error) {
    if (options.readonly === true && path !== ':memory:' && cannotOpenBeside(error)) {
      const dir = dirname(resolve(path));
      // A read-only directory or mount: SQLite cannot create the -shm a reader of a WAL file needs.
      const copy = writeDenied(dir) === null ? null : copyOf(path, dir);
      if (copy !== null && 'refusal' in copy) {
        throw unavailable(path, copy.refusal.reason, `: ${copy.refusal.remedy}`, error, copy.refusal.remedy);
      }
      if (copy !== null) {
        try {
          const opened = await prepared(
            new Database(copy.bytes, { readonly: true, nativeBinding: nativeBinding() }),
            path,
            options,
            create,
          );
          options.notice?.(copy.note);
          return opened;
        } catch (copyError) {
          throw openFailure(path, copyError);
        }
      }
    }
    throw openFailure(path, error);
  }
}

/** readOnlyCopy, or null when the file itself cannot be read (SQLite's error says so). */
function copyOf(path: string, dir: string): ReturnType<typeof readOnlyCopy> {
  try {
    return readOnlyCopy(path, dir);
  } catch {
    return null;
  }
}

/** SQLite's open failed for want of a file beside the database (the -shm, the -wal), not for the database itself. */
function cannotOpenBeside(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(CANTOPEN|READONLY)/.test(code);
}

/** The failure of an open as DatabaseUnavailableError naming the file (cause kept). */
function openFailure(path: string, error: unknown): DatabaseUnavailableError {
  if (path !== ':memory:' && cannotOpenBeside(error) && unreadable(path)) {
    const remedy = `make it readable (chmod u+r ${resolve(path)}) or run as its owner`;
    return unavailable(path, 'the database file is not readable by this user', `: ${remedy}`, error, remedy);
  }
  const translated = toDatabaseError(error);
  if (translated instanceof DatabaseUnavailableError) {
    return translated === error ? translated : unavailable(path, translated.reason, '', error);
  }
  return unavailable(path, 'the database cannot be opened', `: ${(error as Error).message}`, error);
}

/** Whether `db` reads a copy of its file held in memory (readOnlyCopy), not the file itself. */
export const isInMemoryCopy = (db: SqliteDatabase): boolean => db.memory && db.readonly;

function closeQuietly(db: SqliteDatabase | undefined): void {
  try {
    db?.close();
  } catch {
    // Closing a half-opened connection can fail too; the open's error is the one to report.
  }
}

/**
 * `db` checked and set up for use: oracle's file, not newer than this oracle, migrated (a reader
 * behind on migrations is opened again after a short read-write open that applies them).
 * Closed when it fails.
 */
async function prepared(
  db: SqliteDatabase,
  path: string,
  options: OpenOptions,
  create: boolean,
): Promise<SqliteDatabase> {
  try {
    // Checked before any pragma that writes: setting WAL on an empty file writes its header.
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > migrationCount()) throw newerSchemaError(resolve(path), version, migrationCount());
    if (!create) checkOracleFile(db, path, version);
    if (options.readonly) {
      if (version < migrationCount()) {
        db.close();
        const refusal = writeRefusal(path);
        if (refusal !== null) throw behindAndReadOnly(path, version, refusal);
        (await openDatabase(path, { write: true })).close();
        return await openDatabase(path, options);
      }
    } else {
      // WAL lets `serve` read while `ingest` writes; NORMAL sync is durable across
      // application crashes in WAL mode and much faster than FULL.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      await migrate(db, version);
    }
    setPageCache(db, READ_CACHE_KIB);
    return db;
  } catch (error) {
    closeQuietly(db);
    throw error;
  }
}

/** A reader's file is behind this oracle's migrations, and this process cannot apply them. */
function behindAndReadOnly(
  path: string,
  version: number,
  refusal: DatabaseUnavailableError,
): DatabaseUnavailableError {
  const behind = migrationCount() - version;
  const reason = `the database is ${behind} schema migration${behind === 1 ? '' : 's'} behind this oracle, which cannot apply them: ${refusal.reason}`;
  const remedy = `run any command of this oracle on it once where it is writable (that applies them), or read it with the oracle that made it`;
  return unavailable(path, reason, `: ${remedy}`, refusal, remedy);
}

/** Refuses a file oracle did not make: empty, another program's SQLite file, or missing a table. */
function checkOracleFile(db: SqliteDatabase, path: string, version: number): void {
  if (version >= 1) {
    const names = new Set(
      db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all(),
    );
    const missing = REQUIRED_TABLES.find((table) => !names.has(table));
    if (missing) throw unavailable(path, `the database has no ${missing} table`, ': not an oracle database');
    return;
  }
  const empty = db.prepare<[], number>('SELECT count(*) FROM sqlite_master').pluck().get() === 0;
  if (empty) throw unavailable(path, 'the database file is empty', `${LOAD_HINT}, or restore a backup`);
  throw unavailable(path, 'the file is not an oracle database', ' (it has no oracle schema version)');
}

/**
 * Closes a connection; a read-write one first checkpoints its WAL and truncates it to zero
 * bytes. A connection that closes last does that anyway, but beside a running server none
 * is last, and frames left in `<file>-wal` would be replayed onto whatever file is at that
 * path next (a backup copied back, or a rebuilt file moved over it).
 */
export function closeDatabase(db: SqliteDatabase): void {
  if (!db.readonly && db.open) {
    try {
      // Without waiting: while another writer is busy the checkpoint gives up at once, and
      // the last writer to close does it (waiting would hold concurrent ingests up to the
      // busy timeout at every close).
      db.pragma('busy_timeout = 0');
      db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // Best effort: a busy or broken file still gets closed.
    }
  }
  db.close();
}

let migrations: number | undefined;
/** How many migrations the code has (drizzle-kit's journal), read once. */
function migrationCount(): number {
  migrations ??= (
    JSON.parse(readFileSync(`${MIGRATIONS_DIR}/meta/_journal.json`, 'utf8')) as { entries: unknown[] }
  ).entries.length;
  return migrations;
}

/**
 * Applies drizzle-kit's migrations when the file is behind. `user_version` records how many
 * are applied, so an up-to-date file costs one pragma and the migrator (and the ORM, slow to
 * load) is imported only when there is work to do.
 */
async function migrate(db: SqliteDatabase, current: number): Promise<void> {
  const target = migrationCount();
  if (current >= target) return;
  const [{ drizzle }, { migrate: runMigrations }] = await Promise.all([
    import('drizzle-orm/better-sqlite3'),
    import('drizzle-orm/better-sqlite3/migrator'),
  ]);
  runMigrations(drizzle(db), { migrationsFolder: MIGRATIONS_DIR });
  db.pragma(`user_version = ${target}`);
}

/** SQLite result codes that mean the file cannot serve right now, each with a client-safe reason. */
const UNAVAILABLE_REASONS: readonly [RegExp, string][] = [
  [/^SQLITE_(BUSY|LOCKED)/, 'the database is locked'],
  [/^SQLITE_CORRUPT/, 'the database file is corrupt'],
  [/^SQLITE_NOTADB/, 'the file is not a SQLite database'],
  [/^SQLITE_CANTOPEN/, 'the database file cannot be opened'],
  [/^SQLITE_(IOERR|FULL)/, 'the database file cannot be read or written'],
  [/^SQLITE_READONLY/, 'the database file is read-only'],
];

/**
 * Translates a SQLite failure into DatabaseUnavailableError (cause kept) so every edge maps
 * one named error; anything else (a programming or engine error) is returned unchanged.
 * A missing table is a file that is not (or no longer) oracle's, not a programming error.
 */
export function toDatabaseError(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  const message = (error as Error).message;
  const table = code === 'SQLITE_ERROR' ? /^no such table: (\w+)/.exec(message) : null;
  const reason = table
    ? `the database has no ${table[1]} table`
    : UNAVAILABLE_REASONS.find(([pattern]) => pattern.test(code))?.[1];
  if (!reason) return error;
  return new DatabaseUnavailableError(`database unavailable: ${message}`, { reason, cause: error });
}
