#!/usr/bin/env node
// The build: esbuild bundles src/ with code splitting, one layout for everything that runs.
//
// dist/ (published): the CLI, dist/cli/main.js, whose commands are chunks loaded only when
// they run, so `oracle price` reads a few files instead of one per module (docs/benchmarks.md,
// "Build layout"), and the ingest's worker thread, dist/ingest/parse-worker.js, bundled on its
// own (a worker shares no module instances with the main thread, so sharing chunks with it
// would only split the CLI's code into more files).
//
// build/ (not published): the same sources bundled with more entry points for the code that
// runs built modules in process (bench/, backtest/, tests): their modules keep their paths
// (build/store/store.js for src/store/store.ts), shared code goes to build/chunks/. Kept apart
// from dist/ because every extra entry point splits the CLI's shared code into more chunks,
// which `oracle price` would pay for at start-up. Also the sample generator (sample/, a tool)
// in build/sample/ for scripts/generate-sample-data.js and the backtest.
//
// Every output file is two levels below the package root, as the sources are, so the paths
// modules build from import.meta.url (../../drizzle, ../../package.json,
// ../ingest/parse-worker.js) hold in the sources, dist/ and build/ alike. Type checking is
// `npm run typecheck`; tsc emits nothing.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The modules bench/, backtest/ and tests import from build/, by path under src/ without the extension. */
const TOOL_ENTRY_POINTS = [
  'cli/main',
  'ingest/parse-worker',
  'store/store',
  'service/oracle',
  'service/calibration',
  'domain/history',
  'domain/time',
  'engine/stats',
  'ingest/pipeline',
  'ingest/rejects',
  'ingest/parallel-csv-reader',
  // The feed format registry, which test/fixtures/oracle-with-buggy-format.js adds a format to
  // before it runs the CLI of the same build.
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

/** @type {import('esbuild').BuildOptions} */
const PRODUCT = {
  ...COMMON,
  // Loaded only by ingest and serve (the ORM only to migrate; the Redis client only by serve --redis): left to node_modules.
  external: ['drizzle-orm', 'undici', 'zod', 'polka', 'ioredis'],
  // Bundled CommonJS packages (commander, cli-table3, better-sqlite3's JS) call require().
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
};

/** @param {readonly string[]} paths under src/, without the extension */
const entries = (paths) => Object.fromEntries(paths.map((path) => [path, `src/${path}.ts`]));

rmSync(`${root}/dist`, { recursive: true, force: true });
rmSync(`${root}/build`, { recursive: true, force: true });
await Promise.all([
  build({ ...PRODUCT, entryPoints: entries(['cli/main']), outdir: 'dist', chunkNames: 'chunks/[name]-[hash]' }),
  build({ ...PRODUCT, entryPoints: entries(['ingest/parse-worker']), outdir: 'dist', splitting: false }),
  build({ ...PRODUCT, entryPoints: entries(TOOL_ENTRY_POINTS), outdir: 'build', chunkNames: 'chunks/[name]-[hash]' }),
  build({ ...COMMON, entryPoints: ['sample/cli.ts', 'sample/prng.ts'], outdir: 'build/sample' }),
]);
