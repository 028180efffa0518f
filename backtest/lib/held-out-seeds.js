// @ts-check
/**
 * `npm run backtest -- --held-out-seeds`: the simulated market on the seeds no constant was
 * tuned on (backtest/corpora/splits.js), judged against issue 31's item-6 targets, each PASS or
 * FAIL per seed; beside the interval's coverage of the latent (true) price, its coverage of the
 * next sale of the cell, which is what a user reads the 80 % interval as.
 */
import { HELD_OUT_SEEDS } from '../corpora/splits.js';
import { lowerBound } from './alternatives.js';
import { runBacktest } from './backtest.js';
import { SOURCE } from './market.js';

/** The issue-9 verdicts (report.js judgeTargets) that are issue 31's item-6 targets, by their text. */
export const ITEM6_TARGETS = [
  "common instants: median error <= 0.9x the best alternative's",
  "common instants: P99 <= the best alternative's",
  'all instants: > 25 % off in at most 5 % (post-jump hours included)',
  'all instants: graded median error <= 12 %',
  'interval coverage >= 65 % in every scenario',
];
const LATENT_OVERALL = 'interval coverage 72-88 % overall';

/**
 * The share of the engine's intervals that hold the cell's next sale (the first sale at or after
 * the instant; quotes are not sales): overall and per scenario. Pairs with no later sale in the
 * simulated period are left out.
 * @param {import('./market.js').Market} market
 * @param {import('./score.js').Scores} scores
 */
export function nextSaleCoverage(market, scores) {
  const { rows, instants } = scores;
  /** @type {Map<string, { held: number, n: number }>} */
  const byScenario = new Map();
  let held = 0;
  let n = 0;
  for (let r = 0; r < rows.length; r++) {
    const low = /** @type {number} */ (rows.low[r]);
    const high = /** @type {number} */ (rows.high[r]);
    if (Number.isNaN(low) || Number.isNaN(high)) continue;
    const product = /** @type {import('./market.js').ProductMarket} */ (
      market.products[/** @type {number} */ (rows.product[r])]
    );
    const series = /** @type {import('./market.js').Series} */ (
      product.cells[/** @type {number} */ (rows.cell[r])]
    );
    let i = lowerBound(series.t, /** @type {number} */ (instants[/** @type {number} */ (rows.instant[r])]));
    while (i < series.t.length && series.source[i] !== SOURCE.sale) i++;
    if (i >= series.t.length) continue;
    const sale = /** @type {number} */ (series.price[i]);
    const hit = low <= sale && sale <= high ? 1 : 0;
    held += hit;
    n++;
    const s = byScenario.get(product.plan.scenario) ?? { held: 0, n: 0 };
    s.held += hit;
    s.n++;
    byScenario.set(product.plan.scenario, s);
  }
  const pct = (/** @type {{ held: number, n: number }} */ c) => (c.n === 0 ? null : (100 * c.held) / c.n);
  return {
    overall: pct({ held, n }),
    n,
    scenarios: [...byScenario].map(([id, c]) => ({ id, value: pct(c), n: c.n })),
  };
}

/**
 * Runs every held-out seed at `scale` and renders the verdicts as Markdown.
 * @param {{ scale: 'small' | 'full', log: (line: string) => void }} options
 */
export async function runHeldOutSeeds({ scale, log }) {
  /** @type {{ seed: string, verdicts: { target: string, value: string, pass: boolean | null }[], latent: string, nextSale: ReturnType<typeof nextSaleCoverage> }[]} */
  const seeds = [];
  for (const seed of HELD_OUT_SEEDS) {
    log(`seed ${seed} (${scale} scale)`);
    const { market, scores, summary } = await runBacktest({ seed, scale, scenario: null, log });
    const verdicts = ITEM6_TARGETS.map(
      (target) =>
        summary.targets.find((t) => t.target === target) ?? {
          target,
          value: 'n/a',
          pass: /** @type {boolean | null} */ (null),
        },
    );
    const latent = summary.targets.find((t) => t.target === LATENT_OVERALL)?.value ?? 'n/a';
    seeds.push({ seed, verdicts, latent, nextSale: nextSaleCoverage(market, scores) });
  }
  const verdict = (/** @type {boolean | null} */ pass) => (pass === null ? 'n/a' : pass ? 'PASS' : 'FAIL');
  const pct = (/** @type {number | null} */ v) => (v === null ? 'n/a' : `${v.toFixed(1)} %`);
  const lowest = (/** @type {{ id: string, value: number | null }[]} */ list) =>
    list.reduce((a, b) => ((b.value ?? Infinity) < (a.value ?? Infinity) ? b : a), { id: '', value: null });
  const markdown = [
    `Held-out seeds ${HELD_OUT_SEEDS.join(', ')} (never tuned on; backtest/corpora/splits.js), ${scale} scale: issue 31's item-6 targets.`,
    '',
    `| target | ${seeds.map((s) => `seed ${s.seed}`).join(' | ')} |`,
    `|---|${seeds.map(() => '---|').join('')}`,
    ...ITEM6_TARGETS.map(
      (target, i) =>
        `| ${target} | ${seeds.map((s) => `${s.verdicts[i]?.value ?? 'n/a'}: **${verdict(s.verdicts[i]?.pass ?? null)}**`).join(' | ')} |`,
    ),
    `| 80 % interval: coverage of the latent price, overall | ${seeds.map((s) => s.latent).join(' | ')} |`,
    `| 80 % interval: coverage of the cell's next sale, overall | ${seeds.map((s) => `${pct(s.nextSale.overall)} (${s.nextSale.n} pairs)`).join(' | ')} |`,
    `| 80 % interval: coverage of the next sale, lowest scenario | ${seeds
      .map((s) => {
        const low = lowest(s.nextSale.scenarios);
        return `${pct(low.value)} (${low.id})`;
      })
      .join(' | ')} |`,
    '',
  ].join('\n');
  return { seeds, markdown };
}
