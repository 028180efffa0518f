// @ts-check
/**
 * Issue 6.2: one full bundle for a product with many observations in a big database, in
 * process, against the same for a small product in a small database: the ratio shows how the
 * cost grows with data. Also checks how many SQL statements a bundle takes (2 by design).
 */
import { fileURLToPath } from 'node:url';
import { DATA_END, hotProductKey, loadedDatabase } from '../lib/data.js';
import { productCount } from '../lib/db-query.js';
import { nodeFlags } from '../lib/oracle.js';
import { runChecked } from '../lib/proc.js';
import { figure } from '../lib/results.js';
import { describeScale } from '../lib/scales.js';
import { median, percentile, round } from '../lib/stats.js';

const PROBE = fileURLToPath(new URL('../children/pricing-probe.js', import.meta.url));

/**
 * @typedef {object} Probe
 * @property {number[]} totalMs
 * @property {number[]} storeMs
 * @property {number} points
 * @property {number} statementsPerBundle
 * @property {number | null} ungradedPriceMinor
 */

/**
 * @param {import('../lib/data.js').BenchContext} ctx
 * @param {string} db
 * @param {string} productKey
 * @returns {Promise<Probe>}
 */
async function probe(ctx, db, productKey) {
  const { iterations, warmup } = ctx.scale.pricing;
  const args = [
    ...nodeFlags(ctx.profileDir),
    PROBE,
    db,
    productKey,
    DATA_END,
    String(iterations),
    String(warmup),
  ];
  const r = await runChecked(process.execPath, args, { captureStdout: true });
  return JSON.parse(r.stdout);
}

/**
 * Makes (or finds) the two databases this benchmark reads; the catalog benchmark reads the big one.
 * @param {import('../lib/data.js').BenchContext} ctx
 */
export async function preparePricing(ctx) {
  const smallDb = await loadedDatabase(ctx, ctx.scale.pricing.small);
  const bigDb = await loadedDatabase(ctx, ctx.scale.pricing.big);
  return { smallDb, bigDb };
}

/**
 * @param {import('../lib/data.js').BenchContext} ctx
 * @returns {Promise<import('../lib/results.js').BenchResult>}
 */
export async function pricingBenchmark(ctx) {
  const { big, small } = ctx.scale.pricing;
  const { smallDb, bigDb } = await preparePricing(ctx);
  const smallHot = productCount(smallDb.db, hotProductKey(smallDb.data));
  const bigHot = productCount(bigDb.db, hotProductKey(bigDb.data));
  ctx.log(
    `pricing ${smallHot.productKey} (${smallHot.count} observations) and ${bigHot.productKey} (${bigHot.count})`,
  );
  const base = await probe(ctx, smallDb.db, smallHot.productKey);
  const ours = await probe(ctx, bigDb.db, bigHot.productKey);

  const p50 = median(ours.totalMs);
  const p99 = percentile(ours.totalMs, 99);
  const baseP50 = median(base.totalMs);
  const baseP99 = percentile(base.totalMs, 99);
  const ratio = p50 / baseP50;
  const notes = [];
  for (const [hot, shape] of /** @type {const} */ ([
    [bigHot, big],
    [smallHot, small],
  ])) {
    if (hot.count !== shape.hot)
      notes.push(
        `\`${hot.productKey}\` has ${hot.count} observations, not the ${shape.hot} asked of the generator.`,
      );
  }
  if (ours.ungradedPriceMinor === null)
    notes.push("The big product's ungraded slot came back unpriced: check the data window.");
  /** @param {import('../lib/scales.js').DataShape} shape @param {typeof bigDb} built @param {typeof bigHot} hot */
  const describe = (shape, built, hot) =>
    `${shape.observations.toLocaleString('en-US')} observations over ${hot.products.toLocaleString('en-US')} products; priced product \`${hot.productKey}\` has ${hot.count.toLocaleString('en-US')} (loaded with \`oracle ingest\`: ${built.reused ? `reused, built earlier in ${built.buildSeconds} s` : `${built.buildSeconds} s, of which the observation ingest ${built.ingestSeconds} s`}).`;
  const baseline = `${small.hot.toLocaleString('en-US')}-observation product in a ${small.observations.toLocaleString('en-US')}-row DB`;
  return {
    name: 'pricing',
    title: '2. Pricing',
    scale: describeScale(ctx.scale),
    date: new Date().toISOString(),
    setup: [
      `Measured: ${describe(big, bigDb, bigHot)}`,
      `Baseline: ${describe(small, smallDb, smallHot)}`,
      `In process with the built pricing (\`createPricing(store).price\`, service/pricing.ts), window 24 h, outlier_stddevs 2, as_of ${DATA_END}; ${ours.totalMs.length} bundles after ${ctx.scale.pricing.warmup} warm-up bundles, per side.`,
    ],
    figures: [
      figure({
        figure: 'Bundle p50',
        value: round(p50, 3),
        unit: 'ms',
        baseline,
        baselineValue: round(baseP50, 3),
        ratio: round(ratio, 2),
        ratioDefinition: 'big p50 / small p50',
        target: 'p50 < 2 ms and ratio < 2',
        pass: p50 < 2 && ratio < 2,
      }),
      figure({
        figure: 'Bundle p99',
        value: round(p99, 3),
        unit: 'ms',
        baseline,
        baselineValue: round(baseP99, 3),
        ratio: round(p99 / baseP99, 2),
        ratioDefinition: 'big p99 / small p99',
        target: null,
      }),
      figure({
        figure: 'Store read p50 (store.pricePoints.read)',
        value: round(median(ours.storeMs), 3),
        unit: 'ms',
        baseline,
        baselineValue: round(median(base.storeMs), 3),
        ratioDefinition: 'big / small',
        target: null,
      }),
      figure({
        figure: 'Points read per bundle',
        value: ours.points,
        unit: 'points',
        baseline,
        baselineValue: base.points,
        ratioDefinition: 'big / small',
        target: null,
      }),
      figure({
        figure: 'SQL statements per bundle',
        value: ours.statementsPerBundle,
        unit: '',
        baseline,
        baselineValue: base.statementsPerBundle,
        ratio: null,
        ratioDefinition: null,
        target: '<= 2 (2 by design)',
        pass: ours.statementsPerBundle <= 2,
      }),
    ],
    notes,
  };
}
