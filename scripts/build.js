#!/usr/bin/env node
// The one build: esbuild bundles src/ into dist/ with code splitting. Each command is its own
// chunk, loaded only when that command runs, so `oracle price` reads a few files instead of one
// per module (docs/benchmarks.md, "Build layout", compares the two layouts). Type checking is
// `npm run typecheck`; tsc emits nothing.
//
// Entry points keep the paths of their modules (dist/cli/main.js for src/cli/main.ts): bin/,
// the parse worker, bench/, backtest/ and the tests import them. Shared code goes to
// dist/chunks/. Every output file is two levels below the package root, as the sources are,
// so the paths modules build from import.meta.url (../../drizzle, ../../package.json,
// ../ingest/parse-worker.js) hold in the sources and in dist/ alike.
//
// Also builds the sample generator (sample/, a tool outside package.json "files") into
// build/sample/ for scripts/generate-sample-data.js and the backtest.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Modules imported from outside the bundle, by path under src/ without the extension. */
const ENTRY_POINTS = [
  'cli/main', // bin/oracle.js
  'ingest/parse-worker', // the ingest's worker thread
  // The built modules bench/ and backtest/ run in process, and the parse worker's test.
  'store/store',
  'service/oracle',
  'service/calibration',
  'domain/history',
  'domain/time',
  'engine/stats',
  'ingest/pipeline',
  'ingest/rejects',
  'ingest/parallel-csv-reader',
  // The feed format registry, which test/fixtures/oracle-with-buggy-format.js adds a format to.
  'ingest/formats/index',
];

/** @type {import('esbuild').BuildOptions} */
const COMMON = {
  absWorkingDir: root,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
};

rmSync(`${root}/dist`, { recursive: true, force: true });
rmSync(`${root}/build/sample`, { recursive: true, force: true });
await Promise.all([
  build({
    ...COMMON,
    entryPoints: Object.fromEntries(ENTRY_POINTS.map((path) => [path, `src/${path}.ts`])),
    outdir: 'dist',
    chunkNames: 'chunks/[name]-[hash]',
    // Loaded only by ingest and serve (the ORM only to migrate; the Redis client only by serve --redis): left to node_modules.
    external: ['drizzle-orm', 'undici', 'zod', 'polka', 'ioredis'],
    // Bundled CommonJS packages (commander, cli-table3, better-sqlite3's JS) call require().
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  }),
  build({ ...COMMON, entryPoints: ['sample/cli.ts', 'sample/prng.ts'], outdir: 'build/sample' }),
]);
