/**
 * PostgreSQL in the tests: the run's shared server (test/pg-setup.ts), and a fresh database
 * per call, copied from the migrated template and dropped when the test file ends.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, inject } from 'vitest';
import { PG_TEMPLATE, withDatabase } from './_pg-url.js';

export const PG_URL = inject('pgUrl');

/** `describe`, or `describe.skip` when there is no PostgreSQL (the run printed how to install it). */
export const describeWithPg = PG_URL ? describe : describe.skip;

const created: string[] = [];

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  if (!PG_URL) throw new Error('no PostgreSQL in this run: wrap the test in describeWithPg');
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new database holding oracle's schema and nothing else; its URL. */
export async function freshPgDatabase(): Promise<string> {
  const name = `oracle_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${PG_TEMPLATE}`));
  created.push(name);
  return withDatabase(PG_URL!, name);
}

/** A new database without any schema (what an operator creates before the first ingest); its URL. */
export async function emptyPgDatabase(): Promise<string> {
  const name = `oracle_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  created.push(name);
  return withDatabase(PG_URL!, name);
}

afterAll(async () => {
  const names = created.splice(0);
  if (names.length === 0) return;
  await admin(async (client) => {
    for (const name of names) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
});

/**
 * The store the suites run on: `ORACLE_TEST_STORE=postgres` (the vitest project `postgres`)
 * makes the suites' database helper hand out PostgreSQL databases instead of SQLite files.
 */
export const TEST_STORE: 'sqlite' | 'postgres' =
  process.env.ORACLE_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

/** Where a test's database lives: a new SQLite file in `dir`, or a fresh PostgreSQL database. */
export async function newTestDatabase(dir: string): Promise<string> {
  return TEST_STORE === 'postgres' ? freshPgDatabase() : `${dir}/oracle.db`;
}

/**
 * Where a test's database will be, before any ingest: a SQLite path in `dir` with no file yet,
 * or a PostgreSQL database without oracle's schema (what an operator creates first).
 */
export async function missingTestDatabase(dir: string): Promise<string> {
  return TEST_STORE === 'postgres' ? emptyPgDatabase() : `${dir}/later.db`;
}

/**
 * `probe()` once on SQLite, where a server sees another process's commit on its next request;
 * on PostgreSQL, again until `done` holds or a probe sent a second or more after the first
 * has answered, since there a server learns of the commit from a notification that arrives
 * just after it (the store's contract: within a second). A probe sent before the second was
 * up may rightly answer from before the commit however late it returns (a loaded machine), so
 * only one sent after it decides. The last answer either way.
 */
export async function nextOrWithinASecond<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
): Promise<T> {
  const deadline = performance.now() + (TEST_STORE === 'postgres' ? 1_000 : 0);
  for (;;) {
    const sent = performance.now();
    const value = await probe();
    if (done(value) || sent >= deadline) return value;
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(20, Math.max(0, deadline - performance.now()))),
    );
  }
}
