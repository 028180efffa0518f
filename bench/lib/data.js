// @ts-check
/**
 * Benchmark data, made by the product's own sample generator (scale mode) and loaded with
 * the product's own `oracle ingest`, the path a user takes. Everything is cached in
 * bench/.work/ by its parameters and the code that produced it.
 */
import {
  closeSync,
  createReadStream,
  existsSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { runChecked } from './proc.js';
import { oracleChecked } from './oracle.js';
import { cached, codeFingerprint, ROOT } from './workspace.js';

const GENERATOR = join(ROOT, 'scripts', 'generate-sample-data.js');

/**
 * A fixed end for the scale-mode data sets, so 10M rows are made once and reused; pricing
 * passes this instant as `asOf`. Not `now`: that would change the data every hour.
 */
export const DATA_END = '2026-11-01T00:00:00Z';

/**
 * @typedef {object} DataSet
 * @property {string} dir
 * @property {string} catalogCsv
 * @property {string} observationsCsv
 * @property {number} rows observation rows in the CSV
 * @property {number} bytes size of the observation CSV
 * @property {number} buildSeconds
 * @property {boolean} reused
 */

/**
 * @typedef {object} BenchContext
 * @property {import('./scales.js').Scale} scale
 * @property {boolean} fresh rebuild cached data
 * @property {string | null} profileDir --cpu-prof output for the product's processes
 * @property {(line: string) => void} log
 */

/**
 * Generates (or reuses) a synthetic catalog and observation CSV in scale mode.
 * @param {BenchContext} ctx
 * @param {{ products: number, observations: number, hot?: number, end?: string }} shape
 * @returns {Promise<DataSet>}
 */
export async function generatedData(ctx, shape) {
  const end = shape.end ?? DATA_END;
  const name = `data-p${shape.products}-o${shape.observations}-h${shape.hot ?? 0}`;
  const params = {
    ...shape,
    end,
    generator: codeFingerprint(['build/sample', 'scripts/generate-sample-data.js']),
  };
  const artifact = await cached(
    name,
    params,
    async (dir) => {
      const args = [GENERATOR, '--out-dir', dir, '--end', end, '--products', String(shape.products)];
      args.push('--observations', String(shape.observations));
      if (shape.hot) args.push('--hot-product-observations', String(shape.hot));
      await runChecked(process.execPath, args);
      return { bytes: statSync(join(dir, 'observations.csv')).size };
    },
    ctx,
  );
  return {
    dir: artifact.dir,
    catalogCsv: join(artifact.dir, 'catalog.csv'),
    observationsCsv: join(artifact.dir, 'observations.csv'),
    rows: shape.observations,
    bytes: Number(artifact.info.bytes),
    buildSeconds: artifact.buildSeconds,
    reused: artifact.reused,
  };
}

/**
 * The observation CSV of a data set as one JSON array of records (`observations.json` beside
 * it, made once): the same rows, for the ingest benchmark's JSON figure. The generator writes
 * no quoted cells, which the conversion checks rather than parsing CSV.
 * @param {DataSet} data
 * @returns {Promise<string>} the path of the JSON file
 */
export async function jsonArrayOf(data) {
  const path = join(data.dir, 'observations.json');
  if (existsSync(path)) return path;
  const numeric = new Set(['price_minor', 'grade']);
  const out = openSync(`${path}.partial`, 'w');
  /** @type {string[] | null} */
  let columns = null;
  let line = 0;
  let pending = '[';
  for await (const row of createInterface({
    input: createReadStream(data.observationsCsv),
    crlfDelay: Infinity,
  })) {
    line += 1;
    if (columns === null) {
      columns = row.split(',');
      continue;
    }
    if (row === '') continue;
    if (row.includes('"'))
      throw new Error(
        `${data.observationsCsv}:${line}: a quoted cell; the JSON conversion reads plain cells only`,
      );
    /** @type {Record<string, string | number>} */
    const record = {};
    const names = columns;
    row.split(',').forEach((cell, c) => {
      const name = /** @type {string} */ (names[c]);
      if (cell !== '') record[name] = numeric.has(name) ? Number(cell) : cell;
    });
    pending += `${line === 2 ? '\n' : ',\n'}${JSON.stringify(record)}`;
    if (pending.length > 1 << 20) {
      writeSync(out, pending);
      pending = '';
    }
  }
  writeSync(out, `${pending}\n]\n`);
  closeSync(out);
  renameSync(`${path}.partial`, path);
  return path;
}

/**
 * The bundled sample (the real catalog, default history ending at the current hour so the
 * default 24 h window has data) loaded into a database: what `oracle price` and `serve` run on.
 * @param {BenchContext} ctx
 * @returns {Promise<{ db: string, end: string, buildSeconds: number }>}
 */
export async function sampleDatabase(ctx) {
  const end = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString().replace('.000Z', 'Z');
  const params = { end, code: codeFingerprint(['drizzle', 'build/sample']) };
  const artifact = await cached(
    'sample-db',
    params,
    async (dir) => {
      await runChecked(process.execPath, [GENERATOR, '--out-dir', dir, '--end', end]);
      const db = join(dir, 'sample.db');
      await oracleChecked(db, ['ingest', join(dir, 'catalog.csv')]);
      await oracleChecked(db, ['ingest', join(dir, 'observations.csv.gz')]);
    },
    ctx,
  );
  return { db: join(artifact.dir, 'sample.db'), end, buildSeconds: artifact.buildSeconds };
}

/**
 * The generator's hot product: the first product of its catalog, which gets exactly the
 * `--hot-product-observations` count (its keys are slugs: no quoting in the first field).
 * @param {DataSet} data
 * @returns {string}
 */
export function hotProductKey(data) {
  const head = readFileSync(data.catalogCsv, 'utf8').slice(0, 4096).split(/\r?\n/);
  const key = head[1]?.split(',')[0];
  if (!key) throw new Error(`${data.catalogCsv} has no products`);
  return key;
}

/**
 * A database loaded with `oracle ingest` from a generated data set (cached).
 * @param {BenchContext} ctx
 * @param {{ products: number, observations: number, hot?: number }} shape
 * @returns {Promise<{ db: string, data: DataSet, buildSeconds: number, ingestSeconds: number, reused: boolean }>}
 */
export async function loadedDatabase(ctx, shape) {
  const data = await generatedData(ctx, shape);
  const name = `db-p${shape.products}-o${shape.observations}-h${shape.hot ?? 0}`;
  // The schema decides what a database holds; other code changes (a faster ingest) do not.
  const params = { ...shape, end: DATA_END, schema: codeFingerprint(['drizzle']) };
  const artifact = await cached(
    name,
    params,
    async (dir) => {
      const db = join(dir, 'oracle.db');
      await oracleChecked(db, ['ingest', data.catalogCsv]);
      const started = performance.now();
      await oracleChecked(db, ['ingest', data.observationsCsv]);
      return { ingestSeconds: Math.round((performance.now() - started) / 100) / 10 };
    },
    ctx,
  );
  return {
    db: join(artifact.dir, 'oracle.db'),
    data,
    buildSeconds: artifact.buildSeconds,
    ingestSeconds: Number(artifact.info.ingestSeconds),
    reused: artifact.reused,
  };
}
