#!/usr/bin/env node
// @ts-check
/**
 * `npm run backtest [-- --seed <n>] [--scale small|full] [--scenario <name,...>] [--out <dir>] [--keep-db <dir>] [--no-docs]`
 * `npm run backtest -- --real-sales <file or directory> [--out <dir>]`
 *
 * Scores the BUILT engine (build/, through the service `oracle price` calls) against four simple
 * alternatives on a seeded simulated market with a known true price (docs/backtest.md). Prints
 * the results; `--out` writes results.json (and results.md) there; the default run (seed 1, full
 * scale, every scenario) also rewrites the results section of docs/backtest.md. `--real-sales`
 * scores the engine and the alternatives on real sold listings instead (lib/real-sales.js).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
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
  --real-sales <file or directory>
              score on real sold listings instead of the simulated market: PSA Auction Prices
              Realized files as tostenzel/psa-prizes saves them (docs/backtest.md); prints the
              tables, and with --out writes real-sales.json there`;

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
  const real = await import('./lib/real-sales.js');
  let data;
  try {
    data = real.readSales(real.salesFiles(values['real-sales']));
  } catch (error) {
    usage(error instanceof Error ? error.message : String(error));
  }
  const sales = /** @type {import('./lib/real-sales.js').RealSales} */ (data);
  log(`read ${sales.files.length} files, ${sales.kept} sales kept`);
  const dir = values['keep-db'] ?? mkdtempSync(join(tmpdir(), 'oracle-backtest-real-'));
  try {
    const scored = await real.scoreSales(sales, dir);
    const summary = real.summarizeSales(scored.sales);
    console.log(real.renderSales(sales, scored, summary));
    if (values.out) {
      mkdirSync(values.out, { recursive: true });
      writeFileSync(
        join(values.out, 'real-sales.json'),
        `${JSON.stringify({ files: sales.files, kept: sales.kept, skipped: sales.skipped, firstOfCard: scored.firstOfCard, ...summary }, null, 2)}\n`,
      );
      writeFileSync(join(values.out, 'real-sales-residuals.csv'), real.residualsCsv(scored.sales));
      log(`wrote real-sales.json and real-sales-residuals.csv into ${values.out}`);
    }
  } finally {
    if (values['keep-db'] === undefined) rmSync(dir, { recursive: true, force: true });
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
