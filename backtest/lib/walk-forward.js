// @ts-check
/**
 * The real-data backtest (issue 31, docs/backtest.md "Real sales: five corpora, walk-forward"):
 * every point of a corpus (a sale, or a guide's quote) with at least ASKED_MIN_EARLIER earlier
 * points of its slot is predicted from the points before the start of its UTC day, never from
 * its own day's, by our engine (the service call of `oracle price --at` that instant, on the
 * corpus ingested by `oracle ingest`'s pipeline) and by what collectors do: the last sale (the
 * last quote on a guide series), the median of the last 3 and of the last 5, the 30-day median.
 *
 * A corpus is a directory of corpus.json, catalog.csv and observations.csv (backtest/corpora/).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_SPLITS, splitOf, SPLIT_LABELS } from '../corpora/splits.js';
import { lowerBound } from './alternatives.js';
import { csv, methodology, pricing, store as storeModule } from './built.js';
import { ingestFile, writeLines } from './load.js';
import { prepareStore } from './prepare.js';
import { relativeError, sortedQuantile, summarizeErrors } from './metrics.js';
import { DAY, GRADERS, GRADES, OUTLIER_STDDEVS, WINDOW_HOURS } from './model.js';
import { BASES, basisOf, confidenceOf, slotOf, UNPRICED } from './score.js';

/** A point is asked about (scored) when its slot has at least this many points before its day. */
export const ASKED_MIN_EARLIER = 2;
/** The 30-day median's span. */
const MEDIAN_SPAN_MS = 30 * DAY;

/**
 * The methods, ours first; `last` reads "last quote" on a guide series. The medians take the
 * last n points when fewer exist (at least one: every asked point has two).
 */
export const WF_METHODS = /** @type {const} */ ([
  { id: 'engine', label: 'ours' },
  { id: 'last', label: 'last sale' },
  { id: 'median3', label: 'median of last 3' },
  { id: 'median5', label: 'median of last 5' },
  { id: 'median30d', label: '30-day median' },
]);
export const WF_ENGINE = 0;

/**
 * @typedef {object} SlotSeries one slot of a product: its points in time order
 * @property {string} product
 * @property {{ grader: string | null, grade: number | null }} cell the engine's slot (model.js Cell shape)
 * @property {string} slot `ungraded` or grader + grade (`psa10`)
 * @property {Float64Array} t epoch ms
 * @property {Float64Array} price US cents
 */

/**
 * @typedef {object} CorpusData
 * @property {string} name
 * @property {'sales' | 'guide'} kind
 * @property {string} dir
 * @property {Record<string, unknown>} meta corpus.json
 * @property {SlotSeries[]} slots
 * @property {number} points observations read into a slot
 * @property {Record<string, number>} unslotted observations of a grade the engine has no slot for, by grader and grade
 */

/**
 * The corpus directories at `path`: `path` itself when it holds corpus.json, else each of its
 * subdirectories that does (sorted). Throws when there is none.
 * @param {string} path
 */
export function corpusDirs(path) {
  if (!existsSync(path)) throw new Error(`--real-sales ${path}: no such file or directory`);
  if (existsSync(join(path, 'corpus.json'))) return [path];
  const dirs = readdirSync(path, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(path, e.name, 'corpus.json')))
    .map((e) => join(path, e.name))
    .sort();
  if (dirs.length === 0)
    throw new Error(
      `--real-sales ${path}: no corpus there (a directory of corpus.json, catalog.csv and observations.csv, ` +
        'or a directory of such directories: node backtest/corpora/convert.js makes them)',
    );
  return dirs;
}

/**
 * Reads a corpus directory's observations into slot series.
 * @param {string} dir
 * @returns {CorpusData}
 */
export function readCorpus(dir) {
  const meta = JSON.parse(readFileSync(join(dir, 'corpus.json'), 'utf8'));
  if (typeof meta.name !== 'string' || (meta.kind !== 'sales' && meta.kind !== 'guide'))
    throw new Error(`${dir}/corpus.json: needs a name and a kind (sales or guide)`);
  /** @type {string[][]} */
  const records = [];
  const file = join(dir, 'observations.csv');
  const parser = new csv.CsvParser(file, (fields) => records.push(fields));
  parser.push(readFileSync(file, 'utf8'));
  parser.end();
  const header = records.shift() ?? [];
  const col = (/** @type {string} */ name) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`${file}: no ${name} column`);
    return i;
  };
  const [cKey, cAt, cPrice, cGrader, cGrade] = [
    col('product_key'),
    col('observed_at'),
    col('price_minor'),
    col('grader'),
    col('grade'),
  ];
  /** @type {Map<string, { product: string, grader: string | null, grade: number | null, points: [number, number][] }>} */
  const bySlot = new Map();
  /** @type {Record<string, number>} */
  const unslotted = {};
  let points = 0;
  for (const r of records) {
    const grader = (r[cGrader] ?? '').toUpperCase() || null;
    const grade = grader === null ? null : Number(r[cGrade]);
    const known =
      grader === null ||
      (GRADERS.includes(/** @type {any} */ (grader)) && GRADES.includes(/** @type {any} */ (grade)));
    if (!known) {
      const label = `${grader} ${r[cGrade]}`;
      unslotted[label] = (unslotted[label] ?? 0) + 1;
      continue;
    }
    const product = /** @type {string} */ (r[cKey]);
    const key = `${product}\u0000${grader ?? ''}${grade ?? ''}`;
    let s = bySlot.get(key);
    if (s === undefined) bySlot.set(key, (s = { product, grader, grade, points: [] }));
    s.points.push([Date.parse(/** @type {string} */ (r[cAt])), Number(r[cPrice])]);
    points++;
  }
  const slots = [...bySlot.values()]
    .map((s) => {
      const sorted = s.points.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      return {
        product: s.product,
        cell: { grader: s.grader, grade: s.grade },
        slot: s.grader === null ? 'ungraded' : `${s.grader.toLowerCase()}${s.grade}`,
        t: Float64Array.from(sorted, (p) => p[0]),
        price: Float64Array.from(sorted, (p) => p[1]),
      };
    })
    .sort((a, b) => a.product.localeCompare(b.product) || a.slot.localeCompare(b.slot));
  return { name: meta.name, kind: meta.kind, dir, meta, slots, points, unslotted };
}

/** @param {Float64Array} price @param {number} from @param {number} to */
const medianOf = (price, from, to) =>
  to <= from ? Number.NaN : sortedQuantile(price.slice(from, to).sort(), 0.5);

/**
 * The collectors' methods (WF_METHODS after ours) for `s` at cut `t`, from its points before `t`.
 * @param {SlotSeries} s
 * @param {number} t
 */
export function collectorPrices(s, t) {
  const i = lowerBound(s.t, t);
  return [
    i > 0 ? /** @type {number} */ (s.price[i - 1]) : Number.NaN,
    medianOf(s.price, Math.max(0, i - 3), i),
    medianOf(s.price, Math.max(0, i - 5), i),
    medianOf(s.price, lowerBound(s.t, t - MEDIAN_SPAN_MS), i),
  ];
}

/**
 * One scored point.
 * @typedef {object} ScoredPoint
 * @property {string} product
 * @property {string} slot
 * @property {number} t epoch ms of the point
 * @property {number} sale its price, US cents
 * @property {'fit' | 'held out'} split
 * @property {number[]} prices per method (WF_METHODS order), NaN: not priced
 * @property {number} low ours: the 80 % interval, NaN when absent
 * @property {number} high
 * @property {number} basis BASES index, UNPRICED when ours gave no price
 * @property {number} points the slot's points before the cut
 * @property {number} newestAgeDays age of the newest of them at the cut, days
 * @property {number} included ours: `included_points`
 */

/**
 * Loads a corpus into a fresh SQLite file in `dir` through the ingest pipeline, at the day after
 * its last point. Without `calibrate` no calibration runs: the engine prices with its priors.
 * With it, the operator's `oracle calibrate` (prepare.js) runs once on the corpus's fit span
 * alone (splits.js): the catalog and the points before the split date are ingested, calibrated
 * at that date, then the rest ingested, so the calibration never sees a held-out point. A corpus
 * held out whole has no span to fit on and is not calibrated (`calibrated` false).
 * @param {CorpusData} corpus
 * @param {string} dir
 * @param {{ calibrate?: boolean }} [options]
 */
export async function loadCorpus(corpus, dir, options = {}) {
  mkdirSync(dir, { recursive: true });
  let last = 0;
  for (const s of corpus.slots) last = Math.max(last, s.t[s.t.length - 1] ?? 0);
  const fitBefore = CORPUS_SPLITS[corpus.name]?.fitBefore ?? null;
  const calibrateAt =
    options.calibrate === true && fitBefore !== null ? Date.parse(`${fitBefore}T00:00:00Z`) : null;
  const store = await storeModule.openStore(join(dir, `${corpus.name}.db`), { create: true });
  try {
    const now = Math.floor(last / DAY + 1) * DAY;
    const observations = join(corpus.dir, 'observations.csv');
    if (calibrateAt === null) {
      await ingestFile(store, join(corpus.dir, 'catalog.csv'), 'catalog', now);
      await ingestFile(store, observations, 'observations', now);
      return { store, calibrated: /** @type {string[] | null} */ (null) };
    }
    const [header, ...lines] = readFileSync(observations, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    const at = (header ?? '').split(',').indexOf('observed_at');
    const before = (/** @type {string} */ line) => Date.parse(line.split(',')[at] ?? '') < calibrateAt;
    const fitFile = join(dir, `${corpus.name}.fit.csv`);
    const restFile = join(dir, `${corpus.name}.held-out.csv`);
    await writeLines(fitFile, [header ?? '', ...lines.filter(before)]);
    await writeLines(restFile, [header ?? '', ...lines.filter((line) => !before(line))]);
    await ingestFile(store, join(corpus.dir, 'catalog.csv'), 'catalog', calibrateAt);
    await ingestFile(store, fitFile, 'observations', calibrateAt);
    const { steps } = await prepareStore(store, calibrateAt);
    await ingestFile(store, restFile, 'observations', now);
    return { store, calibrated: steps };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/**
 * Scores every asked point of the corpus: one engine bundle per (product, day) with an asked
 * point, at the start of that UTC day.
 * @param {CorpusData} corpus
 * @param {string} dir where the SQLite file goes
 * @param {{ calibrate?: boolean }} [options] calibrate on the fit span first (loadCorpus)
 * @returns {Promise<{ scored: ScoredPoint[], notAsked: number, bundles: number, calibrated: string[] | null }>}
 */
export async function scoreCorpus(corpus, dir, options = {}) {
  const { store, calibrated } = await loadCorpus(corpus, dir, options);
  try {
    const priced = pricing.createPricing(store);
    /** @type {ScoredPoint[]} */
    const scored = [];
    let notAsked = 0;
    let bundles = 0;
    /** @type {Map<string, SlotSeries[]>} */
    const byProduct = new Map();
    for (const s of corpus.slots) byProduct.set(s.product, [...(byProduct.get(s.product) ?? []), s]);
    for (const [product, slots] of byProduct) {
      const stored = await priced.productByKey(product);
      const days = [...new Set(slots.flatMap((s) => Array.from(s.t, (t) => Math.floor(t / DAY) * DAY)))].sort(
        (a, b) => a - b,
      );
      for (const day of days) {
        const asked = slots
          .map((s) => ({ s, from: lowerBound(s.t, day), to: lowerBound(s.t, day + DAY) }))
          .filter(({ from, to }) => to > from);
        for (const { from, to } of asked) if (from < ASKED_MIN_EARLIER) notAsked += to - from;
        const due = asked.filter(({ from }) => from >= ASKED_MIN_EARLIER);
        if (due.length === 0) continue;
        bundles++;
        const bundle = await priced.price(
          stored,
          { windowHours: WINDOW_HOURS, outlierStddevs: OUTLIER_STDDEVS, asOf: day },
          null,
        );
        for (const { s, from, to } of due) {
          const slot = slotOf(
            bundle,
            /** @type {import('./model.js').Cell} */ (/** @type {unknown} */ (s.cell)),
          );
          const interval = confidenceOf(slot);
          const prices = [slot.price_minor ?? Number.NaN, ...collectorPrices(s, day)];
          for (let i = from; i < to; i++) {
            const t = /** @type {number} */ (s.t[i]);
            scored.push({
              product,
              slot: s.slot,
              t,
              sale: /** @type {number} */ (s.price[i]),
              split: splitOf(corpus.name, t),
              prices,
              low: interval?.low ?? Number.NaN,
              high: interval?.high ?? Number.NaN,
              basis: basisOf(slot).basis,
              points: from,
              newestAgeDays: (day - /** @type {number} */ (s.t[from - 1])) / DAY,
              included: slot.included_points,
            });
          }
        }
      }
    }
    return { scored, notAsked, bundles, calibrated };
  } finally {
    await store.close();
  }
}

/**
 * A corpus's figures on a set of scored points: per method the share of them priced and its
 * errors on the points every method prices (common) and on all it prices; ours by basis; the
 * share of our 80 % intervals that hold the point.
 * @param {ScoredPoint[]} points
 */
export function summarizeScored(points) {
  const common = points.filter((p) => p.prices.every((x) => !Number.isNaN(x)));
  /** @param {ScoredPoint[]} list @param {number} m */
  const errorsOf = (list, m) =>
    list
      .filter((p) => !Number.isNaN(/** @type {number} */ (p.prices[m])))
      .map((p) => relativeError(/** @type {number} */ (p.prices[m]), p.sale));
  const methods = WF_METHODS.map((method, m) => {
    const all = summarizeErrors(errorsOf(points, m));
    return {
      id: method.id,
      priced: points.length === 0 ? null : (100 * all.n) / points.length,
      common: summarizeErrors(errorsOf(common, m)),
      all,
    };
  });
  const withInterval = points.filter((p) => !Number.isNaN(p.low) && !Number.isNaN(p.high));
  const held = withInterval.filter((p) => p.low <= p.sale && p.sale <= p.high).length;
  return {
    asked: points.length,
    common: common.length,
    methods,
    interval: {
      n: withInterval.length,
      holds: withInterval.length === 0 ? null : (100 * held) / withInterval.length,
    },
    bases: BASES.map((basis, b) => ({
      basis,
      n: points.filter((p) => p.basis === b).length,
    })),
    withheld: points.filter((p) => p.basis === UNPRICED).length,
  };
}

/**
 * The corpus's summary per split (only the splits it has points in) and over all its points.
 * @param {ScoredPoint[]} scored
 */
export function summarizeBySplit(scored) {
  return [
    ...SPLIT_LABELS.map((split) => ({ split, ...summarizeScored(scored.filter((p) => p.split === split)) })),
    { split: 'all', ...summarizeScored(scored) },
  ].filter((s) => s.asked > 0);
}

/** @param {number | null} v */
const pct = (v) => (v === null ? 'n/a' : v >= 100 ? v.toFixed(0) : v.toFixed(1));

/**
 * One corpus's results as Markdown.
 * @param {CorpusData} corpus
 * @param {Awaited<ReturnType<typeof scoreCorpus>>} result
 * @param {ReturnType<typeof summarizeBySplit>} splits
 * @param {string} splitRule
 */
export function renderCorpus(corpus, result, splits, splitRule) {
  const label = (/** @type {string} */ id) =>
    id === 'last' && corpus.kind === 'guide'
      ? 'last quote'
      : (WF_METHODS.find((m) => m.id === id)?.label ?? id);
  const unslotted = Object.entries(corpus.unslotted)
    .map(([what, n]) => `${n} ${what}`)
    .join(', ');
  const m = corpus.meta;
  return [
    `### ${corpus.name}`,
    '',
    `${String(m.description ?? '')}. Source: ${String(m.repo)} \`${String(m.path)}\` at ${String(m.commit).slice(0, 12)} (${String(m.licence)}). ` +
      `${corpus.points} ${corpus.kind === 'guide' ? 'quotes' : 'sales'} of ${corpus.slots.length} slots` +
      (unslotted === '' ? '' : ` (left out, no slot of ours: ${unslotted})`) +
      `; ${result.scored.length} asked (2+ earlier points of their slot), ${result.notAsked} not; ${result.bundles} engine bundles. Split: ${splitRule}.` +
      (result.calibrated === null
        ? ''
        : ` Calibrated on the fit span first: ${result.calibrated.join('; ')}.`),
    '',
    '| split | method | priced % | common MdAPE % | P90 % | P99 % | > 25 % off | all MdAPE % | P90 % | P99 % | > 25 % off |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...splits.flatMap((s) =>
      s.methods.map(
        (r) =>
          `| ${s.split} | ${label(r.id)} | ${pct(r.priced)} | ${pct(r.common.mdape)} | ${pct(r.common.p90)} | ${pct(r.common.p99)} | ${pct(r.common.over25)} | ${pct(r.all.mdape)} | ${pct(r.all.p90)} | ${pct(r.all.p99)} | ${pct(r.all.over25)} |`,
      ),
    ),
    '',
    '| split | asked | common set | ours: own / estimated / withheld | our 80 % interval holds the next point | intervals |',
    '|---|---|---|---|---|---|',
    ...splits.map(
      (s) =>
        `| ${s.split} | ${s.asked} | ${s.common} | ${s.bases.map((b) => b.n).join(' / ')} / ${s.withheld} | ${pct(s.interval.holds)} % | ${s.interval.n} |`,
    ),
    '',
  ].join('\n');
}

/**
 * Where a point's interval width came from in a quantile table (PREDICTION_QUANTILE's shape,
 * looked up as src/engine/slot.ts's predictionQuantile does): the row of the age of the newest
 * point, the column 1 for a slot with points of its own, 2 for one priced from other cells.
 * @param {readonly (readonly [number, number, number])[]} table
 * @param {number} newestAgeDays
 * @param {number} points
 */
export const quantileCell = (table, newestAgeDays, points) => ({
  row: table.findIndex(([days]) => newestAgeDays <= days),
  column: points > 0 ? 1 : 2,
});

/**
 * A scored point as a residual record (`--residuals`, one JSON object a line): what a
 * calibration of the interval is fitted on.
 * @param {string} corpus
 * @param {'sales' | 'guide'} kind the corpus's: quotes and sales are fitted apart (backtest/fit-quantiles.js)
 * @param {ScoredPoint} p
 */
export function residualRecord(corpus, kind, p) {
  const num = (/** @type {number} */ x) => (Number.isNaN(x) ? null : x);
  const { row, column } = quantileCell(methodology.PREDICTION_QUANTILE, p.newestAgeDays, p.points);
  return {
    corpus,
    kind,
    split: p.split,
    product: p.product,
    slot: p.slot,
    at: new Date(p.t).toISOString(),
    realised_minor: p.sale,
    price_minor: num(/** @type {number} */ (p.prices[WF_ENGINE])),
    low_minor: num(p.low),
    high_minor: num(p.high),
    basis: p.basis === UNPRICED ? null : BASES[p.basis],
    points: p.points,
    newest_age_days: p.newestAgeDays,
    // The quantile this run's interval used (PREDICTION_QUANTILE), so that a re-fit reads the
    // residuals whatever table it runs with.
    quantile: methodology.PREDICTION_QUANTILE[row]?.[column] ?? null,
    included_points: p.included,
    methods: Object.fromEntries(
      WF_METHODS.slice(1).map((m, i) => [m.id, num(/** @type {number} */ (p.prices[i + 1]))]),
    ),
  };
}
