// @ts-check
/**
 * Issue 6.1: `oracle ingest` of canonical CSV observation rows into a fresh database, against
 * the sqlite3 shell's `.import` of the same file into a table of the same columns and indexes;
 * and the same rows as one JSON array of records, against the CSV.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { generatedData, jsonArrayOf } from '../lib/data.js';
import { countObservations, withDatabase } from '../lib/db-query.js';
import { SQLITE3, sqlite3Version } from '../lib/machine.js';
import { oracle, oracleChecked } from '../lib/oracle.js';
import { run, runChecked } from '../lib/proc.js';
import { figure } from '../lib/results.js';
import { describeScale } from '../lib/scales.js';
import { median, round } from '../lib/stats.js';
import { removeDatabase, scratchDir } from '../lib/workspace.js';

/**
 * The store's pragmas for observations (src/store/sqlite/connection.ts: `READ_CACHE_KIB`), so both sides get the same journal, sync and
 * page cache.
 */
const PRAGMAS = ['PRAGMA journal_mode=WAL', 'PRAGMA synchronous=NORMAL', 'PRAGMA cache_size=-65536'];

/**
 * The baseline table: the CSV's own columns, with the indexes the store keeps on its
 * observations table, read from a database the product made and expressed over the CSV's
 * columns (the store's product id is the CSV's product_key, its condition is grader + grade),
 * so the baseline follows the schema as it changes.
 * @param {string[]} columns the CSV header
 * @param {string} productDb a database created by `oracle ingest`
 * @returns {string[]}
 */
function baselineSchema(columns, productDb) {
  const types = /** @type {Record<string, string>} */ ({ price_minor: 'INTEGER', grade: 'REAL' });
  const indexes = withDatabase(productDb, (db) =>
    /** @type {{ sql: string }[]} */ (
      db
        .prepare(
          "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'observations' AND sql IS NOT NULL",
        )
        .all()
    ).map((r) =>
      r.sql
        .replace(/`?\bproduct_id\b`?/g, 'product_key')
        .replace(/`?\bcondition\b`?/g, 'grader, grade')
        .replace(/`/g, ''),
    ),
  );
  return [
    `CREATE TABLE observations (${columns.map((c) => `${c} ${types[c] ?? 'TEXT'}`).join(', ')})`,
    ...indexes,
  ];
}

/**
 * @param {string} path
 * @returns {string[]}
 */
function csvHeader(path) {
  const fd = openSync(path, 'r');
  const buf = Buffer.alloc(4096);
  const n = readSync(fd, buf, 0, buf.length, 0);
  closeSync(fd);
  return (buf.subarray(0, n).toString('utf8').split(/\r?\n/)[0] ?? '').split(',');
}

/**
 * Makes (or finds) the data this benchmark reads.
 * @param {import('../lib/data.js').BenchContext} ctx
 */
export function prepareIngest(ctx) {
  return generatedData(ctx, { products: ctx.scale.ingest.products, observations: ctx.scale.ingest.rows });
}

/**
 * @param {import('../lib/data.js').BenchContext} ctx
 * @returns {Promise<import('../lib/results.js').BenchResult>}
 */
export async function ingestBenchmark(ctx) {
  const s = ctx.scale.ingest;
  const data = await prepareIngest(ctx);
  const dir = scratchDir('ingest');
  const hasSqlite = sqlite3Version() !== null;
  const notes = [];
  /** @type {{ wallMs: number, peakRssKb: number | null }[]} */
  const ours = [];
  /** @type {{ wallMs: number, peakRssKb: number | null }[]} */
  const theirs = [];
  /** @type {number[]} */
  const dryRuns = [];
  /** @type {number[]} */
  const jsonRuns = [];
  const jsonArray = await jsonArrayOf(data);
  let oursRows = 0;
  let theirRows = 0;

  const reference = join(dir, 'schema.db');
  await oracleChecked(reference, ['ingest', data.catalogCsv]);
  const schema = baselineSchema(csvHeader(data.observationsCsv), reference);

  // A/B interleaved, each on a fresh database; the catalog load and the schema are not timed.
  for (let i = 0; i < s.repeats; i += 1) {
    if (hasSqlite) {
      const db = join(dir, 'baseline.db');
      removeDatabase(db);
      await runChecked(SQLITE3, [db, ...PRAGMAS.slice(0, 1), ...schema]);
      const r = await run(
        SQLITE3,
        [db, ...PRAGMAS.slice(1), `.import --csv --skip 1 "${data.observationsCsv}" observations`],
        {
          measureRss: true,
        },
      );
      if (r.code !== 0 || r.stderr.trim())
        throw new Error(`sqlite3 .import failed: ${r.stderr.trim().slice(0, 500)}`);
      theirs.push(r);
      theirRows = countObservations(db);
    }
    const db = join(dir, 'oracle.db');
    removeDatabase(db);
    await oracleChecked(db, ['ingest', data.catalogCsv]);
    const r = await oracle(db, ['ingest', data.observationsCsv], {
      measureRss: true,
      profileDir: i === 0 ? ctx.profileDir : null,
    });
    if (r.code !== 0) throw new Error(`oracle ingest exited ${r.code}: ${r.stderr.trim().slice(0, 500)}`);
    ours.push(r);
    oursRows = countObservations(db);
    // Parse + validate without writes: where the time goes when it is not SQLite.
    const dry = join(dir, 'dry.db');
    removeDatabase(dry);
    await oracleChecked(dry, ['ingest', data.catalogCsv]);
    dryRuns.push((await oracle(dry, ['ingest', '--dry-run', data.observationsCsv])).wallMs);
    // The same rows as a JSON array: what reading JSON costs beside CSV.
    const json = join(dir, 'json.db');
    removeDatabase(json);
    await oracleChecked(json, ['ingest', data.catalogCsv]);
    const j = await oracle(json, ['ingest', jsonArray]);
    if (j.code !== 0 || countObservations(json) !== oursRows)
      throw new Error(`oracle ingest of the JSON array exited ${j.code}: ${j.stderr.trim().slice(0, 500)}`);
    jsonRuns.push(j.wallMs);
  }

  if (oursRows !== data.rows)
    notes.push(
      `oracle ingest stored ${oursRows} of ${data.rows} rows (rejects or duplicates: see its summary line).`,
    );
  if (hasSqlite && theirRows !== data.rows)
    notes.push(`sqlite3 .import stored ${theirRows} of ${data.rows} rows.`);
  if (!hasSqlite)
    notes.push('sqlite3 shell not installed: baseline skipped (install it with `apt-get install sqlite3`).');

  const ourMs = median(ours.map((r) => r.wallMs));
  const theirMs = hasSqlite ? median(theirs.map((r) => r.wallMs)) : null;
  const ourRss = Math.max(...ours.map((r) => r.peakRssKb ?? 0)) / 1024;
  const theirRss = hasSqlite ? Math.max(...theirs.map((r) => r.peakRssKb ?? 0)) / 1024 : null;
  const dryMs = median(dryRuns);
  const jsonMs = median(jsonRuns);
  const baseline = '`sqlite3 .import` of the same file';
  return {
    name: 'ingest',
    title: '1. Ingest',
    scale: describeScale(ctx.scale),
    date: new Date().toISOString(),
    setup: [
      `${data.rows.toLocaleString('en-US')} canonical CSV observation rows (${(data.bytes / 2 ** 20).toFixed(1)} MiB) over ${s.products.toLocaleString('en-US')} products, from the sample generator (${data.reused ? 'reused' : `made in ${data.buildSeconds} s`}).`,
      `Each side loads a fresh database, ${s.repeats} runs interleaved A/B, median wall time of the whole process (start-up included); the catalog load and CREATE TABLE are not timed.`,
      `Baseline table: the CSV columns with the store's indexes on observations expressed over them (product_id -> product_key, condition -> grader, grade), and the store's pragmas (WAL, synchronous=NORMAL, 64 MiB cache): ${schema
        .slice(1)
        .map((q) => `\`${q}\``)
        .join('; ')}.`,
    ],
    figures: [
      figure({
        figure: 'Wall time',
        value: round(ourMs / 1000, 2),
        unit: 's',
        baseline,
        baselineValue: theirMs === null ? null : round(theirMs / 1000, 2),
        ratio: theirMs === null ? null : round(ourMs / theirMs, 2),
        ratioDefinition: 'oracle time / .import time',
        target: 'ratio <= 1.0',
        pass: theirMs === null ? null : ourMs <= theirMs,
      }),
      figure({
        figure: 'Throughput',
        value: Math.round(data.rows / (ourMs / 1000)),
        unit: 'rows/s',
        baseline,
        baselineValue: theirMs === null ? null : Math.round(data.rows / (theirMs / 1000)),
        ratio: theirMs === null ? null : round(theirMs / ourMs, 2),
        ratioDefinition: 'oracle rows/s / .import rows/s',
        target: null,
      }),
      figure({
        figure: 'Peak RSS',
        value: round(ourRss, 1),
        unit: 'MiB',
        baseline: 'sqlite3 shell',
        baselineValue: theirRss === null ? null : round(theirRss, 1),
        ratioDefinition: 'oracle / sqlite3',
        target: null,
      }),
      figure({
        figure: '`ingest --dry-run` (parse, validate, look each row up; no writes)',
        value: round(dryMs / 1000, 2),
        unit: 's',
        baseline: 'oracle ingest (full)',
        baselineValue: round(ourMs / 1000, 2),
        ratioDefinition: 'share of the full ingest time',
        target: null,
      }),
      figure({
        figure: 'Ingest of the same rows as one JSON array of records',
        value: round(jsonMs / 1000, 2),
        unit: 's',
        baseline: 'oracle ingest of the CSV',
        baselineValue: round(ourMs / 1000, 2),
        ratio: round(jsonMs / ourMs, 2),
        ratioDefinition: 'JSON time / CSV time',
        target: null,
      }),
    ],
    notes,
  };
}
