// @ts-check
/**
 * One backtest run: build the seeded market, load it into a fresh SQLite file through the
 * ingest pipeline (running the operator's preparation, the calibration hook, at the end of the
 * warm-up), score every method on the same instants, and gather the results. run.js is its command line; the tests call it.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMarket } from './load.js';
import { buildMarket, marketCounts, withoutQuotes } from './market.js';
import { QUOTE_EVIDENCE_SCENARIOS } from './model.js';
import { prepareStore } from './prepare.js';
import { aggregate, judgeTargets, jumpResults, quoteEvidence, renderMarkdown, worstPairs } from './report.js';
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
  /** The quote-evidence scenarios' products scored again on their sales alone (report.js quoteEvidence). */
  let salesOnly = null;
  try {
    // loadMarket closes the store itself when it fails.
    const loaded = await loadMarket(market, dir, prepareStore);
    prepared = loaded.prepared;
    try {
      lap('load');
      log(
        `loaded into ${join(dir, 'backtest.db')}${prepared.steps.length === 0 ? '' : `, prepared: ${prepared.steps.join('; ')}`}`,
      );
      scores = await scoreMarket(market, loaded.store, { log });
      lap('score');
    } finally {
      await loaded.store.close();
    }
    const quoted = QUOTE_EVIDENCE_SCENARIOS.filter((name) =>
      market.products.some((p) => p.plan.scenario === name),
    );
    if (quoted.length > 0) {
      // The whole market again, those products without their quotes: the calibration sees what it saw.
      const stripped = withoutQuotes(market, quoted);
      const salesDir = join(dir, 'sales-only');
      mkdirSync(salesDir);
      const again = await loadMarket(stripped, salesDir, prepareStore);
      try {
        const products = {
          ...stripped,
          products: stripped.products.filter((p) => quoted.includes(p.plan.scenario)),
        };
        salesOnly = {
          market: products,
          scores: await scoreMarket(products, again.store, { followJumps: false }),
        };
        lap('sales-only');
        log(`scored ${products.products.length} products of ${quoted.join(', ')} again on their sales alone`);
      } finally {
        await again.store.close();
      }
    }
  } finally {
    if (options.workDir === undefined) rmSync(dir, { recursive: true, force: true });
  }
  const results = aggregate(market, scores);
  const jumps = jumpResults(scores);
  const targets = judgeTargets(results, scores);
  const quotes = salesOnly === null ? [] : quoteEvidence(market, scores, salesOnly.market, salesOnly.scores);
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
    basisFrom: scores.basisFrom,
    quotes,
    jumps,
    sealedGraded: scores.sealedGraded,
  };
  return {
    market,
    scores,
    summary,
    markdown: renderMarkdown(summary),
    worst: worstPairs(market, scores, WORST_PAIRS),
  };
}
