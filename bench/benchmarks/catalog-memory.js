// @ts-check
/**
 * Issue 24.8: peak RSS of `oracle ingest` of a catalog stays flat as the catalog grows (it grew
 * about 2 KB a product while a whole batch of catalog records was held before writing). The
 * same command on a catalog of `small` products is the baseline; the ratio shows the growth.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { oracle } from '../lib/oracle.js';
import { figure } from '../lib/results.js';
import { describeScale } from '../lib/scales.js';
import { round } from '../lib/stats.js';
import { removeDatabase, scratchDir } from '../lib/workspace.js';

/**
 * A canonical catalog CSV of `n` products, each with a refsource id, set, subtitle and era.
 * @param {string} path
 * @param {number} n
 */
function catalogCsv(path, n) {
  const lines = ['product_key,refsource_id,product_name,set_name,subtitle,era,release_date'];
  for (let i = 0; i < n; i += 1) lines.push(`card-${i},${100_000 + i},Card Name Number ${i},Some Set ${i % 300},${i}/999,modern,2020-01-01`);
  writeFileSync(path, `${lines.join('\n')}\n`);
}

/**
 * @param {string} dir
 * @param {number} n
 * @param {import('../lib/data.js').BenchContext} ctx
 */
async function peakMib(dir, n, ctx) {
  const csv = join(dir, `catalog-${n}.csv`);
  const db = join(dir, `catalog-${n}.db`);
  catalogCsv(csv, n);
  removeDatabase(db);
  const r = await oracle(db, ['ingest', csv], { measureRss: true, profileDir: ctx.profileDir });
  if (r.code !== 0) throw new Error(`oracle ingest exited ${r.code}: ${r.stderr.trim().slice(0, 500)}`);
  removeDatabase(db);
  return { mib: (r.peakRssKb ?? 0) / 1024, ms: r.wallMs };
}

/**
 * @param {import('../lib/data.js').BenchContext} ctx
 * @returns {Promise<import('../lib/results.js').BenchResult>}
 */
export async function catalogMemoryBenchmark(ctx) {
  const { small, big } = ctx.scale.catalogMemory;
  const dir = scratchDir('catalog-memory');
  const base = await peakMib(dir, small, ctx);
  const ours = await peakMib(dir, big, ctx);
  return {
    name: 'catalog-memory',
    title: '6b. Catalog ingest memory',
    scale: describeScale(ctx.scale),
    date: new Date().toISOString(),
    setup: [`\`oracle ingest\` of a canonical catalog CSV of ${big.toLocaleString('en-US')} products into a fresh database; ${round(ours.ms / 1000, 1)} s.`, `Baseline: the same command on ${small.toLocaleString('en-US')} products.`],
    figures: [
      figure({
        figure: 'Peak RSS',
        value: round(ours.mib, 1),
        unit: 'MiB',
        baseline: `catalog of ${small.toLocaleString('en-US')} products`,
        baselineValue: round(base.mib, 1),
        ratio: base.mib > 0 ? round(ours.mib / base.mib, 2) : null,
        ratioDefinition: 'big catalog / small catalog',
        target: null,
      }),
    ],
    notes: [],
  };
}
