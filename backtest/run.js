#!/usr/bin/env node
// @ts-check
/**
 * `npm run backtest [-- --seed <n>] [--scale small|full] [--scenario <name,...>] [--out <dir>] [--keep-db <dir>] [--no-docs]`
 * `npm run backtest -- --real-sales <dir> [--corpus <name,...>] [--calibrate] [--out <dir>] [--residuals <file>]`
 * `npm run backtest -- --held-out-seeds [--scale small|full] [--out <dir>]`
 *
 * Scores the BUILT engine (build/, through the service `oracle price` calls) against four simple
 * alternatives on a seeded simulated market with a known true price (docs/backtest.md). Prints
 * the results; `--out` writes results.json (and results.md) there; the default run (seed 1, full
 * scale, every scenario) also rewrites the results section of docs/backtest.md. `--real-sales`
 * scores the engine and the collectors' methods walk-forward on real corpora instead
 * (lib/real-sales.js); `--held-out-seeds` checks issue 31's targets on seeds never tuned on.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { HELD_OUT_SEEDS, TUNING_SEEDS } from './corpora/splits.js';
import { SCENARIOS, scenarioByName } from './lib/model.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOC = join(ROOT, 'docs', 'backtest.md');
const DEFAULT_SEED = '1';

const USAGE = `usage: npm run backtest -- [--seed <n>] [--scale small|full] [--scenario <name,...>] [--out <dir>] [--keep-db <dir>] [--no-docs]
  --seed      seed of the simulated market (default ${DEFAULT_SEED})
  --scale     full (default: ~340 products) or small (a few products per scenario, seconds)
  --scenario  run only these scenarios (comma-separated): ${SCENARIOS.map((s) => s.name).join(', ')}
  --out       write results.json, results.md and worst.csv (the engine's 500 worst-priced
              (instant, cell) pairs, every method beside the truth) into this directory
  --keep-db   keep the market's CSVs and SQLite database in this directory (it must not exist),
              to look at a price with \`oracle --db <dir>/backtest.db price <key> --at <instant>\`
  --no-docs   do not rewrite docs/backtest.md (it is rewritten only by the default run:
              seed ${DEFAULT_SEED}, full scale, every scenario)
  --real-sales <dir>
              score walk-forward on real corpora instead of the simulated market: <dir> is a
              corpus (corpus.json, catalog.csv, observations.csv, as backtest/corpora/convert.js
              writes them) or a directory of corpora; prints per corpus the fit and held-out
              tables (backtest/corpora/splits.js), and with --out writes real-sales.json there
  --corpus    with --real-sales: score only these corpora (comma-separated names)
  --calibrate with --real-sales: run \`oracle calibrate\` on each corpus's fit span before
              scoring (a corpus held out whole is not calibrated)
  --residuals <file>
              with --real-sales: write one JSON line per scored point (our price, interval,
              basis, points and age of the newest, the realised price, the other methods)
  --held-out-seeds
              run the simulated market on the held-out seeds (${HELD_OUT_SEEDS.join(', ')}; tuning seeds:
              ${TUNING_SEEDS.join(', ')}) and print issue 31's targets PASS / FAIL per seed`;

/** @param {string} message */
const usage = (message) => {
  console.error(`backtest: ${message}\n${USAGE}`);
  return process.exit(2);
};
/** The flags; an unknown or malformed one is a usage error (node:util's message names it). */
function parseOptions() {
  try {
    return parseArgs({
      options: {
        seed: { type: 'string', default: DEFAULT_SEED },
        scale: { type: 'string', default: 'full' },
        scenario: { type: 'string' },
        out: { type: 'string' },
        'keep-db': { type: 'string' },
        'no-docs': { type: 'boolean', default: false },
        'real-sales': { type: 'string' },
        corpus: { type: 'string' },
        residuals: { type: 'string' },
        'held-out-seeds': { type: 'boolean', default: false },
        calibrate: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    return usage(error instanceof Error ? error.message : String(error));
  }
}
const { values } = parseOptions();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (values.scale !== 'small' && values.scale !== 'full')
  usage(`unknown scale ${JSON.stringify(values.scale)}`);
const unknown = (values.scenario?.split(',') ?? []).filter((name) => scenarioByName(name) === null);
if (unknown.length > 0) usage(`unknown scenario ${unknown.map((name) => JSON.stringify(name)).join(', ')}`);
if (!/^\d+$/.test(values.seed)) usage(`--seed must be a whole number (got ${JSON.stringify(values.seed)})`);
if (values['keep-db'] !== undefined && existsSync(values['keep-db']))
  usage(`--keep-db ${values['keep-db']} exists: name a new directory`);
if (!existsSync(join(ROOT, 'build', 'service', 'pricing.js')))
  usage('build/ is missing: run `npm run build` first (`npm run backtest` does)');

const started = performance.now();
const log = (/** @type {string} */ line) =>
  console.error(`[backtest ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

if (values['real-sales'] !== undefined) {
  const { runRealSales, UsageError } = await import('./lib/real-sales.js');
  try {
    await runRealSales({
      path: values['real-sales'],
      corpora: values.corpus?.split(',') ?? null,
      out: values.out ?? null,
      residuals: values.residuals ?? null,
      keepDb: values['keep-db'] ?? null,
      calibrate: values.calibrate,
      log,
    });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    usage(error.message);
  }
  process.exit(0);
}

if (values['held-out-seeds']) {
  const { runHeldOutSeeds } = await import('./lib/held-out-seeds.js');
  const { seeds, markdown } = await runHeldOutSeeds({
    scale: /** @type {'small' | 'full'} */ (values.scale),
    log,
  });
  console.log(markdown);
  if (values.out) {
    mkdirSync(values.out, { recursive: true });
    writeFileSync(join(values.out, 'held-out-seeds.json'), `${JSON.stringify(seeds, null, 2)}\n`);
    log(`wrote held-out-seeds.json into ${values.out}`);
  }
  process.exit(0);
}

// Loaded after the checks: it imports the built product.
const { runBacktest } = await import('./lib/backtest.js');
const scale = /** @type {'small' | 'full'} */ (values.scale);
const keepDb = values['keep-db'];
if (keepDb !== undefined) mkdirSync(keepDb, { recursive: true });
const { summary, markdown, worst } = await runBacktest({
  seed: values.seed,
  scale,
  scenario: values.scenario ?? null,
  log,
  ...(keepDb === undefined ? {} : { workDir: keepDb }),
});

console.log(markdown);
if (values.out) {
  mkdirSync(values.out, { recursive: true });
  writeFileSync(join(values.out, 'results.json'), `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(join(values.out, 'results.md'), markdown);
  const columns = Object.keys(worst[0] ?? {});
  const csv = [columns.join(','), ...worst.map((w) => columns.map((c) => w[c] ?? '').join(','))];
  writeFileSync(join(values.out, 'worst.csv'), `${csv.join('\n')}\n`);
  log(`wrote results.json, results.md and worst.csv into ${values.out}`);
}
const canonical = values.seed === DEFAULT_SEED && scale === 'full' && values.scenario === undefined;
if (canonical && !values['no-docs']) {
  const { replaceResults } = await import('./lib/report.js');
  writeFileSync(DOC, replaceResults(readFileSync(DOC, 'utf8'), markdown));
  log(`rewrote the results section of ${DOC}`);
}
