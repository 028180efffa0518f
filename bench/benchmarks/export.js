// @ts-check
/**
 * Issue 10.7: `oracle export` streams in constant memory. Peak RSS and wall time of
 * `oracle export --format ndjson --out <file>` over the pricing benchmark's big database
 * (every product of its catalog) against the same command over the small database (a
 * catalog a hundredth the size), run one after the other. A constant-memory export grows by
 * at most SQLite's page cache (cache_size, 64 MiB, connection.ts), which pricing a big file
 * fills and a small one does not; anything beyond would be bundles or products held.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_END } from '../lib/data.js';
import { oracleChecked } from '../lib/oracle.js';
import { RSS_METHOD } from '../lib/proc.js';
import { figure } from '../lib/results.js';
import { describeScale } from '../lib/scales.js';
import { round } from '../lib/stats.js';
import { scratchDir } from '../lib/workspace.js';
import { preparePricing } from './pricing.js';

/** SQLite's page cache of a reading connection (`READ_CACHE_KIB` in src/store/sqlite/connection.ts). */
const PAGE_CACHE_MIB = 64;

/**
 * @param {import('../lib/data.js').BenchContext} ctx
 * @returns {Promise<import('../lib/results.js').BenchResult>}
 */
export async function exportBenchmark(ctx) {
  const { smallDb, bigDb } = await preparePricing(ctx);
  const dir = scratchDir('export');
  /** @param {string} db @param {string} name */
  const exportOf = async (db, name) => {
    const out = join(dir, `${name}.ndjson`);
    const r = await oracleChecked(db, ['export', '--at', DATA_END, '--out', out], { measureRss: true });
    return {
      ...r,
      bytes: statSync(out).size,
      products: Number(/exported ([\d,]+)/.exec(r.stderr)?.[1]?.replaceAll(',', '') ?? NaN),
    };
  };
  ctx.log('export of the small and the big pricing database');
  const small = await exportOf(smallDb.db, 'small');
  const big = await exportOf(bigDb.db, 'big');
  const mib = (/** @type {number | null} */ kb) => (kb === null ? null : round(kb / 1024, 1));
  const baseline = `\`oracle export\` of the small pricing database (${small.products.toLocaleString('en-US')} products)`;
  return {
    name: 'export',
    title: '8. Export',
    scale: describeScale(ctx.scale),
    date: new Date().toISOString(),
    setup: [
      `\`oracle export --at ${DATA_END} --out <file>\` (NDJSON) of the big pricing database: ${big.products.toLocaleString('en-US')} products, ${round(big.bytes / 1e6, 1)} MB written; baseline the same over the small one (${round(small.bytes / 1e6, 2)} MB). Peak RSS by ${RSS_METHOD}.`,
    ],
    figures: [
      figure({
        figure: 'Export peak RSS',
        value: mib(big.peakRssKb),
        unit: 'MiB',
        baseline,
        baselineValue: mib(small.peakRssKb),
        ratioDefinition: 'big / small',
        target: 'big - small < 64 MiB (the page cache a big file fills)',
        pass:
          big.peakRssKb !== null && small.peakRssKb !== null
            ? (big.peakRssKb - small.peakRssKb) / 1024 < PAGE_CACHE_MIB
            : null,
      }),
      figure({
        figure: 'Export wall time',
        value: round(big.wallMs, 0),
        unit: 'ms',
        baseline,
        baselineValue: round(small.wallMs, 0),
        ratioDefinition: 'big / small',
        target: null,
      }),
    ],
    notes: [],
  };
}
