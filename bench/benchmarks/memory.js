// @ts-check
/**
 * Issue 6.6: peak RSS of `oracle ingest` of a 2 GB file (quick scale: ~200 MB) stays under
 * 300 MB. Baseline: the same command on the ingest benchmark's much smaller file, so the
 * ratio shows whether memory grows with the input (it must not: the file is streamed).
 * Also the same big file gzipped, which ingest writes in one transaction (nothing of a gzip
 * stream is committed before its checksum passed): its peak RSS and wall time against the
 * plain file's batched commits.
 */
import { createReadStream, createWriteStream, existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { generatedData } from '../lib/data.js';
import { countObservations } from '../lib/db-query.js';
import { prepareIngest } from './ingest.js';
import { oracle, oracleChecked } from '../lib/oracle.js';
import { figure } from '../lib/results.js';
import { describeScale } from '../lib/scales.js';
import { round } from '../lib/stats.js';
import { removeDatabase, scratchDir } from '../lib/workspace.js';

const LIMIT_MIB = 300;

/**
 * Loads a data set into a fresh database and returns the observation ingest's run.
 * @param {import('../lib/data.js').BenchContext} ctx
 * @param {string} db
 * @param {import('../lib/data.js').DataSet} data
 */
async function ingestFresh(ctx, db, data, observations = data.observationsCsv) {
  removeDatabase(db);
  await oracleChecked(db, ['ingest', data.catalogCsv]);
  const r = await oracle(db, ['ingest', observations], { measureRss: true, profileDir: ctx.profileDir });
  if (r.code !== 0) throw new Error(`oracle ingest exited ${r.code}: ${r.stderr.trim().slice(0, 500)}`);
  return { ...r, stored: countObservations(db) };
}

/**
 * Makes (or finds) the small file (the ingest benchmark's) and the big one. The generator
 * takes a row count: the big file's is sized from the small file's bytes per row.
 * @param {import('../lib/data.js').BenchContext} ctx
 */
export async function prepareMemory(ctx) {
  const s = ctx.scale.memory;
  const small = await prepareIngest(ctx);
  const rows = Math.ceil(s.bytes / (small.bytes / small.rows) / 100_000) * 100_000;
  const big = await generatedData(ctx, { products: s.products, observations: rows });
  const bigGz = `${big.observationsCsv}.gz`;
  if (!existsSync(bigGz)) {
    await pipeline(
      createReadStream(big.observationsCsv),
      createGzip({ level: 6 }),
      createWriteStream(`${bigGz}.part`),
    );
    renameSync(`${bigGz}.part`, bigGz);
  }
  return { small, big, bigGz };
}

/**
 * @param {import('../lib/data.js').BenchContext} ctx
 * @returns {Promise<import('../lib/results.js').BenchResult>}
 */
export async function memoryBenchmark(ctx) {
  const s = ctx.scale.memory;
  const { small, big, bigGz } = await prepareMemory(ctx);
  const dir = scratchDir('memory');
  const base = await ingestFresh(ctx, join(dir, 'small.db'), small);
  removeDatabase(join(dir, 'small.db'));
  const ours = await ingestFresh(ctx, join(dir, 'big.db'), big);
  removeDatabase(join(dir, 'big.db')); // several GB: do not keep it
  const gz = await ingestFresh(ctx, join(dir, 'big-gz.db'), big, bigGz);
  removeDatabase(join(dir, 'big-gz.db'));
  const peak = (ours.peakRssKb ?? 0) / 1024;
  const basePeak = (base.peakRssKb ?? 0) / 1024;
  const gzPeak = (gz.peakRssKb ?? 0) / 1024;
  const notes = [];
  if (ours.stored !== big.rows) notes.push(`stored ${ours.stored} of ${big.rows} rows.`);
  if (gz.stored !== big.rows) notes.push(`gzip: stored ${gz.stored} of ${big.rows} rows.`);
  return {
    name: 'memory',
    title: '6. Memory',
    scale: describeScale(ctx.scale),
    date: new Date().toISOString(),
    setup: [
      `\`oracle ingest\` of a ${(big.bytes / 2 ** 30).toFixed(2)} GiB canonical CSV (${big.rows.toLocaleString('en-US')} rows over ${s.products.toLocaleString('en-US')} products) into a fresh database; ${round(ours.wallMs / 1000, 1)} s, ${Math.round(big.rows / (ours.wallMs / 1000)).toLocaleString('en-US')} rows/s.`,
      `Baseline: the same command on the ingest benchmark's ${(small.bytes / 2 ** 20).toFixed(0)} MiB file (${small.rows.toLocaleString('en-US')} rows).`,
    ],
    figures: [
      figure({
        figure: 'Peak RSS',
        value: round(peak, 1),
        unit: 'MiB',
        baseline: `ingest of ${(small.bytes / 2 ** 20).toFixed(0)} MiB`,
        baselineValue: round(basePeak, 1),
        ratio: basePeak > 0 ? round(peak / basePeak, 2) : null,
        ratioDefinition: 'big file / small file',
        target: `< ${LIMIT_MIB} MB (${Math.floor(LIMIT_MIB / 1.048576)} MiB)`,
        pass: ours.peakRssKb !== null && peak * 1.048576 < LIMIT_MIB,
      }),
      figure({
        figure: 'Peak RSS, the big file gzipped (one transaction)',
        value: round(gzPeak, 1),
        unit: 'MiB',
        baseline: 'the plain big file (batched commits)',
        baselineValue: round(peak, 1),
        ratioDefinition: 'gzip / plain',
        target: `< ${LIMIT_MIB} MB (${Math.floor(LIMIT_MIB / 1.048576)} MiB)`,
        pass: gz.peakRssKb !== null && gzPeak * 1.048576 < LIMIT_MIB,
      }),
      figure({
        figure: 'Wall time, the big file gzipped (one transaction)',
        value: round(gz.wallMs / 1000, 1),
        unit: 's',
        baseline: 'the plain big file (batched commits)',
        baselineValue: round(ours.wallMs / 1000, 1),
        ratioDefinition: 'gzip / plain',
        target: null,
      }),
    ],
    notes,
  };
}
