// @ts-check
/**
 * Issue 35.4: peak RSS of an observation ingest and of `oracle catalog --json` must not grow
 * with the number of products they name. The same number of observation rows is ingested into
 * a database whose catalog has `small` products and one whose catalog has `big` (every product
 * named); `catalog --json` and the `catalog` table then list each catalog. The small run is the
 * baseline of each ratio.
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { catalogCsv } from './catalog-memory.js';
import { oracle, oracleChecked } from '../lib/oracle.js';
import { figure } from '../lib/results.js';
import { describeScale } from '../lib/scales.js';
import { round } from '../lib/stats.js';
import { removeDatabase, scratchDir } from '../lib/workspace.js';

/** Peak RSS ratios under this count as flat (as benchmark 6b: runs of one size differ by a few MiB). */
const FLAT_RATIO = 1.05;

/** The first observation's instant: rows are a second apart from it, so every row is distinct. */
const FIRST_MS = Date.parse('2026-01-01T00:00:00Z');

/**
 * One canonical observation row, the `row`-th of a file naming `products` products in turn
 * (catalogCsv's keys), with one in four a PSA 10 sale. Pure, so a test can check the shape.
 * @param {number} row
 * @param {number} products
 * @returns {string}
 */
export function observationLine(row, products) {
  const at = new Date(FIRST_MS + row * 1000).toISOString().replace('.000Z', 'Z');
  const graded = row % 4 === 0;
  const price = (10 + (row % 997) / 10).toFixed(2);
  return `ebay,b${row},card-${row % products},${at},${price},USD,${graded ? 'PSA' : ''},${graded ? '10' : ''}`;
}

/**
 * Writes `rows` observation rows over `products` products as a canonical CSV.
 * @param {string} path
 * @param {number} rows
 * @param {number} products
 */
async function observationsCsv(path, rows, products) {
  const out = createWriteStream(path);
  out.write('source,external_id,product_key,observed_at,price,currency,grader,grade\n');
  for (let r = 0; r < rows; r += 1) {
    if (!out.write(`${observationLine(r, products)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/**
 * A database with a catalog of `n` products (loaded unmeasured), then the measured observation
 * ingest and `catalog --json` over it.
 * @param {string} dir
 * @param {number} n
 * @param {number} rows
 * @param {import('../lib/data.js').BenchContext} ctx
 */
async function measure(dir, n, rows, ctx) {
  const catalog = join(dir, `catalog-${n}.csv`);
  const observations = join(dir, `observations-${n}.csv`);
  const db = join(dir, `products-${n}.db`);
  catalogCsv(catalog, n);
  await observationsCsv(observations, rows, n);
  removeDatabase(db);
  await oracleChecked(db, ['ingest', catalog]);
  ctx.log(`  ${n.toLocaleString('en-US')} products: catalog loaded`);
  /** @param {string[]} args */
  const peak = async (args) => {
    const r = await oracle(db, args, { measureRss: true, profileDir: ctx.profileDir });
    if (r.code !== 0) throw new Error(`oracle ${args[0]} exited ${r.code}: ${r.stderr.trim().slice(0, 500)}`);
    return { mib: (r.peakRssKb ?? 0) / 1024, ms: r.wallMs };
  };
  const ingest = await peak(['ingest', observations]);
  const json = await peak(['catalog', '--json']);
  const table = await peak(['catalog']);
  removeDatabase(db);
  return { ingest, json, table };
}

/**
 * @param {import('../lib/data.js').BenchContext} ctx
 * @returns {Promise<import('../lib/results.js').BenchResult>}
 */
export async function productsMemoryBenchmark(ctx) {
  const { rows, small, big } = ctx.scale.productsMemory;
  const dir = scratchDir('products-memory');
  const base = await measure(dir, small, rows, ctx);
  const ours = await measure(dir, big, rows, ctx);
  const count = (/** @type {number} */ n) => n.toLocaleString('en-US');
  /** @param {string} what @param {{ mib: number }} b @param {{ mib: number }} o */
  const flat = (what, b, o) =>
    figure({
      figure: `Peak RSS, ${what}, ${count(big)} products`,
      value: round(o.mib, 1),
      unit: 'MiB',
      baseline: `the same over ${count(small)} products`,
      baselineValue: round(b.mib, 1),
      ratio: b.mib > 0 ? round(o.mib / b.mib, 2) : null,
      ratioDefinition: `${count(big)} products / ${count(small)}`,
      target: `ratio < ${FLAT_RATIO} (flat)`,
      pass: b.mib > 0 ? o.mib / b.mib < FLAT_RATIO : null,
    });
  /** @param {{ ms: number }} run */
  const secs = (run) => `${round(run.ms / 1000, 1)} s`;
  return {
    name: 'products-memory',
    title: '6c. Memory against the number of products named',
    scale: describeScale(ctx.scale),
    date: new Date().toISOString(),
    setup: [
      `\`oracle ingest\` of ${count(rows)} canonical observation rows (one in four a PSA 10 sale) naming the products of a catalog of ${count(big)} in turn (${count(Math.min(rows, big))} distinct products), into a database holding that catalog (loaded first, unmeasured); baseline: the same number of rows over a catalog of ${count(small)} products.`,
      `\`oracle catalog --json\` and \`oracle catalog\` (the table; stdout to /dev/null) over each database after its ingest.`,
      `Wall time: ingest ${secs(base.ingest)} / ${secs(ours.ingest)}, catalog --json ${secs(base.json)} / ${secs(ours.json)}, the table ${secs(base.table)} / ${secs(ours.table)} (${count(small)} / ${count(big)} products).`,
    ],
    figures: [
      flat('observation ingest', base.ingest, ours.ingest),
      flat('`catalog --json`', base.json, ours.json),
      flat('`catalog` (the table)', base.table, ours.table),
    ],
    notes: [],
  };
}
