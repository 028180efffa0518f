import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * Two projects: `sqlite`, every test on the default store; `postgres`, every test file again
 * with ORACLE_TEST_STORE=postgres, which makes newTestDatabase (test/_pg.ts; the HTTP suites
 * through useSeededServer) hand out a fresh PostgreSQL database per file instead of a SQLite
 * file. A new test file runs on both unless it says otherwise itself: a file that cannot or
 * need not run on PostgreSQL (it has no store, tests SQLite itself, opens both stores itself,
 * or repeats there what another file already runs on both) starts with the line
 * `// @module-tag sqlite-only: <why>`, and the `postgres` project leaves it out before loading
 * it (a describe.skip would load the 78 such files only to skip them: about 70 s of CPU on the
 * 2-core machine). A file that skips only some cases there says so with
 * it.skipIf(TEST_STORE === 'postgres').
 */
const SQLITE_ONLY = 'sqlite-only';
const sqliteOnlyFiles = readdirSync(new URL('test', import.meta.url), { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => `test/${name}`)
  .filter((path) => readFileSync(path, 'utf8').startsWith(`// @module-tag ${SQLITE_ONLY}:`));

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on the 2-core machines CI and
    // developers have, while most files wait on child processes, servers and disks. Two fork
    // workers use both cores (the suite's time: docs/development.md).
    maxWorkers: 2,
    // A worker runs its test files one after another in one process instead of a new process
    // each: the modules a file imports (the CLI, the server, the store) load once a worker, not
    // once a file, which was about a third of the suite's time on 2 cores (docs/development.md).
    // What a file could leave to the next is closed by test/file-isolation.ts.
    isolate: false,
    setupFiles: ['./test/file-isolation.ts'],
    globalSetup: ['./test/global-setup.ts', './test/redis-setup.ts', './test/pg-setup.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    tags: [
      { name: SQLITE_ONLY, description: 'a file the postgres project leaves out (its first line says why)' },
    ],
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
        test: {
          name: 'postgres',
          include: ['test/**/*.test.ts'],
          exclude: [...sqliteOnlyFiles, 'test/browser/**'],
          env: { ORACLE_TEST_STORE: 'postgres' },
        },
      },
    ],
  },
});
