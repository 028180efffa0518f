#!/usr/bin/env node
// The build: esbuild bundles src/, one layout for everything that runs.
//
// dist/ (published): the CLI as one CommonJS file, dist/cli/main.js, and the ingest's worker
// thread, dist/ingest/parallel-worker.js (src/ingest/parallel-worker.ts), bundled on its own (a worker shares no module
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
// paths (build/store/open-store.js for src/store/open-store.ts), shared code goes to
// build/chunks/ so that a module imported by two entry points is one instance. Also the sample generator
// (sample/, a tool) in build/sample/ for scripts/generate-sample-data.js and the backtest.
//
// The code of every module that builds a path from import.meta.url (../../drizzle,
// ../../package.json, ../ingest/parallel-worker.js) runs from a file two levels below the package
// root: dist/cli/main.js, build/chunks/ (shared code), and the parse worker,
// dist/ingest/parallel-worker.js. The paths to the package
// root then hold in the sources, dist/ and build/ alike. Type checking is `npm run typecheck`;
// tsc emits nothing.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { COMMON, ESM_CHUNKS, ROOT } from './build-options.js';
import { warmCodeCache } from './warm-code-cache.js';

/** The modules bench/, backtest/ and tests import from build/, by path under src/ without the extension. */
const TOOL_ENTRY_POINTS = [
  'cli/main',
  'store/open-store',
  'service/pricing',
  'service/calibration',
  'service/market-index',
  'domain/csv',
  'domain/history',
  'domain/time',
  'engine/stats',
  'engine/methodology',
  'ingest/pipeline',
  'ingest/write/rejects-writer',
  'ingest/parallel-reader',
  // The feed format registry, which test/fixtures/oracle-with-buggy-format.js adds a format to
  // before it runs the CLI of the same build.
  'ingest/formats/index',
];

/**
 * The parse worker, an entry point of both builds: where the parallel reader looks for it
 * (src/ingest/parallel-reader.ts), two levels below the package root as the store's
 * migrations directory, which it resolves from its own file, requires.
 */
const PARSE_WORKER = { 'ingest/parallel-worker': 'src/ingest/parallel-worker.ts' };

/** Stands for the build id in the bundles' first line until their contents are known. */
const ID_PLACEHOLDER = '0'.repeat(64);

/**
 * dist/: CommonJS, strict as the ES module sources are. `import()` of a package becomes a
 * require() on first use (a script compiled through node:vm has no ES module loader to import
 * with), and import.meta.url the bundle's own file URL. The first line names the build, and
 * with it the code cache made for it.
 * @type {import('esbuild').BuildOptions}
 */
const PRODUCT = {
  ...COMMON,
  format: 'cjs',
  supported: { 'dynamic-import': false },
  define: { 'import.meta.url': '__import_meta_url' },
  banner: {
    js: `/* oracle build ${ID_PLACEHOLDER} */\n'use strict';\nconst __import_meta_url = require('node:url').pathToFileURL(__filename).href;`,
  },
  write: false,
};

/**
 * Writes esbuild's output files, each script's build id being the SHA-256 of its contents (the
 * same length as the placeholder, so the source map still holds): the same sources give the
 * same files, and a changed bundle another id.
 * @param {import('esbuild').OutputFile[]} files
 */
function writeWithBuildIds(files) {
  for (const file of files) {
    mkdirSync(dirname(file.path), { recursive: true });
    if (!file.path.endsWith('.js')) {
      writeFileSync(file.path, file.contents);
      continue;
    }
    const text = asciiText(file);
    const id = createHash('sha256').update(text).digest('hex');
    writeFileSync(file.path, text.replace(ID_PLACEHOLDER, id));
  }
}

/**
 * A bundle in ASCII, which bin/compile-cli.js reads as latin1: one byte a character, copied into
 * a one-byte string, where reading it as UTF-8 decodes and validates every byte at every start
 * (bench/findings.md, 10a). esbuild escapes other characters in strings and identifiers but
 * leaves them in comments and regular expression literals, where a \\u escape stands for the
 * same character; this writes those as escapes. A character beyond the Basic Multilingual Plane
 * would need a surrogate pair, which means something else in a `u` regular expression: the
 * build says where one slipped in, for the source to write it as an escape.
 * @param {import('esbuild').OutputFile} file
 * @returns {string}
 */
function asciiText(file) {
  const astral = file.text.search(/[\u{10000}-\u{10ffff}]/u);
  if (astral !== -1) {
    const line = file.text.slice(0, astral).split('\n').length;
    throw new Error(
      `${file.path}:${line}: ${JSON.stringify(file.text.slice(Math.max(0, astral - 40), astral + 10))} holds a character beyond the Basic Multilingual Plane: write it as a \\u escape in the source`,
    );
  }
  return file.text.replace(/[^\u0000-\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** @param {readonly string[]} paths under src/, without the extension */
const entries = (paths) => Object.fromEntries(paths.map((path) => [path, `src/${path}.ts`]));

rmSync(`${ROOT}/dist`, { recursive: true, force: true });
rmSync(`${ROOT}/build`, { recursive: true, force: true });
await Promise.all([
  build({ ...PRODUCT, entryPoints: { ...entries(['cli/main']), ...PARSE_WORKER }, outdir: 'dist' }).then(
    ({ outputFiles }) => writeWithBuildIds(outputFiles),
  ),
  build({ ...ESM_CHUNKS, entryPoints: { ...entries(TOOL_ENTRY_POINTS), ...PARSE_WORKER }, outdir: 'build' }),
  build({ ...ESM_CHUNKS, entryPoints: ['sample/cli.ts', 'sample/prng.ts'], outdir: 'build/sample' }),
]);
// The package is "type": "module"; these files are CommonJS.
writeFileSync(`${ROOT}/dist/package.json`, '{ "type": "commonjs" }\n');
warmCodeCache();
