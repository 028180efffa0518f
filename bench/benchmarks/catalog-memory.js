// @ts-check
/**
 * Issue 24.8: peak RSS of `oracle ingest` of a catalog stays flat as the catalog grows (it grew
 * about 2 KB a product while a whole batch of catalog records was held before writing). The
 * same command on a catalog of `small` products is the baseline; the ratio shows the growth.
 * The same command on half the big catalog shows whether memory still grows at that size (V8's
 * heap reaches its working size some way past the small catalog: bench/findings.md, 6b), and the
 * big catalog ingested again (every product stored) what a daily re-run costs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { oracle } from '../lib/oracle.js';
import { figure } from '../lib/results.js';
import { describeScale } from '../lib/scales.js';
import { round } from '../lib/stats.js';
import { removeDatabase, scratchDir } from '../lib/workspace.js';

/**
 * Peak RSS ratios under this count as flat: runs of one size differ by about 2 MiB in 95
 * (bench/findings.md, 6b).
 */
const FLAT_RATIO = 1.05;

/**
 * A canonical catalog CSV of `n` products, each with a refsource id, set, subtitle and era
 * (the search benchmark's catalog too).
 * @param {string} path
 * @param {number} n
 */
export function catalogCsv(path, n) {
  const lines = ['product_key,refsource_id,product_name,set_name,subtitle,era,release_date'];
  for (let i = 0; i < n; i += 1)
    lines.push(
      `card-${i},${100_000 + i},Card Name Number ${i},Some Set ${i % 300},${i}/999,modern,2020-01-01`,
    );
  writeFileSync(path, `${lines.join('\n')}\n`);
}

/**
 * Peak RSS and wall time of `oracle ingest` of a catalog of `n` products into a fresh database
 * and, with `again`, of the same file once more into that database (every product stored: the
 * daily re-run of a cron job).
 * @param {string} dir
 * @param {number} n
 * @param {import('../lib/data.js').BenchContext} ctx
 * @param {boolean} [again]
 */
async function peakMib(dir, n, ctx, again = false) {
  const csv = join(dir, `catalog-${n}.csv`);
  const db = join(dir, `catalog-${n}.db`);
  catalogCsv(csv, n);
  removeDatabase(db);
  const ingest = async () => {
    const r = await oracle(db, ['ingest', csv], { measureRss: true, profileDir: ctx.profileDir });
    if (r.code !== 0) throw new Error(`oracle ingest exited ${r.code}: ${r.stderr.trim().slice(0, 500)}`);
    return { mib: (r.peakRssKb ?? 0) / 1024, ms: r.wallMs };
  };
  const first = await ingest();
  const rerun = again ? await ingest() : null;
  removeDatabase(db);
  return { ...first, rerun };
}

/**
 * @param {import('../lib/data.js').BenchContext} ctx
 * @returns {Promise<import('../lib/results.js').BenchResult>}
 */
export async function catalogMemoryBenchmark(ctx) {
  const { small, big } = ctx.scale.catalogMemory;
  const dir = scratchDir('catalog-memory');
  const base = await peakMib(dir, small, ctx);
  const half = await peakMib(dir, Math.round(big / 2), ctx);
  const ours = await peakMib(dir, big, ctx, true);
  const rerun = /** @type {{ mib: number, ms: number }} */ (ours.rerun);
  /** @param {number} n @param {{ ms: number }} run */
  const speed = (n, run) =>
    `${n.toLocaleString('en-US')} products in ${round(run.ms / 1000, 1)} s (${Math.round(n / (run.ms / 1000)).toLocaleString('en-US')} products/s)`;
  return {
    name: 'catalog-memory',
    title: '6b. Catalog ingest memory',
    scale: describeScale(ctx.scale),
    date: new Date().toISOString(),
    setup: [
      `\`oracle ingest\` of a canonical catalog CSV of ${big.toLocaleString('en-US')} products into a fresh database; baselines: the same command on ${small.toLocaleString('en-US')} and on ${Math.round(big / 2).toLocaleString('en-US')} products.`,
      `Wall time (the whole process): ${[speed(small, base), speed(Math.round(big / 2), half), speed(big, ours)].join('; ')}; the big catalog again into its database (every product stored): ${round(rerun.ms / 1000, 1)} s.`,
    ],
    figures: [
      figure({
        figure: 'Peak RSS',
        value: round(ours.mib, 1),
        unit: 'MiB',
        baseline: `catalog of ${small.toLocaleString('en-US')} products`,
        baselineValue: round(base.mib, 1),
        ratio: base.mib > 0 ? round(ours.mib / base.mib, 2) : null,
        ratioDefinition: 'big catalog / small catalog',
        target: `ratio < ${FLAT_RATIO} (flat)`,
        pass: base.mib > 0 ? ours.mib / base.mib < FLAT_RATIO : null,
      }),
      figure({
        figure: 'Peak RSS, second half of the catalog',
        value: round(ours.mib, 1),
        unit: 'MiB',
        baseline: `catalog of ${Math.round(big / 2).toLocaleString('en-US')} products`,
        baselineValue: round(half.mib, 1),
        ratio: half.mib > 0 ? round(ours.mib / half.mib, 2) : null,
        ratioDefinition: 'big catalog / half of it',
        target: null,
      }),
      figure({
        figure: 'Peak RSS, the big catalog again (a re-run)',
        value: round(rerun.mib, 1),
        unit: 'MiB',
        baseline: `catalog of ${small.toLocaleString('en-US')} products, first run`,
        baselineValue: round(base.mib, 1),
        ratio: base.mib > 0 ? round(rerun.mib / base.mib, 2) : null,
        ratioDefinition: 're-run of the big catalog / small catalog',
        target: null,
      }),
    ],
    notes: [],
  };
}
