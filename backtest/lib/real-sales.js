// @ts-check
/**
 * The backtest's real-data mode (issue 22, docs/backtest.md "Scored on real sales"): real sold
 * listings, each predicted from the sales before it by our engine and by the four alternatives.
 * There is no true price here, so the sale itself stands in for it: the score is each method's
 * error against the sales it predicts, its tail and its rank among the methods.
 *
 * Input: CSV files in the layout of PSA's Auction Prices Realized register as
 * tostenzel/psa-prizes saves it (one file per card; PSA_SALES_HEADER), read from the paths given.
 */
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { codaBlend, lowerBound, mean24, median24, sevenDayAt, sevenDayTrack } from './alternatives.js';
import { csv, pricing, store as storeModule } from './built.js';
import { ingestFile, writeLines } from './load.js';
import { SOURCE } from './market.js';
import { relativeError, summarizeErrors } from './metrics.js';
import { CELLS, DAY, GRADES, HOUR, OUTLIER_STDDEVS, WINDOW_HOURS, cellIndex } from './model.js';
import { BASES, ENGINE, METHODS, basisOf, UNPRICED } from './score.js';

/** @typedef {import('./market.js').Series} Series */
/** @typedef {import('./metrics.js').ErrorSummary} ErrorSummary */

/** The header of a PSA Auction Prices Realized file as tostenzel/psa-prizes writes it. */
export const PSA_SALES_HEADER =
  'date,grade,qualifier,prize,auction_house,seller,sale_type,psa_certification,img_url,lot_url';
/** A sale's day is known, not its hour: it is stored at this hour (UTC) of its day ... */
export const SALE_HOUR_UTC = 12;
/** ... and predicted at the start of its day, from the sales of the days before it only. */
const PREDICT_HOUR_UTC = 0;
/** Cards released before this year are `vintage` (the catalog's era; the engine's priors differ by era). */
const VINTAGE_BEFORE_YEAR = 2004;
/** Refsource ids of the real-sales catalog: digits, clear of the simulated market's. */
const FIRST_REFSOURCE_ID = 9_500_001;

/**
 * @typedef {object} RealProduct
 * @property {string} key the file's name without `.csv`
 * @property {'modern' | 'vintage'} era
 * @property {Series[]} cells per model.js CELLS index (PSA 7-10 filled; the others empty)
 * @property {string[][]} ids per cell, each sale's external id (the lot's id in PSA's register)
 */

/**
 * @typedef {object} RealSales
 * @property {string[]} files
 * @property {RealProduct[]} products
 * @property {number} kept sales of PSA 7, 8, 9 or 10 without a qualifier
 * @property {Record<string, number>} skipped sales left out, by reason
 */

/**
 * The CSV files of `path`: the file itself, or every `.csv` of the directory (sorted).
 * @param {string} path
 */
export function salesFiles(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat === undefined) throw new Error(`--real-sales ${path}: no such file or directory`);
  if (!stat.isDirectory()) return [path];
  const files = readdirSync(path)
    .filter((f) => f.endsWith('.csv'))
    .sort()
    .map((f) => join(path, f));
  if (files.length === 0) throw new Error(`--real-sales ${path}: the directory holds no .csv file`);
  return files;
}

/**
 * `M/D/YYYY` (PSA's register) as epoch ms of that day's midnight UTC; null unless a real date.
 * @param {string} text
 */
export function psaDate(text) {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (m === null) return null;
  const [year, month, day] = [Number(m[3]), Number(m[1]), Number(m[2])];
  const t = Date.UTC(year, month - 1, day);
  const d = new Date(t);
  // A date that does not exist (2/30) is refused, never rolled over.
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day ? t : null;
}

/**
 * Reads the sales files. Keeps the sales of PSA 7, 8, 9 and 10 (the engine's matrix grades)
 * without a qualifier; counts the others by reason. Throws on a file that is not in the layout.
 * @param {readonly string[]} files
 * @returns {RealSales}
 */
export function readSales(files) {
  /** @type {Record<string, number>} */
  const skipped = {};
  const skip = (/** @type {string} */ reason) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
  let kept = 0;
  const products = files.map((file) => {
    const key = basename(file, '.csv');
    const year = /^(\d{4})-/.exec(key);
    /** @type {{ t: number, price: number, id: string }[][]} */
    const sales = CELLS.map(() => []);
    /** @type {string[][]} */
    const records = [];
    const parser = new csv.CsvParser(file, (fields) => records.push(fields));
    parser.push(readFileSync(file, 'utf8'));
    parser.end();
    const header = records.shift()?.join(',');
    if (header !== PSA_SALES_HEADER)
      throw new Error(
        `${file}: not a PSA sales file (header ${JSON.stringify(header)}, expected ${PSA_SALES_HEADER})`,
      );
    for (const [date, grade, qualifier, prize, , , , , , lotUrl] of records) {
      const day = psaDate(date ?? '');
      const price = Math.round(Number(prize) * 100);
      const g = Number(grade);
      if (day === null) skip('no valid date');
      else if (!(price > 0)) skip('no price');
      else if (qualifier !== '') skip('grade with a qualifier (OC, MK, ...)');
      else if (!GRADES.includes(/** @type {import('./model.js').Grade} */ (g)))
        skip('grade outside PSA 7-10 (lower, half or authentic)');
      else {
        kept++;
        const id = /\/auction\/(\d+)$/.exec(lotUrl ?? '')?.[1] ?? `${key}.${records.length}`;
        sales[cellIndex(0, g - 7)]?.push({ t: day + SALE_HOUR_UTC * HOUR, price, id });
      }
    }
    const sorted = sales.map((s) => s.sort((a, b) => a.t - b.t || a.id.localeCompare(b.id)));
    return /** @type {RealProduct} */ ({
      key,
      era: year !== null && Number(year[1]) < VINTAGE_BEFORE_YEAR ? 'vintage' : 'modern',
      cells: sorted.map((s) => ({
        t: Float64Array.from(s, (x) => x.t),
        price: Float64Array.from(s, (x) => x.price),
        source: new Uint8Array(s.length).fill(SOURCE.sale),
      })),
      ids: sorted.map((s) => s.map((x) => x.id)),
    });
  });
  return { files: [...files], products, kept, skipped };
}

/**
 * Loads the sales into a fresh SQLite file in `dir` through the ingest pipeline (catalog, then
 * observations, at the day after the last sale). No calibration: it would see every sale,
 * the ones it is scored on included; the engine prices with its priors.
 * @param {RealSales} data
 * @param {string} dir
 */
async function loadSales(data, dir) {
  mkdirSync(dir, { recursive: true });
  const catalog = join(dir, 'catalog.csv');
  const observations = join(dir, 'observations.csv');
  await writeLines(catalog, [
    'product_key,refsource_id,product_name,subtitle,set_name,image_url,product_type,era,release_date',
    ...data.products.map(
      (p, i) => `${p.key},${FIRST_REFSOURCE_ID + i},${p.key},,PSA sales,,single_card,${p.era},`,
    ),
  ]);
  let last = 0;
  /** @type {string[]} */
  const lines = ['product_key,source,observed_at,price_minor,grader,grade,external_id,sales_volume'];
  for (const p of data.products) {
    p.cells.forEach((s, c) => {
      const cell = /** @type {import('./model.js').Cell} */ (CELLS[c]);
      for (let i = 0; i < s.t.length; i++) {
        const t = /** @type {number} */ (s.t[i]);
        last = Math.max(last, t);
        lines.push(
          `${p.key},ebay,${new Date(t).toISOString()},${s.price[i]},PSA,${cell.grade},psa-apr-${p.ids[c]?.[i]},`,
        );
      }
    });
  }
  await writeLines(observations, lines);
  const store = await storeModule.openStore(join(dir, 'real-sales.db'), { create: true });
  try {
    const now = Math.floor(last / DAY + 1) * DAY;
    await ingestFile(store, catalog, 'catalog', now);
    await ingestFile(store, observations, 'observations', now);
    return store;
  } catch (error) {
    await store.close();
    throw error;
  }
}

/**
 * One scored sale: its price, each method's prediction (METHODS order; NaN: none), our basis,
 * and our 80 % interval (NaN: not priced) with the age in days of the newest observation it rests on.
 * @typedef {{ product: string, cell: string, at: string, sale: number, prices: number[], basis: number, low: number, high: number, ageDays: number, points: number }} ScoredSale
 */

/**
 * Predicts every kept sale that has an earlier sale of its card (any grade) from the days before
 * its own: our engine at the start of the sale's day (`oracle price --at` that instant, the
 * default window and outlier filter) and the four alternatives on the cell's own earlier sales.
 * @param {RealSales} data
 * @param {string} dir where the SQLite file goes
 * @returns {Promise<{ sales: ScoredSale[], firstOfCard: number, bundles: number }>}
 */
export async function scoreSales(data, dir) {
  const store = await loadSales(data, dir);
  try {
    const priced = pricing.createPricing(store);
    /** @type {ScoredSale[]} */
    const sales = [];
    let firstOfCard = 0;
    let bundles = 0;
    for (const p of data.products) {
      const stored = await priced.productByKey(p.key);
      const all = p.cells.flatMap((s) => Array.from(s.t));
      if (all.length === 0) continue;
      const start = Math.floor(Math.min(...all) / DAY) * DAY - DAY;
      const end = Math.max(...all) + DAY;
      const tracks = p.cells.map((s) => (s.t.length === 0 ? null : sevenDayTrack(s, start, end)));
      const days = [...new Set(all.map((t) => Math.floor(t / DAY) * DAY))].sort((a, b) => a - b);
      for (const day of days) {
        const t = day + PREDICT_HOUR_UTC * HOUR;
        const today = p.cells.map((s) => ({ from: lowerBound(s.t, t), to: lowerBound(s.t, t + DAY) }));
        if (day === days[0]) {
          for (const { from, to } of today) firstOfCard += to - from;
          continue;
        }
        bundles++;
        const bundle = await priced.price(
          stored,
          { windowHours: WINDOW_HOURS, outlierStddevs: OUTLIER_STDDEVS, asOf: t },
          null,
        );
        for (const [c, { from, to }] of today.entries()) {
          const cell = /** @type {import('./model.js').Cell} */ (CELLS[c]);
          const series = /** @type {Series} */ (p.cells[c]);
          if (from === to || cell.grade === null) continue;
          const slot = bundle.graded.PSA[/** @type {'7' | '8' | '9' | '10'} */ (String(cell.grade))];
          const track = tracks[c];
          const prices = [
            slot.price_minor,
            mean24(series, t),
            median24(series, t),
            codaBlend(series, t),
            track === null || track === undefined ? null : sevenDayAt(track, t, start),
          ].map((x) => (x === null ? Number.NaN : x));
          const { basis } = basisOf(slot);
          const band = /** @type {{ low_minor: number, high_minor: number } | undefined} */ (
            slot.meta.confidence
          );
          const newest = /** @type {string | undefined} */ (slot.meta.newest_observation_at);
          const interval = {
            low: band?.low_minor ?? Number.NaN,
            high: band?.high_minor ?? Number.NaN,
            ageDays: newest === undefined ? Number.NaN : (t - Date.parse(newest)) / DAY,
            points: slot.included_points,
          };
          for (let i = from; i < to; i++) {
            sales.push({
              product: p.key,
              cell: cell.key,
              at: new Date(/** @type {number} */ (series.t[i])).toISOString(),
              sale: /** @type {number} */ (series.price[i]),
              prices,
              basis,
              ...interval,
            });
          }
        }
      }
    }
    return { sales, firstOfCard, bundles };
  } finally {
    await store.close();
  }
}

/**
 * Each method's errors against the sales: on the sales every method predicts (common), and on
 * all it predicts; ours also by basis. The ranking is by median error on the common sales.
 * @param {ScoredSale[]} sales
 */
export function summarizeSales(sales) {
  const common = sales.filter((s) => s.prices.every((p) => !Number.isNaN(p)));
  /** @param {ScoredSale[]} list @param {number} m */
  const errorsOf = (list, m) =>
    list
      .filter((s) => !Number.isNaN(/** @type {number} */ (s.prices[m])))
      .map((s) => relativeError(/** @type {number} */ (s.prices[m]), s.sale));
  const view = (/** @type {ScoredSale[]} */ list) =>
    METHODS.map((method, m) => {
      const errors = summarizeErrors(errorsOf(list, m));
      return {
        id: method.id,
        label: method.label,
        errors,
        coverage: sales.length === 0 ? null : (100 * errors.n) / sales.length,
      };
    });
  const commonView = view(common);
  const ranking = [...commonView]
    .sort((a, b) => (a.errors.mdape ?? Infinity) - (b.errors.mdape ?? Infinity))
    .map((r) => r.id);
  const bases = BASES.map((basis, b) => ({
    basis,
    errors: summarizeErrors(
      errorsOf(
        sales.filter((s) => s.basis === b),
        ENGINE,
      ),
    ),
  }));
  const banded = sales.filter((s) => !Number.isNaN(s.low));
  return {
    sales: sales.length,
    common: common.length,
    interval: {
      n: banded.length,
      holds:
        banded.length === 0
          ? null
          : (100 * banded.filter((s) => s.low <= s.sale && s.sale <= s.high).length) / banded.length,
    },
    views: { common: commonView, all: view(sales) },
    ranking,
    bases,
    unpriced: sales.filter((s) => s.basis === UNPRICED).length,
  };
}

/**
 * Our prediction of every scored sale, one line each (NaN: not priced), for fitting the
 * interval's quantiles on real residuals (docs/methodology.md §9): the sale, our price and
 * 80 % interval, our basis, the age in days of the newest observation the price rests on, and
 * the cell's own points it used.
 * @param {ScoredSale[]} sales
 */
export function residualsCsv(sales) {
  const lines = sales.map((s) =>
    [
      s.product,
      s.cell,
      s.at,
      s.sale,
      s.prices[ENGINE],
      s.low,
      s.high,
      BASES[s.basis] ?? '',
      s.ageDays.toFixed(3),
      s.points,
    ].join(','),
  );
  return `${['product,cell,at,sale_minor,ours_minor,low_minor,high_minor,basis,age_days,points', ...lines].join('\n')}\n`;
}

/** @param {number | null} v */
const pct = (v) => (v === null ? 'n/a' : v >= 100 ? v.toFixed(0) : v.toFixed(1));

/**
 * The real-sales results as Markdown.
 * @param {RealSales} data
 * @param {Awaited<ReturnType<typeof scoreSales>>} scored
 * @param {ReturnType<typeof summarizeSales>} summary
 */
export function renderSales(data, scored, summary) {
  const skipped = Object.entries(data.skipped)
    .map(([reason, n]) => `${n} ${reason}`)
    .join(', ');
  const table = (/** @type {ReturnType<typeof summarizeSales>['views']['all']} */ rows) =>
    [
      '| method | MdAPE % | P90 % | P99 % | > 25 % off | median signed error % | coverage % | n |',
      '|---|---|---|---|---|---|---|---|',
      ...rows.map((r) => {
        const e = r.errors;
        const bias = e.bias === null ? 'n/a' : `${e.bias > 0 ? '+' : ''}${e.bias.toFixed(1)}`;
        return `| ${r.label} | ${pct(e.mdape)} | ${pct(e.p90)} | ${pct(e.p99)} | ${pct(e.over25)} | ${bias} | ${pct(r.coverage)} | ${e.n} |`;
      }),
    ].join('\n');
  const label = (/** @type {string} */ id) => METHODS.find((m) => m.id === id)?.label ?? id;
  return [
    `${data.files.length} files, ${data.kept} sales of PSA 7-10 kept (left out: ${skipped === '' ? 'none' : skipped}); ` +
      `${summary.sales} predicted (the other ${scored.firstOfCard} sold on their card's first day of sales, with nothing before them), ` +
      `${summary.common} of them by every method; ${scored.bundles} engine bundles. Error = |prediction - sale| / sale.`,
    '',
    '#### Sales every method predicts',
    '',
    table(summary.views.common),
    '',
    `Ranking by median error on these sales: ${summary.ranking.map(label).join(' < ')}.`,
    '',
    '#### Every sale each method predicts',
    '',
    table(summary.views.all),
    '',
    `Our 80 % interval holds the sale it predicts in ${pct(summary.interval.holds)} % of the ${summary.interval.n} sales we price.`,
    '',
    `Ours by basis: ${summary.bases.map((b) => `${b.basis} ${b.errors.n} sales, MdAPE ${pct(b.errors.mdape)} %, P99 ${pct(b.errors.p99)} %`).join('; ')}; ${summary.unpriced} not priced.`,
    '',
  ].join('\n');
}
