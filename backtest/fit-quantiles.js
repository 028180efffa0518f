#!/usr/bin/env node
// @ts-check
/**
 * `node backtest/fit-quantiles.js <residuals.ndjson> [--kind sales|guide|all]`
 *
 * Re-fits the interval's prediction quantiles (PREDICTION_QUANTILE, docs/methodology.md §9)
 * from the residuals `npm run backtest -- --real-sales <dir> --residuals <file>` writes, on the
 * `fit` points only (backtest/corpora/splits.js), and says what the new table would hold on the
 * `held out` ones: split-conformal, so that no held-out point shapes the width it is judged by.
 *
 * A point's interval is e^(c ± q · f · √(var + s²)) (§9): with c and the half-width read back
 * from its low and high, its standardised residual is |ln(point) - c| / half · q, q being the
 * quantile the run used for its column (own data or other cells) and age row (the record's
 * `quantile`). The new q of a
 * row is the 80 % quantile (type 7) of its fit points' standardised residuals; a row with fewer
 * than MIN_POINTS keeps the normal quantile, and a row never gets a narrower interval than a
 * younger one (a price from older data is no surer). Needs `npm run build` (the table's rows and
 * the normal quantile come from build/; each residual carries the quantile its interval used).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SPLIT_LABELS } from './corpora/splits.js';
import { quantileCell } from './lib/walk-forward.js';

/** A row fitted on fewer points keeps CONFIDENCE_Z: an 80 % quantile of fewer is mostly noise. */
export const MIN_POINTS = 100;

/**
 * @typedef {object} Residual what fit-quantiles reads of a residual line
 * @property {string} corpus
 * @property {'sales' | 'guide'} kind
 * @property {'fit' | 'held out'} split
 * @property {number} realised_minor
 * @property {number} price_minor
 * @property {number | null} low_minor
 * @property {number | null} high_minor
 * @property {number} points
 * @property {number} newest_age_days
 * @property {number} quantile the quantile its interval was made with
 */

/** @typedef {readonly (readonly [number, number, number])[]} QuantileTable */

/** A table's entry; NaN outside it. @param {QuantileTable} table @param {number} row @param {number} column */
const entry = (table, row, column) => table[row]?.[column] ?? Number.NaN;

/** @param {QuantileTable} table @param {Residual} r */
const cellOf = (table, r) => quantileCell(table, r.newest_age_days, r.points);

/**
 * The standardised residual of a point with an interval, under the quantile its run used.
 * @param {Residual} r
 */
export function standardised(r) {
  const lo = Math.log(/** @type {number} */ (r.low_minor));
  const hi = Math.log(/** @type {number} */ (r.high_minor));
  const half = (hi - lo) / 2;
  return half > 0 ? (Math.abs(Math.log(r.realised_minor) - (lo + hi) / 2) / half) * r.quantile : Infinity;
}

/** @param {number[]} xs @param {number} p type 7 */
function quantile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  const h = (s.length - 1) * p;
  const lo = Math.floor(h);
  const a = s[lo] ?? Number.NaN;
  return a + (h - lo) * ((s[Math.min(lo + 1, s.length - 1)] ?? a) - a);
}

/**
 * The new table from the fit points, and the fit of every row.
 * @param {QuantileTable} table the table whose rows and columns are fitted
 * @param {Residual[]} fitPoints
 * @param {number} level the interval's level (0.8)
 * @param {number} normal its normal quantile, for rows with too few points
 */
export function fitTable(table, fitPoints, level, normal) {
  /** @type {{ row: number, column: number, n: number, raw: number | null }[]} */
  const fits = [];
  const next = table.map(([days], row) => {
    /** @type {[number, number, number]} */
    const out = [days, normal, normal];
    for (const column of [1, 2]) {
      const zs = fitPoints
        .filter((r) => {
          const c = cellOf(table, r);
          return c.row === row && c.column === column;
        })
        .map((r) => standardised(r));
      const raw = zs.length >= MIN_POINTS ? quantile(zs, level) : null;
      fits.push({ row, column, n: zs.length, raw });
      out[column] = raw === null ? normal : Math.round(raw * 100) / 100;
    }
    return out;
  });
  for (let row = 1; row < next.length; row++)
    for (const column of [1, 2]) {
      const older = next[row];
      if (older !== undefined)
        older[column] = Math.max(entry(next, row, column), entry(next, row - 1, column));
    }
  return { table: /** @type {QuantileTable} */ (next), fits };
}

/**
 * Share of points whose interval, its quantile replaced by `to`'s, holds the point (ends
 * included, as the harness counts): its ends moved to e^(c ± half · q_to / q_run), rounded to
 * the cent and widened to contain the price, as the engine does; an unchanged quantile keeps
 * its ends. Without `to`, the intervals as the run made them.
 * @param {Residual[]} points
 * @param {QuantileTable} [to]
 */
export function coverage(points, to) {
  if (points.length === 0) return null;
  const held = points.filter((r) => {
    const { row, column } = cellOf(to ?? [], r);
    const k = to === undefined ? 1 : entry(to, row, column) / r.quantile;
    let low = /** @type {number} */ (r.low_minor);
    let high = /** @type {number} */ (r.high_minor);
    if (k !== 1) {
      const c = (Math.log(low) + Math.log(high)) / 2;
      const half = ((Math.log(high) - Math.log(low)) / 2) * k;
      low = Math.min(r.price_minor, Math.round(Math.exp(c - half)));
      high = Math.max(r.price_minor, Math.round(Math.exp(c + half)));
    }
    return low <= r.realised_minor && r.realised_minor <= high;
  }).length;
  return held / points.length;
}

/** @param {string} file */
export function readResiduals(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => /** @type {Residual} */ (JSON.parse(line)))
    .filter((r) => r.low_minor !== null && r.high_minor !== null && typeof r.quantile === 'number');
}

const isMain = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { kind: { type: 'string', default: 'sales' } },
  });
  const file = positionals[0];
  if (file === undefined || !['sales', 'guide', 'all'].includes(values.kind)) {
    console.error('usage: node backtest/fit-quantiles.js <residuals.ndjson> [--kind sales|guide|all]');
    process.exit(2);
  }
  /** @type {typeof import('../src/engine/methodology.js')} */
  const methodology = await import(new URL('../build/engine/methodology.js', import.meta.url).href);
  const { PREDICTION_QUANTILE: table, CONFIDENCE_LEVEL, CONFIDENCE_Z } = methodology;
  const all = readResiduals(file);
  const fitPoints = all.filter((r) => r.split === 'fit' && (values.kind === 'all' || r.kind === values.kind));
  const fitted = fitTable(table, fitPoints, CONFIDENCE_LEVEL, CONFIDENCE_Z);
  const age = (/** @type {number} */ row) =>
    row === 0
      ? `up to ${entry(table, 0, 0)} days`
      : `${entry(table, row - 1, 0)}-${entry(table, row, 0)} days`.replace('-Infinity days', ' days on');
  console.log(`Fitted on the ${fitPoints.length} fit points of ${values.kind} corpora in ${file}\n`);
  console.log('| newest observation | column | fit points | 80 % quantile | in the build | new |');
  console.log('|---|---|---|---|---|---|');
  for (const f of fitted.fits)
    console.log(
      `| ${age(f.row)} | ${f.column === 1 ? 'own data' : 'other cells'} | ${f.n} | ${f.raw === null ? '-' : f.raw.toFixed(3)} | ${entry(table, f.row, f.column)} | ${entry(fitted.table, f.row, f.column)} |`,
    );
  console.log('\n| corpus | split | intervals | hold now | would hold with the new table |');
  console.log('|---|---|---|---|---|');
  const corpora = [...new Set(all.map((r) => r.corpus))].sort();
  for (const corpus of corpora)
    for (const split of SPLIT_LABELS) {
      const points = all.filter((r) => r.corpus === corpus && r.split === split);
      if (points.length === 0) continue;
      const pct = (/** @type {number | null} */ x) => (x === null ? '-' : `${(x * 100).toFixed(1)} %`);
      console.log(
        `| ${corpus} | ${split} | ${points.length} | ${pct(coverage(points))} | ${pct(coverage(points, fitted.table))} |`,
      );
    }
  console.log(`\nPREDICTION_QUANTILE = ${JSON.stringify(fitted.table).replace(/null/g, 'Infinity')}`);
}
