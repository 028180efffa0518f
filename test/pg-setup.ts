/**
 * The real PostgreSQL of the PostgreSQL store's tests (vitest globalSetup). It is the one named
 * by ORACLE_TEST_PG_URL when `node scripts/test-services.js npm test` (.ci/run) started it;
 * otherwise one started here by the same script's code and stopped after the run. Without
 * PostgreSQL's binaries the PostgreSQL tests are skipped with one line saying how to install
 * them, except in CI (CI=true), where that fails the run.
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { findPostgresBin, PG_INSTALL_HINT, startPostgres } from '../scripts/test-services.js';
import { openPool } from '../src/store/pg/connection.js';
import { PG_TEMPLATE, withDatabase } from './_pg-url.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** postgres://oracle@127.0.0.1:<port>/oracle, or null when the PostgreSQL tests are skipped. */
    pgUrl: string | null;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const given = process.env.ORACLE_TEST_PG_URL;
  if (given) {
    await createTemplate(given);
    project.provide('pgUrl', given);
    return undefined;
  }
  if (!findPostgresBin()) {
    if (process.env.CI)
      throw new Error(
        `PostgreSQL not found: CI runs the PostgreSQL tests; install it with: ${PG_INSTALL_HINT}`,
      );
    process.stdout.write(
      `PostgreSQL tests skipped: initdb not found (install it with: ${PG_INSTALL_HINT})\n`,
    );
    project.provide('pgUrl', null);
    return undefined;
  }
  const server = await startPostgres();
  await createTemplate(server.url);
  project.provide('pgUrl', server.url);
  return () => server.stop();
}

/**
 * The template each test file's database is copied from (test/_pg.ts): migrated once here,
 * so a test database costs a CREATE DATABASE ... TEMPLATE rather than the migrations.
 */
async function createTemplate(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${PG_TEMPLATE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${PG_TEMPLATE}`);
  } finally {
    await admin.end();
  }
  await (await openPool(withDatabase(url, PG_TEMPLATE), { create: true })).end();
}
