import { defineConfig } from 'vitest/config';

/**
 * Two projects: `sqlite`, every test on the default store; `postgres`, the CLI and HTTP suites'
 * files, the ingest pipeline's (the parse worker's against one thread among them), the
 * service's export and the store contract (test/store/contract.test.ts, price-points.test.ts:
 * one suite every store must pass), that take their database from newTestDatabase (test/_pg.ts; the HTTP ones through
 * useSeededServer) run again with ORACLE_TEST_STORE=postgres, which makes it hand out a fresh
 * PostgreSQL database per file instead of a SQLite file. The files left out test SQLite
 * itself (files replaced, locked, corrupt: test/http/database-file.test.ts), or do not depend
 * on the store (test/http/rate-limit.test.ts: the limiter alone; test/http/openapi.test.ts:
 * the served document; test/cli/help.test.ts); a file that also tests a SQLite file skips
 * those cases on PostgreSQL (it.skipIf(TEST_STORE === 'postgres'), saying why). The PostgreSQL
 * store's own tests (parity, replicas, the store) are in `sqlite`: they open both stores.
 * Also left out, to keep the suite within its time: test/http/input.test.ts and
 * strict-input.test.ts (each route's schema against the server's answers, and numbers and dates
 * as clients spell them: the parsing is the same on every store),
 * test/cli/search.test.ts (names and typos through the CLI; the store's part of it, the search
 * vocabulary, is in the store contract, which runs on both), test/cli/examples.test.ts (the
 * cron scripts of examples/, sh, curl and jq around `oracle ingest`: what they ingest runs on
 * both stores in the formats' own files, feeds.test.ts and tcgcsv.test.ts) and
 * test/http/upstream-faults.test.ts (the upstream client's deadlines and connection cap; the
 * store's part, the local mapping, is in test/http/statuses.test.ts, which runs on both).
 */
const ON_POSTGRES = [
  'test/cli/calibrate.test.ts',
  'test/cli/catalog.test.ts',
  'test/cli/explain.test.ts',
  'test/cli/extra-grades.test.ts',
  'test/cli/export.test.ts',
  'test/cli/feeds.test.ts',
  'test/cli/history.test.ts',
  'test/cli/identity.test.ts',
  'test/cli/ingest-dates.test.ts',
  'test/cli/ingest-faults.test.ts',
  'test/cli/ingest.test.ts',
  'test/cli/keys.test.ts',
  'test/cli/market.test.ts',
  'test/cli/price.test.ts',
  'test/cli/serve-redis.test.ts',
  'test/cli/serve.test.ts',
  'test/cli/snapshot.test.ts',
  'test/cli/sports-cards.test.ts',
  'test/cli/tcgcsv.test.ts',
  'test/cli/value.test.ts',
  'test/cli/watch.test.ts',
  'test/http/auth-matrix.test.ts',
  'test/http/auth.test.ts',
  'test/http/cors.test.ts',
  'test/http/evidence.test.ts',
  'test/http/extra-grades.test.ts',
  'test/http/fast-path.test.ts',
  'test/http/history.test.ts',
  'test/http/identity.test.ts',
  'test/http/metrics.test.ts',
  'test/http/operations.test.ts',
  'test/http/raw-requests.test.ts',
  'test/http/search.test.ts',
  'test/http/statuses.test.ts',
  'test/ingest/parallel-reader.test.ts',
  'test/ingest/pipeline.test.ts',
  'test/ingest/title-matcher.test.ts',
  'test/service/export.test.ts',
  'test/service/watch.test.ts',
  'test/store/contract.test.ts',
  'test/store/price-points.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on the 2-core machines CI and
    // developers have, while most files wait on child processes, servers and disks. Two fork
    // workers use both cores (the suite's time: docs/development.md).
    maxWorkers: 2,
    globalSetup: ['./test/global-setup.ts', './test/redis-setup.ts', './test/pg-setup.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['test/**/*.test.ts'],
          exclude: ['test/browser/**', '**/node_modules/**'],
        },
      },
      // The web pages in Debian's chromium (test/browser/): one browser launch a file.
      { extends: true, test: { name: 'browser', include: ['test/browser/**/*.test.ts'] } },
      {
        extends: true,
        test: { name: 'postgres', include: ON_POSTGRES, env: { ORACLE_TEST_STORE: 'postgres' } },
      },
    ],
  },
});
