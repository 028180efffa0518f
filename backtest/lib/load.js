// @ts-check
/**
 * Puts a simulated market into a real SQLite file the way an operator does: a catalog CSV and
 * an observations CSV in the canonical format of CONTRACT.md, each ingested by the product's
 * own ingest pipeline (`oracle ingest`'s code), then opened as the store `oracle price` reads.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ingest, store as storeModule } from './built.js';
import { SOURCES } from './market.js';
import { CELLS, END, GRADES } from './model.js';

/** @typedef {import('./market.js').Market} Market */
/** @typedef {import('../../src/store/store.js').Store} Store */

const CATALOG_HEADER = 'product_key,refsource_id,product_name,subtitle,set_name,image_url,product_type,era,release_date';
const OBSERVATION_HEADER = 'product_key,source,observed_at,price_minor,grader,grade,external_id';

/**
 * Writes `lines` (header first) to `path`.
 * @param {string} path
 * @param {Iterable<string>} lines
 */
async function writeLines(path, lines) {
  const out = createWriteStream(path);
  /** @type {string[]} */
  let batch = [];
  for (const line of lines) {
    batch.push(line);
    if (batch.length >= 20_000) {
      if (!out.write(`${batch.join('\n')}\n`)) await once(out, 'drain');
      batch = [];
    }
  }
  out.end(batch.length > 0 ? `${batch.join('\n')}\n` : '');
  await once(out, 'finish');
}

/** @param {Market} market */
function* catalogLines(market) {
  yield CATALOG_HEADER;
  for (const { plan } of market.products) {
    const name = `Backtest ${plan.scenario} ${plan.key.slice(-3)}`;
    yield [plan.key, plan.refsourceId, name, plan.scenario, 'Backtest Set', '', plan.productType, plan.era, '2020-01-01'].join(',');
  }
}

/** @param {Market} market */
function* observationLines(market) {
  yield OBSERVATION_HEADER;
  let id = 0;
  for (const p of market.products) {
    const key = p.plan.key;
    const series = [
      ...p.cells.map((s, i) => {
        const cell = /** @type {import('./model.js').Cell} */ (CELLS[i]);
        return { s, grader: cell.grader ?? '', grade: cell.grade === null ? '' : String(cell.grade) };
      }),
      ...p.pooled.map((s, i) => ({ s, grader: 'ANY', grade: String(GRADES[i]) })),
    ];
    for (const { s, grader, grade } of series) {
      for (let i = 0; i < s.t.length; i++) {
        const source = SOURCES[/** @type {number} */ (s.source[i])];
        yield `${key},${source},${new Date(/** @type {number} */ (s.t[i])).toISOString()},${s.price[i]},${grader},${grade},bt${++id}`;
      }
    }
  }
}

/**
 * Ingests `path` with the product's pipeline; throws unless every record was written.
 * @param {Store} store
 * @param {string} path
 * @param {'catalog' | 'observations'} kind
 */
async function ingestFile(store, path, kind) {
  const result = await ingest.ingestSource(store, path, {
    kind,
    maxRejects: 0,
    // The simulated period's end: no wall clock (and no observation lies after it).
    clock: () => END,
    stdin: Readable.from([]),
  });
  if (result.counts.rejected > 0) {
    throw new Error(`ingest of ${path} rejected ${result.counts.rejected} records; first: ${JSON.stringify(result.firstReject)}`);
  }
  return result.counts;
}

/**
 * Writes the market's CSVs into `dir`, ingests them into `dir`/backtest.db and returns the open store.
 * @param {Market} market
 * @param {string} dir
 * @returns {Promise<Store>}
 */
export async function loadMarket(market, dir) {
  const catalog = join(dir, 'catalog.csv');
  const observations = join(dir, 'observations.csv');
  await writeLines(catalog, catalogLines(market));
  await writeLines(observations, observationLines(market));
  const store = await storeModule.openStore(join(dir, 'backtest.db'), { create: true });
  try {
    await ingestFile(store, catalog, 'catalog');
    await ingestFile(store, observations, 'observations');
  } catch (error) {
    store.close();
    throw error;
  }
  return store;
}
