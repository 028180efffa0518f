// @ts-check
/**
 * Issue 10.1: `oracle history` of the pricing benchmark's hot product, 365 daily points, in
 * process (the service call the command and the API make), against 365 single bundles at the
 * same instants measured alternately in the same process: under 200 ms.
 */
import { fileURLToPath } from 'node:url';
import { DATA_END, hotProductKey } from '../lib/data.js';
import { productCount } from '../lib/db-query.js';
import { nodeFlags } from '../lib/oracle.js';
import { runChecked } from '../lib/proc.js';
import { figure } from '../lib/results.js';
import { describeScale } from '../lib/scales.js';
import { median, percentile, round } from '../lib/stats.js';
import { preparePricing } from './pricing.js';

const PROBE = fileURLToPath(new URL('../children/history-probe.js', import.meta.url));
const POINTS = 365;

/**
 * @param {import('../lib/data.js').BenchContext} ctx
 * @returns {Promise<import('../lib/results.js').BenchResult>}
 */
export async function historyBenchmark(ctx) {
  const { bigDb } = await preparePricing(ctx);
  const hot = productCount(bigDb.db, hotProductKey(bigDb.data));
  const rounds = ctx.scale.history.rounds;
  ctx.log(
    `history of ${hot.productKey} (${hot.count} observations): ${POINTS} daily points x ${rounds} rounds`,
  );
  const args = [
    ...nodeFlags(ctx.profileDir),
    PROBE,
    bigDb.db,
    hot.productKey,
    DATA_END,
    String(POINTS),
    String(rounds),
  ];
  const r = await runChecked(process.execPath, args, { captureStdout: true });
  /** @type {{ historyMs: number[], singlesMs: number[], historyCpuMs: number[], singlesCpuMs: number[], coldMs: number, points: number, priced: number }} */
  const probe = JSON.parse(r.stdout);
  const p50 = median(probe.historyMs);
  const baseP50 = median(probe.singlesMs);
  const baseline = `${POINTS} single bundles (\`oracle.price\`) at the same instants, same process, alternated`;
  return {
    name: 'history',
    title: '7. History',
    scale: describeScale(ctx.scale),
    date: new Date().toISOString(),
    setup: [
      `\`oracle.history\` (the service call of \`oracle history\` and the history route) of \`${hot.productKey}\` (${hot.count.toLocaleString('en-US')} observations, in the pricing benchmark's big database), slots ungraded and psa10, ${POINTS} daily points ending ${DATA_END} (${probe.priced} with an ungraded price), window 24 h; ${probe.historyMs.length} rounds after 3 warm-up rounds, each side once per round. Both sides give the same prices (checked before timing).`,
    ],
    figures: [
      figure({
        figure: `History of ${POINTS} daily points, p50`,
        value: round(p50, 1),
        unit: 'ms',
        baseline,
        baselineValue: round(baseP50, 1),
        ratioDefinition: 'history / singles',
        target: '< 200 ms',
        pass: p50 < 200,
      }),
      figure({
        figure: `History of ${POINTS} daily points, max`,
        value: round(percentile(probe.historyMs, 100), 1),
        unit: 'ms',
        baseline,
        baselineValue: round(percentile(probe.singlesMs, 100), 1),
        ratioDefinition: 'history / singles',
        target: null,
      }),
      figure({
        figure: `History of ${POINTS} daily points, CPU time p50 (user + system)`,
        value: round(median(probe.historyCpuMs), 1),
        unit: 'ms',
        baseline: `${POINTS} single bundles, CPU time p50 of the same rounds`,
        baselineValue: round(median(probe.singlesCpuMs), 1),
        ratioDefinition: 'history / singles',
        target: null,
      }),
      figure({
        figure: 'First history call of the process (cold: nothing compiled yet)',
        value: round(probe.coldMs, 1),
        unit: 'ms',
        baseline: null,
        baselineValue: null,
        ratioDefinition: null,
        target: null,
      }),
    ],
    notes: [],
  };
}
