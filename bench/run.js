#!/usr/bin/env node
// @ts-check
/**
 * `npm run bench [-- --scale quick|full] [--only name,...] [--fresh] [--profile]`
 *
 * Measures the BUILT product (bin/ and dist/; in process, the same sources bundled in build/)
 * against baselines measured in the same run and writes bench/results.md and
 * bench/results.json. Never part of `npm test`.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { apiBenchmark } from './benchmarks/api.js';
import { catalogBenchmark } from './benchmarks/catalog.js';
import { cliStartBenchmark } from './benchmarks/cli-start.js';
import { dbsizeBenchmark } from './benchmarks/dbsize.js';
import { exportBenchmark } from './benchmarks/export.js';
import { historyBenchmark } from './benchmarks/history.js';
import { ingestBenchmark, prepareIngest } from './benchmarks/ingest.js';
import { loadBenchmark } from './benchmarks/load.js';
import { memoryBenchmark, prepareMemory } from './benchmarks/memory.js';
import { catalogMemoryBenchmark } from './benchmarks/catalog-memory.js';
import { productsMemoryBenchmark } from './benchmarks/products-memory.js';
import { postgresBenchmark, preparePostgres } from './benchmarks/postgres.js';
import { preparePricing, pricingBenchmark } from './benchmarks/pricing.js';
import { searchBenchmark } from './benchmarks/search.js';
import { sampleDatabase } from './lib/data.js';
import { describeMachine } from './lib/machine.js';
import { summarizeProfiles } from './lib/profile.js';
import { RESULTS_MD, writeResults } from './lib/results.js';
import { describeScale, SCALES } from './lib/scales.js';
import { ROOT, WORK_DIR } from './lib/workspace.js';

/** @typedef {import('./lib/data.js').BenchContext} BenchContext */
/**
 * Each benchmark, and what makes its data (for --prepare).
 * @type {Record<string, { run: (ctx: BenchContext) => Promise<import('./lib/results.js').BenchResult>, prepare: (ctx: BenchContext) => Promise<unknown> }>}
 */
const BENCHMARKS = {
  ingest: { run: ingestBenchmark, prepare: prepareIngest },
  pricing: { run: pricingBenchmark, prepare: preparePricing },
  api: { run: apiBenchmark, prepare: sampleDatabase },
  'cli-start': { run: cliStartBenchmark, prepare: sampleDatabase },
  catalog: { run: catalogBenchmark, prepare: preparePricing },
  memory: { run: memoryBenchmark, prepare: prepareMemory },
  'catalog-memory': { run: catalogMemoryBenchmark, prepare: async () => undefined },
  'products-memory': { run: productsMemoryBenchmark, prepare: async () => undefined },
  history: { run: historyBenchmark, prepare: preparePricing },
  export: { run: exportBenchmark, prepare: preparePricing },
  postgres: { run: postgresBenchmark, prepare: preparePostgres },
  dbsize: { run: dbsizeBenchmark, prepare: prepareIngest },
  load: { run: loadBenchmark, prepare: preparePricing },
  search: { run: searchBenchmark, prepare: async () => undefined },
};

const USAGE = `usage: npm run bench -- [--scale quick|full|smoke] [--only ${Object.keys(BENCHMARKS).join(',')}] [--fresh] [--profile] [--prepare]
  --scale    quick (default: about a tenth of issue 6's sizes), full (issue 6's sizes),
             or smoke (seconds; checks the harness runs, figures not meaningful)
  --only     run only these benchmarks (comma-separated); the others keep their last results
  --fresh    rebuild generated data and databases in bench/.work/ even when reusable
  --profile  run the product's processes with --cpu-prof and print where the time goes
  --prepare  only make the data and databases (e.g. the full scale's, ahead of a quiet moment)`;

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: 'quick' },
    only: { type: 'string' },
    fresh: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    prepare: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const scale =
  values.scale === 'smoke' || values.scale === 'quick' || values.scale === 'full'
    ? SCALES[values.scale]
    : null;
const names = values.only ? values.only.split(',').map((n) => n.trim()) : Object.keys(BENCHMARKS);
const unknown = names.filter((n) => !(n in BENCHMARKS));
if (!scale || unknown.length > 0) {
  console.error(scale ? `unknown benchmark: ${unknown.join(', ')}` : `unknown scale: ${values.scale}`);
  console.error(USAGE);
  process.exit(2);
}
if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
  console.error('dist/ is missing: run `npm run build` first (`npm run bench` does).');
  process.exit(2);
}

const started = performance.now();
/** @param {string} line */
const log = (line) =>
  console.error(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const profileDir = values.profile
  ? join(WORK_DIR, 'profiles', new Date().toISOString().replace(/[:.]/g, '-'))
  : null;
if (profileDir) mkdirSync(profileDir, { recursive: true });
const ctx = { scale, fresh: values.fresh, profileDir, log };
const machine = describeMachine();
log(
  `scale ${describeScale(scale)}; ${machine.nproc} cores, node ${machine.node}, sqlite3 ${machine.sqlite3 ?? 'missing'}`,
);

if (values.prepare) {
  for (const name of names) {
    log(`preparing ${name} ...`);
    await /** @type {(typeof BENCHMARKS)[string]} */ (BENCHMARKS[name]).prepare(ctx);
  }
  log('data ready');
  process.exit(0);
}

/** @type {import('./lib/results.js').BenchResult[]} */
const results = [];
// A missed target is a result (results.md says FAIL); only a benchmark that could not run fails the command.
let failed = false;
for (const name of names) {
  const bench = /** @type {(typeof BENCHMARKS)[string]} */ (BENCHMARKS[name]);
  log(`${name} ...`);
  try {
    const result = await bench.run(ctx);
    results.push(result);
    for (const f of result.figures) {
      const ratio = f.ratio === null ? '' : `  ratio ${f.ratio}`;
      const verdict = f.pass === null ? '' : f.pass ? '  PASS' : '  FAIL';
      log(
        `  ${f.figure}: ${f.value} ${f.unit}${f.baselineValue === null ? '' : ` (baseline ${f.baselineValue} ${f.unit})`}${ratio}${verdict}`,
      );
    }
  } catch (error) {
    failed = true;
    const message = error instanceof Error ? error.message : String(error);
    log(`  ${name} could not run: ${message}`);
    results.push({
      name,
      title: name,
      scale: describeScale(scale),
      date: new Date().toISOString(),
      setup: [],
      figures: [],
      notes: [`Could not run: ${message.split('\n')[0]}`],
    });
  }
}
writeResults(machine, results);
log(`wrote ${RESULTS_MD} and results.json`);
if (profileDir) {
  const summary = summarizeProfiles(profileDir);
  writeFileSync(join(profileDir, 'summary.txt'), summary);
  console.error(summary);
  log(`CPU profiles in ${profileDir} (open them in Chrome DevTools; summary.txt has the top functions)`);
}
process.exitCode = failed ? 1 : 0;
