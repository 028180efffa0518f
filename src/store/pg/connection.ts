/**
 * Opening a PostgreSQL store: a connection pool for `postgres://` / `postgresql://` URLs,
 * drizzle-kit's migrations (drizzle-pg/) applied on open under an advisory lock (replicas
 * starting together migrate once), and failures translated to DatabaseUnavailableError with
 * the URL's password never shown.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { DatabaseUnavailableError } from '../../domain/errors.js';
import { DEADLINE_DEFAULTS, type DatabaseDeadlines } from '../store.js';
import { redactUrl } from '../location.js';
import { newerSchemaError, PG_MIGRATIONS_DIR as MIGRATIONS_DIR } from '../migrations.js';

/** Any advisory-lock key of our own: held while migrating. */
const MIGRATION_LOCK = 0x6f7261636c65; // "oracle"

const TABLES_REQUIRED = ['products', 'observations', 'api_keys'] as const;

/**
 * bigint (int8) columns hold epoch milliseconds and counts: far below 2^53, read as numbers
 * rather than node-postgres's default strings.
 */
const INT8_OID = 20;
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

export type PgPool = pg.Pool;
export type PgClient = pg.PoolClient;

export interface PgOpenOptions {
  /** Create the schema in a database that has none (ingest); otherwise such a database is refused. */
  create?: boolean;
  /** Connections the pool may hold (default: node-postgres's 10). */
  maxConnections?: number;
  /** Default: DEADLINE_DEFAULTS.command. */
  deadlines?: DatabaseDeadlines;
}

/**
 * The client's own wait for a statement's answer beyond the statement timeout: the server's
 * cancel (a clean error, the connection kept) normally comes first; a server that answers
 * nothing at all (frozen, or the network gone silent) is caught anyway.
 */
export const QUERY_GRACE_MS = 250;

/** node-postgres's settings for `deadlines`, shared by the pool and the listening connection. */
export function deadlineSettings(deadlines: DatabaseDeadlines): pg.ClientConfig {
  return {
    connectionTimeoutMillis: deadlines.connectMs,
    ...(deadlines.statementMs === null
      ? {}
      : { statement_timeout: deadlines.statementMs, query_timeout: deadlines.statementMs + QUERY_GRACE_MS }),
    // A peer that vanished without a FIN (a failover, a cut network) is found by the kernel.
    keepAlive: true,
  };
}

/** A new pool on `url`; connections are made on first use. */
export function createPool(
  url: string,
  maxConnections?: number,
  deadlines: DatabaseDeadlines = DEADLINE_DEFAULTS.command,
): PgPool {
  const pool = new pg.Pool({
    connectionString: url,
    types,
    max: maxConnections,
    application_name: 'oracle',
    ...deadlineSettings(deadlines),
  });
  // An idle connection the server ends (a restart, a failover) must not crash the process:
  // the pool drops it and the next query connects anew.
  pool.on('error', () => {});
  return pool;
}

/** Opens the pool and brings the schema up to date; refuses a database oracle did not make unless `create`. */
export async function openPool(url: string, options: PgOpenOptions = {}): Promise<PgPool> {
  const deadlines = options.deadlines ?? DEADLINE_DEFAULTS.command;
  const pool = createPool(url, options.maxConnections, deadlines);
  try {
    const client = await pool.connect();
    try {
      await migrate(client, url, options.create === true, deadlines);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => {});
    throw toPgDatabaseError(error, url);
  }
  return pool;
}

let migrationCount: number | undefined;
function codeMigrations(): number {
  migrationCount ??= (
    JSON.parse(readFileSync(`${MIGRATIONS_DIR}/meta/_journal.json`, 'utf8')) as { entries: unknown[] }
  ).entries.length;
  return migrationCount;
}

/** How many of drizzle's migrations the database has applied (0: none, or no migrations table). */
async function appliedMigrations(client: PgClient): Promise<number> {
  const exists = await client.query<{ present: boolean }>(
    "SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present",
  );
  if (!exists.rows[0]!.present) return 0;
  const count = await client.query<{ n: number }>('SELECT count(*) AS n FROM drizzle.__drizzle_migrations');
  return count.rows[0]!.n;
}

async function migrate(
  client: PgClient,
  url: string,
  create: boolean,
  deadlines: DatabaseDeadlines,
): Promise<void> {
  const applied = await appliedMigrations(client);
  if (applied === 0 && !create) await refuseForeign(client, url);
  if (applied > codeMigrations()) throw newerSchemaError(redactUrl(url), applied, codeMigrations());
  if (applied === codeMigrations()) return;
  // Migrating waits for another process's migration and may rewrite a large table: a
  // connection of its own, bounded in its connecting only; its end releases the lock.
  const migrator = new pg.Client({
    connectionString: url,
    types,
    application_name: 'oracle migrate',
    ...deadlineSettings({ connectMs: deadlines.connectMs, statementMs: null }),
  });
  await migrator.connect();
  try {
    await migrator.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const [{ drizzle }, { migrate: runMigrations }] = await Promise.all([
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ]);
    // Re-read under the lock: another process may have migrated meanwhile (the migrator skips what is applied).
    await runMigrations(drizzle(migrator), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await migrator.end();
  }
}

/** A database without oracle's migrations: empty (load data first) or another program's. */
async function refuseForeign(client: PgClient, url: string): Promise<never> {
  const found = await client.query<{ name: string }>(
    'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ANY($1)',
    [TABLES_REQUIRED],
  );
  const reason =
    found.rows.length === 0 ? 'the database has no oracle schema' : 'the database is not an oracle database';
  const hint =
    found.rows.length === 0 ? ": load data with 'oracle ingest' first" : ' (it has no oracle migrations)';
  throw new DatabaseUnavailableError(`database ${redactUrl(url)}: ${reason}${hint}`, { reason });
}

const DID_NOT_ANSWER = 'the database server did not answer in time';

/** node-postgres's own failures, which carry no code: its deadlines (deadlineSettings), a lost connection. */
function clientSideReason(message: string): string | null {
  if (
    /timeout exceeded when trying to connect|Connection terminated due to connection timeout|Query read timeout/.test(
      message,
    )
  )
    return DID_NOT_ANSWER;
  if (/Connection terminated/.test(message)) return 'the database server cannot be reached';
  return null;
}

/** Connection-level failures, each with a client-safe reason (SQLSTATE classes and socket codes). */
function unavailableReason(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  if (/^(ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH|EAI_AGAIN|EPIPE)$/.test(code))
    return 'the database server cannot be reached';
  if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03')
    return 'the database server cannot be reached';
  if (code === '28P01' || code === '28000') return 'the database refused the credentials';
  if (code === '3D000') return 'the database does not exist';
  if (code === '42P01') return 'the database has no oracle schema';
  if (code === '53300') return 'the database server has too many connections';
  if (code === '57014')
    return /statement timeout/.test(String((error as Error).message))
      ? DID_NOT_ANSWER
      : 'the database server cancelled the statement';
  if (code.startsWith('53')) return 'the database server is out of resources';
  return null;
}

/**
 * Translates a PostgreSQL or socket failure into DatabaseUnavailableError (cause kept, URL
 * without password); anything else is returned unchanged.
 */
export function toPgDatabaseError(error: unknown, url: string): unknown {
  if (error instanceof DatabaseUnavailableError) return error;
  const reason = unavailableReason(error) ?? clientSideReason(String((error as Error | null)?.message));
  if (reason === null) return error;
  return new DatabaseUnavailableError(`database ${redactUrl(url)}: ${reason}: ${(error as Error).message}`, {
    reason,
    cause: error,
  });
}
