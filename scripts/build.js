#!/usr/bin/env node
// The build: esbuild bundles src/, one layout for everything that runs.
//
// dist/ (published): the CLI as one CommonJS file, dist/cli/main.js, and the ingest's worker
// thread, dist/ingest/parse-worker.js, bundled on its own (a worker shares no module
// instances with the main thread). CommonJS because Node.js 20 starts a CommonJS program
// faster than an ES module graph, and because only a classic script can be compiled from
// V8's code cache: after the bundle, scripts/warm-code-cache.js runs the CLI once over a few
// commands and saves what V8 compiled beside the bundle, which bin/oracle.js hands back to
// V8, so a start does not compile the CLI again (docs/benchmarks.md, "Build layout"). The
// commands a run does not use stay lazy inside the bundle (esbuild wraps what src/ imports
// with `await import()` in functions run on first use).
//
// build/ (not published): the same sources as ES modules with more entry points for the code
// that runs built modules in process (bench/, backtest/, tests): their modules keep their
// paths (build/store/store.js for src/store/store.ts), shared code goes to build/chunks/ so
// that a module imported by two entry points is one instance. Also the sample generator
// (sample/, a tool) in build/sample/ for scripts/generate-sample-data.js and the backtest.
//
// Every output file is two levels below the package root, as the sources are, so the paths
// modules build from import.meta.url (../../drizzle, ../../package.json,
// ../ingest/parse-worker.js) hold in the sources, dist/ and build/ alike. Type checking is
// `npm run typecheck`; tsc emits nothing.
import { build } from 'esbuild';
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { COMMON, ESM_REQUIRE_BANNER, ROOT } from './build-options.js';
import { warmCodeCache } from './warm-code-cache.js';

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

/**
 * dist/: CommonJS. `import()` of a package becomes a require() on first use (a script compiled
 * through node:vm has no ES module loader to import with), and import.meta.url the bundle's
 * own file URL. The first line names the build, and with it the code cache made for it.
 * @param {string} buildId
 * @returns {import('esbuild').BuildOptions}
 */
const product = (buildId) => ({
  ...COMMON,
  format: 'cjs',
  supported: { 'dynamic-import': false },
  define: { 'import.meta.url': '__import_meta_url' },
  banner: { js: `/* oracle build ${buildId} */\nconst __import_meta_url = require('node:url').pathToFileURL(__filename).href;` },
});

/** @type {import('esbuild').BuildOptions} */
const TOOLS = {
  ...COMMON,
  format: 'esm',
  splitting: true,
  banner: { js: ESM_REQUIRE_BANNER },
};

/** @param {readonly string[]} paths under src/, without the extension */
const entries = (paths) => Object.fromEntries(paths.map((path) => [path, `src/${path}.ts`]));

const buildId = randomUUID();
rmSync(`${ROOT}/dist`, { recursive: true, force: true });
rmSync(`${ROOT}/build`, { recursive: true, force: true });
await Promise.all([
  build({ ...product(buildId), entryPoints: entries(['cli/main', 'ingest/parse-worker']), outdir: 'dist' }),
  build({ ...TOOLS, entryPoints: entries(TOOL_ENTRY_POINTS), outdir: 'build', chunkNames: 'chunks/[name]-[hash]' }),
  build({ ...COMMON, format: 'esm', splitting: true, entryPoints: ['sample/cli.ts', 'sample/prng.ts'], outdir: 'build/sample' }),
]);
// The package is "type": "module"; these files are CommonJS.
writeFileSync(`${ROOT}/dist/package.json`, '{ "type": "commonjs" }\n');
warmCodeCache();
