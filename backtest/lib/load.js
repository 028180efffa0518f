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
import { CELLS, END, GRADES, SCORED_START, START } from './model.js';

/** @typedef {import('./market.js').Market} Market */
/** @typedef {import('../../src/store/store.js').Store} Store */

const CATALOG_HEADER =
  'product_key,refsource_id,product_name,subtitle,set_name,image_url,product_type,era,release_date';
const OBSERVATION_HEADER = 'product_key,source,observed_at,price_minor,grader,grade,external_id,sales_volume';

/**
 * Writes `lines` (header first) to `path`.
 * @param {string} path
 * @param {Iterable<string>} lines
 */
export async function writeLines(path, lines) {
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
    yield [
      plan.key,
      plan.refsourceId,
      name,
      plan.scenario,
      'Backtest Set',
      '',
      plan.productType,
      plan.era,
      '2020-01-01',
    ].join(',');
  }
}

/**
 * A pricecharting quote's sales_volume as PriceCharting reports it: the product's sales over a
 * year, every grade together (docs/feeds.md), here the product's expected sales a day over all
 * its cells times 365. Its quotes carry no external id, like the real download's.
 * @param {import('./model.js').ProductPlan} plan
 */
function yearlyVolume(plan) {
  let perDay = 0;
  for (const rate of plan.cellRate) perDay += rate > 0 ? rate : 0;
  return Math.round(perDay * 365);
}

/**
 * The observations dated in [from, to), header first. Each sale and tcgplayer quote has an
 * external id made of its product, series and rank, the same whichever file it lands in; a
 * pricecharting quote has none and carries the product's yearly sales_volume instead.
 * @param {Market} market
 * @param {number} from
 * @param {number} to
 */
function* observationLines(market, from, to) {
  yield OBSERVATION_HEADER;
  for (const [pi, p] of market.products.entries()) {
    const key = p.plan.key;
    const volume = yearlyVolume(p.plan);
    const series = [
      ...p.cells.map((s, i) => {
        const cell = /** @type {import('./model.js').Cell} */ (CELLS[i]);
        return { s, grader: cell.grader ?? '', grade: cell.grade === null ? '' : String(cell.grade) };
      }),
      ...p.pooled.map((s, i) => ({ s, grader: 'ANY', grade: String(GRADES[i]) })),
    ];
    for (const [si, { s, grader, grade }] of series.entries()) {
      for (let i = 0; i < s.t.length; i++) {
        const t = /** @type {number} */ (s.t[i]);
        if (t < from || t >= to) continue;
        const source = SOURCES[/** @type {number} */ (s.source[i])];
        const tail = source === 'pricecharting' ? `,,${volume}` : `,bt${pi}.${si}.${i},`;
        yield `${key},${source},${new Date(t).toISOString()},${s.price[i]},${grader},${grade}${tail}`;
      }
    }
  }
}

/**
 * Ingests `path` with the product's pipeline, as `oracle ingest` would at `now`; throws unless
 * every record was written.
 * @param {Store} store
 * @param {string} path
 * @param {'catalog' | 'observations'} kind
 * @param {number} now the ingest's clock: a simulated instant, never the wall clock
 */
export async function ingestFile(store, path, kind, now) {
  const result = await ingest.ingestSource(store, path, {
    kind,
    maxRejects: 0,
    clock: () => now,
    stdin: Readable.from([]),
  });
  if (result.failure !== null) throw result.failure; // a bad source ends with its failure, not a throw
  if (result.counts.rejected > 0) {
    throw new Error(
      `ingest of ${path} rejected ${result.counts.rejected} records; first: ${JSON.stringify(result.firstReject)}`,
    );
  }
  return result.counts;
}

/**
 * Loads the market as an operator running since START would have: the catalog and the warm-up's
 * observations, ingested at the end of the warm-up; then `prepare` (the operator's steps, with
 * only that data in the database); then the rest of the observations, ingested at END. The CSV
 * files and `backtest.db` are written into `dir`.
 * @template T
 * @param {Market} market
 * @param {string} dir
 * @param {(store: Store, asOf: number) => Promise<T>} prepare
 * @returns {Promise<{ store: Store, prepared: T }>} the store, open
 */
export async function loadMarket(market, dir, prepare) {
  const catalog = join(dir, 'catalog.csv');
  const warmup = join(dir, 'observations-warmup.csv');
  const scored = join(dir, 'observations-scored.csv');
  await writeLines(catalog, catalogLines(market));
  await writeLines(warmup, observationLines(market, START, SCORED_START));
  await writeLines(scored, observationLines(market, SCORED_START, END));
  const store = await storeModule.openStore(join(dir, 'backtest.db'), { create: true });
  try {
    await ingestFile(store, catalog, 'catalog', SCORED_START);
    await ingestFile(store, warmup, 'observations', SCORED_START);
    const prepared = await prepare(store, SCORED_START);
    await ingestFile(store, scored, 'observations', END);
    return { store, prepared };
  } catch (error) {
    await store.close();
    throw error;
  }
}
