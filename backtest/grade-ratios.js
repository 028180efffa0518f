#!/usr/bin/env node
// @ts-check
/**
 * `node backtest/grade-ratios.js [--guide <csv>]... [--sold-medians <csv>]... [--min-volume <n>] [--min-sales <n>]`
 *
 * The evidence behind the simulator's grade ratios (docs/backtest.md, "Grade ratios in real price
 * guides"): per-card ratios between grades in real price guides and sold medians, as P10 / median
 * / P90 over cards, beside the simulated market's (seed 1, full scale). Reads:
 * - `--guide`: a PriceCharting / SportsCardsPro download (`loose-price`, `graded-price`,
 *   `manual-only-price`, ... with `sales-volume`), or the same columns renamed (`ungraded`,
 *   `psa_9`, `psa_10`, ...); `--min-volume` keeps rows with at least that `sales-volume`;
 * - `--sold-medians`: median sold prices per card (`raw_price_usd`, `psa9_price_usd`,
 *   `psa10_price_usd` with their `*_sample_count`); `--min-sales` keeps cards with at least that
 *   many PSA 9 and PSA 10 sales.
 * A guide fills a thin grade with a fixed multiple of another; for the grader 10s only the rows
 * off the file's most common ratio (by more than OFF_FORMULA) are counted.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { csv } from './lib/built.js';
import { planProducts } from './lib/market.js';
import { cellIndex } from './lib/model.js';
import { sortedQuantile } from './lib/metrics.js';

/** A grader-10 ratio this far (relative) from the file's most common one is read as priced from sales. */
const OFF_FORMULA = 0.02;

/** Column names of the conditions, per file layout. */
const LAYOUTS = [
  {
    ungraded: 'loose-price',
    psa7: 'cib-price',
    psa8: 'new-price',
    psa9: 'graded-price',
    psa10: 'manual-only-price',
    bgs10: 'bgs-10-price',
    cgc10: 'condition-17-price',
    sgc10: 'condition-18-price',
  },
  {
    ungraded: 'ungraded',
    psa7: 'psa_7',
    psa8: 'psa_8',
    psa9: 'psa_9',
    psa10: 'psa_10',
    bgs10: 'bgs_10',
    cgc10: 'cgc_10',
    sgc10: 'sgc_10',
  },
  { ungraded: 'raw_price_usd', psa9: 'psa9_price_usd', psa10: 'psa10_price_usd' },
];
/** @typedef {'ungraded' | 'psa7' | 'psa8' | 'psa9' | 'psa10' | 'bgs10' | 'cgc10' | 'sgc10'} Condition */
/** The ratios reported: [label, numerator, denominator, only off the fixed multiple]. */
/** @type {[string, Condition, Condition, boolean][]} */
const RATIOS = [
  ['PSA 9 / PSA 10', 'psa9', 'psa10', false],
  ['PSA 8 / PSA 10', 'psa8', 'psa10', false],
  ['PSA 7 / PSA 10', 'psa7', 'psa10', false],
  ['PSA 10 / ungraded', 'psa10', 'ungraded', false],
  ['CGC 10 / PSA 10', 'cgc10', 'psa10', true],
  ['SGC 10 / PSA 10', 'sgc10', 'psa10', true],
];

/** @param {string} path @returns {Record<string, string>[]} */
function readCsv(path) {
  /** @type {string[][]} */
  const records = [];
  const parser = new csv.CsvParser(path, (fields) => records.push(fields));
  parser.push(readFileSync(path, 'utf8'));
  parser.end();
  const header = records.shift() ?? [];
  return records.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

/** `$1,406.91`, `1406.91` or empty as a number; null unless > 0. @param {string | undefined} text */
function amount(text) {
  const v = Number((text ?? '').replace(/[$,]/g, ''));
  return text && v > 0 ? v : null;
}

/** @param {number[]} values */
function quantiles(values) {
  const s = Float64Array.from(values).sort();
  const p10 = sortedQuantile(s, 0.1);
  const p90 = sortedQuantile(s, 0.9);
  return { n: values.length, p10, p50: sortedQuantile(s, 0.5), p90, spread: p90 / p10 };
}

/** @param {number} v */
const fmt = (v) => (v >= 10 ? v.toFixed(1) : v.toFixed(3));

/**
 * @param {string} source
 * @param {Record<string, string>[]} rows
 */
function report(source, rows) {
  const layout = LAYOUTS.find((l) => rows[0] !== undefined && l.psa10 in /** @type {object} */ (rows[0]));
  if (layout === undefined) throw new Error(`${source}: no known price columns`);
  const price = (/** @type {Record<string, string>} */ row, /** @type {Condition} */ c) => {
    const column = /** @type {Record<string, string | undefined>} */ (layout)[c];
    return column === undefined ? null : amount(row[column]);
  };
  for (const [label, top, bottom, offFormula] of RATIOS) {
    let values = rows.flatMap((r) => {
      const a = price(r, top);
      const b = price(r, bottom);
      return a !== null && b !== null ? [a / b] : [];
    });
    if (offFormula && values.length > 0) {
      const counts = new Map();
      for (const v of values) counts.set(v.toFixed(2), (counts.get(v.toFixed(2)) ?? 0) + 1);
      const mode = Number([...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0]);
      values = values.filter((v) => Math.abs(v - mode) > OFF_FORMULA * mode);
    }
    if (values.length < 5) continue;
    const q = quantiles(values);
    console.log(
      `| ${label} | ${source}${offFormula ? ', off the fixed multiple' : ''} | ${q.n} | ${fmt(q.p10)} | ${fmt(q.p50)} | ${fmt(q.p90)} | ${q.spread.toFixed(1)} |`,
    );
  }
}

const { values } = parseArgs({
  options: {
    guide: { type: 'string', multiple: true, default: [] },
    'sold-medians': { type: 'string', multiple: true, default: [] },
    'min-volume': { type: 'string', default: '0' },
    'min-sales': { type: 'string', default: '0' },
  },
});
console.log('| ratio, per card | source | cards | P10 | median | P90 | P90 / P10 |');
console.log('|---|---|---|---|---|---|---|');
const minVolume = Number(values['min-volume']);
for (const path of values.guide) {
  const rows = readCsv(path).filter(
    (r) => !('sales-volume' in r) || Number(r['sales-volume'] || 0) >= minVolume,
  );
  report(`${path}${minVolume > 0 ? `, sales-volume >= ${minVolume}` : ''}`, rows);
}
const minSales = Number(values['min-sales']);
for (const path of values['sold-medians']) {
  const rows = readCsv(path).filter(
    (r) => Number(r.psa9_sample_count) >= minSales && Number(r.psa10_sample_count) >= minSales,
  );
  report(`${path}${minSales > 0 ? `, >= ${minSales} sales each` : ''}`, rows);
}
// The simulated market's cards, as the backtest draws them.
for (const era of ['modern', 'vintage']) {
  const plans = planProducts('1', 'full', null).filter(
    (p) => p.productType === 'single_card' && p.era === era,
  );
  const ratio = (/** @type {number} */ a, /** @type {number} */ b) =>
    plans.map((p) =>
      Math.exp(/** @type {number} */ (p.logMultiple[a]) - /** @type {number} */ (p.logMultiple[b])),
    );
  const psa10 = cellIndex(0, 3);
  /** @type {[string, number[]][]} */
  const simulated = [
    ['PSA 9 / PSA 10', ratio(cellIndex(0, 2), psa10)],
    ['PSA 8 / PSA 10', ratio(cellIndex(0, 1), psa10)],
    ['PSA 7 / PSA 10', ratio(cellIndex(0, 0), psa10)],
    ['PSA 10 / ungraded', ratio(psa10, 0)],
    ['CGC 10 / PSA 10', ratio(cellIndex(2, 3), psa10)],
    ['SGC 10 / PSA 10', ratio(cellIndex(3, 3), psa10)],
  ];
  for (const [label, v] of simulated) {
    const q = quantiles(v);
    console.log(
      `| ${label} | simulator, ${era} (seed 1, full) | ${q.n} | ${fmt(q.p10)} | ${fmt(q.p50)} | ${fmt(q.p90)} | ${q.spread.toFixed(1)} |`,
    );
  }
}
