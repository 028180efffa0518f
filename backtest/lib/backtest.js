// @ts-check
/**
 * One backtest run: build the seeded market, load it into a fresh SQLite file through the
 * ingest pipeline (running the operator's preparation, the calibration hook, at the end of the
 * warm-up), score every method on the same instants, and gather the results. run.js is its command line; the tests call it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMarket } from './load.js';
import { buildMarket, marketCounts } from './market.js';
import { prepareStore } from './prepare.js';
import { aggregate, judgeTargets, jumpResults, renderMarkdown, worstPairs } from './report.js';
import { scoreMarket } from './score.js';

/** How many of the engine's worst-priced pairs a run lists (run.js writes them to worst.csv). */
const WORST_PAIRS = 500;

/**
 * @typedef {object} BacktestOptions
 * @property {string} seed
 * @property {'small' | 'full'} scale
 * @property {string | null} scenario run only the products of these scenarios (names, comma-separated)
 * @property {(line: string) => void} [log]
 * @property {string} [workDir] where the CSVs and the database go (default: a fresh temporary directory, removed after)
 */

/** @param {BacktestOptions} options */
export async function runBacktest(options) {
  const log = options.log ?? (() => {});
  /** @type {Record<string, number>} */
  const seconds = {};
  let mark = performance.now();
  const lap = (/** @type {string} */ name) => {
    const now = performance.now();
    seconds[name] = (now - mark) / 1000;
    mark = now;
  };

  const market = buildMarket(options.seed, options.scale, options.scenario);
  const counts = marketCounts(market);
  lap('market');
  log(`market: ${counts.products} products, ${counts.sales} sales, ${counts.quotes} quotes`);

  const dir = options.workDir ?? mkdtempSync(join(tmpdir(), 'oracle-backtest-'));
  let scores;
  let prepared;
  try {
    // loadMarket closes the store itself when it fails.
    const loaded = await loadMarket(market, dir, prepareStore);
    prepared = loaded.prepared;
    try {
      lap('load');
      log(`loaded into ${join(dir, 'backtest.db')}${prepared.steps.length === 0 ? '' : `, prepared: ${prepared.steps.join('; ')}`}`);
      scores = await scoreMarket(market, loaded.store, { log });
      lap('score');
    } finally {
      await loaded.store.close();
    }
  } finally {
    if (options.workDir === undefined) rmSync(dir, { recursive: true, force: true });
  }
  const results = aggregate(market, scores);
  const jumps = jumpResults(scores);
  const targets = judgeTargets(results, scores);
  lap('report');
  const summary = {
    seed: options.seed,
    scale: options.scale,
    scenario: options.scenario,
    counts,
    instants: scores.instants.length,
    bundles: scores.bundles,
    prepared: prepared.steps,
    seconds,
    targets,
    results,
    jumps,
    sealedGraded: scores.sealedGraded,
  };
  return { market, scores, summary, markdown: renderMarkdown(summary), worst: worstPairs(market, scores, WORST_PAIRS) };
}
