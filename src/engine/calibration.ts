/**
 * Grader premiums and grade ratios (docs/methodology.md §7): for every priced condition, the
 * typical ln(price / PSA 10 price) of a card of an era and how much it varies between cards.
 * `fitCalibration` fits them from the catalog's own current levels (pure: the caller reads
 * the store); `calibrationFor` merges a stored fit with the documented priors (§7.3): each fit
 * shrunk toward its prior by the products it rests on, the other graders' priors taken relative
 * to the fitted PSA ladder, each grader's ladder monotone, and no spread below its prior's.
 */
import {
  GRADERS,
  MATRIX_GRADES,
  POOLED_GRADER,
  PRICED_CONDITIONS,
  UNGRADED,
  conditionKey,
} from '../domain/conditions.js';
import { ERAS, type Era } from '../domain/product.js';
import { CALIBRATION_PRIOR_PRODUCTS, MAD_TO_SIGMA } from './methodology.js';
import { median } from './stats.js';

/** One condition of one era: ln(price / PSA 10 price) across cards, its robust spread, products seen. */
export interface CalibratedCell {
  logRatio: number;
  dispersion: number;
  products: number;
}

/** The spread between cards of ln(price of a / price of b) for a pair of conditions "a|b" (a before b in PRICED_CONDITIONS). */
export interface CalibratedPair {
  dispersion: number;
  products: number;
}

/** One era of a calibration: per priced condition and per pair (absent: not enough data). */
export interface CalibratedEra {
  cells: Partial<Record<string, CalibratedCell>>;
  pairs: Partial<Record<string, CalibratedPair>>;
}

/** What `oracle calibrate` stores. */
export interface Calibration {
  /** The instant the fit read observations before (epoch ms). */
  asOf: number;
  eras: Record<Era, CalibratedEra>;
}

/** The table the engine prices with: every condition and pair, from the fit or the prior. */
export interface ConditionTable {
  logRatio: Float64Array;
  dispersion: Float64Array;
  /** Spread between cards of ln(P_a / P_b), at [a * N + b] (symmetric; N = PRICED_CONDITIONS.length). */
  pairDispersion: Float64Array;
  /** True where the ratio is the documented prior, unfitted (no product of the condition). */
  prior: boolean[];
}

/** §7.1 Priors: price / PSA 10 price per grade and era (the v1 ratio tables). */
export const PRIOR_GRADE_RATIOS: Readonly<
  Record<Era, Readonly<Record<'7' | '8' | '9' | 'ungraded', number>>>
> = {
  modern: { 7: 0.2, 8: 0.3, 9: 0.45, ungraded: 0.15 },
  vintage: { 7: 0.06, 8: 0.12, 9: 0.25, ungraded: 0.04 },
};
/** §7.1 Priors: grade-10 price of a grader / PSA 10 price (grades 7-9 and `ANY`: 1). */
export const PRIOR_GRADER_PREMIUMS: Readonly<Record<string, number>> = {
  PSA: 1,
  BGS: 1.1,
  CGC: 0.6,
  SGC: 0.7,
};
/** §7.1 Spread (ln units) of a condition's ratio to PSA 10 between cards, where only a prior is known. */
export const PRIOR_DISPERSION = 0.5;
/**
 * §7.1 Spread (ln units) of ln(P_a / P_b) between cards where only a prior is known: the same
 * grade at two graders moves together most, then two grades of one grader, then the rest;
 * ungraded against any graded condition least (the share of gem-mint copies differs by card).
 */
export const PRIOR_PAIR_DISPERSION = {
  sameGrade: 0.2,
  sameGrader: 0.25,
  graded: 0.35,
  ungraded: 0.5,
} as const;

function priorPairDispersion(a: string, b: string): number {
  if (a === UNGRADED || b === UNGRADED) return PRIOR_PAIR_DISPERSION.ungraded;
  const grade = (c: string) => c.replace(/^[a-z]+/, '');
  const grader = (c: string) => c.replace(/\d+$/, '');
  if (grade(a) === grade(b)) return PRIOR_PAIR_DISPERSION.sameGrade;
  if (grader(a) === grader(b)) return PRIOR_PAIR_DISPERSION.sameGrader;
  return PRIOR_PAIR_DISPERSION.graded;
}

/** The key of a pair in `CalibratedEra.pairs`: the two conditions in PRICED_CONDITIONS order. */
export function pairKey(a: number, b: number): string {
  return a < b
    ? `${PRICED_CONDITIONS[a]}|${PRICED_CONDITIONS[b]}`
    : `${PRICED_CONDITIONS[b]}|${PRICED_CONDITIONS[a]}`;
}

function priorLogRatio(era: Era, condition: string): number {
  if (condition === UNGRADED) return Math.log(PRIOR_GRADE_RATIOS[era].ungraded);
  const grade = Number(condition.replace(/^[a-z]+/, ''));
  const grader = condition.replace(/\d+$/, '').toUpperCase();
  const gradeRatio = grade === 10 ? 1 : PRIOR_GRADE_RATIOS[era][String(grade) as '7' | '8' | '9'];
  const premium = grade === 10 && grader !== POOLED_GRADER ? PRIOR_GRADER_PREMIUMS[grader]! : 1;
  return Math.log(gradeRatio * premium);
}

/** Tables made so far, per calibration (NO_CALIBRATION: the priors alone) and era. */
const tables = new WeakMap<object, Partial<Record<Era, ConditionTable>>>();
const NO_CALIBRATION = {};

/**
 * The table for one era: the fit where it saw enough products, else the prior. Made once per
 * calibration and era, then shared (every bundle prices with one, and making it is a
 * large share of a bundle's work): callers only read it, and a calibration is
 * never changed once parsed.
 */
export function calibrationFor(calibration: Calibration | null, era: Era): ConditionTable {
  const key = calibration ?? NO_CALIBRATION;
  let byEra = tables.get(key);
  if (byEra === undefined) tables.set(key, (byEra = {}));
  return (byEra[era] ??= makeTable(calibration, era));
}

function makeTable(calibration: Calibration | null, era: Era): ConditionTable {
  const n = PRICED_CONDITIONS.length;
  const table: ConditionTable = {
    logRatio: new Float64Array(n),
    dispersion: new Float64Array(n),
    pairDispersion: new Float64Array(n * n),
    prior: [],
  };
  const fit = calibration?.eras[era];
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      if (a === b) continue;
      const prior = priorPairDispersion(PRICED_CONDITIONS[a]!, PRICED_CONDITIONS[b]!);
      const pair = fit?.pairs[pairKey(a, b)];
      table.pairDispersion[a * n + b] =
        pair === undefined ? prior : atLeastPrior(shrink(pair.dispersion, prior, pair.products), prior);
    }
  }
  // Each cell's weight in the ladder's monotone fit: its products plus the prior's worth.
  const weight = new Float64Array(n);
  const fitCell = (c: number, priorLogRatio: number) => {
    const fitted = fit?.cells[PRICED_CONDITIONS[c]!];
    const products = fitted?.products ?? 0;
    table.logRatio[c] =
      fitted === undefined ? priorLogRatio : shrink(fitted.logRatio, priorLogRatio, products);
    table.dispersion[c] =
      fitted === undefined
        ? PRIOR_DISPERSION
        : atLeastPrior(shrink(fitted.dispersion, PRIOR_DISPERSION, products), PRIOR_DISPERSION);
    table.prior[c] = fitted === undefined;
    weight[c] = products + CALIBRATION_PRIOR_PRODUCTS;
  };
  // PSA's ladder and ungraded toward the documented priors first, made monotone; then every
  // other grader (and ANY) toward PSA's fitted ladder times its prior premium, so a grader seen
  // on few cards keeps its documented place relative to PSA's fitted grades.
  fitCell(PRICED_CONDITIONS.indexOf(UNGRADED), priorLogRatio(era, UNGRADED));
  const psa = MATRIX_GRADES.map((g) => PRICED_CONDITIONS.indexOf(conditionKey('PSA', g)));
  for (const c of psa) fitCell(c, priorLogRatio(era, PRICED_CONDITIONS[c]!));
  monotone(psa, table.logRatio, weight);
  for (const grader of [...GRADERS, POOLED_GRADER]) {
    if (grader === 'PSA') continue;
    const ladder = MATRIX_GRADES.map((g) => PRICED_CONDITIONS.indexOf(conditionKey(grader, g)));
    ladder.forEach((c, g) => {
      const premium =
        priorLogRatio(era, PRICED_CONDITIONS[c]!) - priorLogRatio(era, PRICED_CONDITIONS[psa[g]!]!);
      fitCell(c, table.logRatio[psa[g]!]! + premium);
    });
    monotone(ladder, table.logRatio, weight);
  }
  return table;
}

/** A fit seen on `products` products shrunk toward its prior (§7.3). */
function shrink(fitted: number, prior: number, products: number): number {
  const w = products / (products + CALIBRATION_PRIOR_PRODUCTS);
  return w * fitted + (1 - w) * prior;
}

/**
 * A spread never below its prior's (§7.3): the interval's quantiles (§9) were fitted on real
 * residuals of prices made with the prior spreads, so a narrower fitted spread would narrow
 * the interval below what those residuals support.
 */
function atLeastPrior(spread: number, prior: number): number {
  return Math.max(spread, prior);
}

/**
 * The weighted least-squares monotone (non-decreasing) fit of `values` at the indexes of one
 * grader's ladder, grade 7 first (pool adjacent violators): no grade priced above a higher one.
 */
function monotone(ladder: readonly number[], values: Float64Array, weight: Float64Array): void {
  const blocks: { mean: number; weight: number; size: number }[] = [];
  for (const c of ladder) {
    blocks.push({ mean: values[c]!, weight: weight[c]!, size: 1 });
    while (blocks.length > 1 && blocks[blocks.length - 2]!.mean > blocks[blocks.length - 1]!.mean) {
      const b = blocks.pop()!;
      const a = blocks[blocks.length - 1]!;
      a.mean = (a.mean * a.weight + b.mean * b.weight) / (a.weight + b.weight);
      a.weight += b.weight;
      a.size += b.size;
    }
  }
  let i = 0;
  for (const block of blocks) for (let k = 0; k < block.size; k++) values[ladder[i++]!] = block.mean;
}

/** One product's current level per priced condition (ln cents; NaN where it has none). */
export interface ProductLevels {
  era: Era;
  levels: Float64Array;
}

const PSA10 = PRICED_CONDITIONS.indexOf(conditionKey('PSA', 10));
const POLISH_ROUNDS = 10;

/**
 * Median polish per era (§7.2): ln level(product, condition) = card level + condition offset,
 * each fitted as the median of the other's residuals, PSA 10 pinned at 0. A product needs two
 * conditions to say anything about their ratio. Dispersion = 1.4826 · MAD of the residuals;
 * a pair's dispersion = 1.4826 · MAD of ln(P_a / P_b) around the offsets' difference.
 */
export function fitCalibration(products: readonly ProductLevels[], asOf: number): Calibration {
  const eras = {} as Calibration['eras'];
  for (const era of ERAS) {
    const rows = products.filter(
      (p) => p.era === era && p.levels.filter((x) => !Number.isNaN(x)).length >= 2,
    );
    eras[era] = polish(rows.map((r) => r.levels));
  }
  return { asOf, eras };
}

function polish(rows: readonly Float64Array[]): CalibratedEra {
  const n = PRICED_CONDITIONS.length;
  const offset = new Float64Array(n);
  const level = new Float64Array(rows.length);
  const buf = new Float64Array(Math.max(rows.length, n));
  const cellMedian = (c: number, residual: (row: Float64Array, r: number) => number): number => {
    let m = 0;
    rows.forEach((row, r) => {
      if (!Number.isNaN(row[c]!)) buf[m++] = residual(row, r);
    });
    return m === 0 ? NaN : median(buf, m);
  };
  for (let round = 0; round < POLISH_ROUNDS; round++) {
    rows.forEach((row, r) => {
      let m = 0;
      for (let c = 0; c < n; c++) if (!Number.isNaN(row[c]!)) buf[m++] = row[c]! - offset[c]!;
      level[r] = median(buf, m);
    });
    for (let c = 0; c < n; c++) {
      const o = cellMedian(c, (row, r) => row[c]! - level[r]!);
      offset[c] = Number.isNaN(o) ? 0 : o;
    }
    const pin = offset[PSA10]!;
    for (let c = 0; c < n; c++) offset[c]! -= pin;
    for (let r = 0; r < rows.length; r++) level[r]! += pin;
  }
  const cells: Partial<Record<string, CalibratedCell>> = {};
  PRICED_CONDITIONS.forEach((condition, c) => {
    const products = rows.filter((row) => !Number.isNaN(row[c]!)).length;
    if (products === 0) return;
    const spread = cellMedian(c, (row, r) => Math.abs(row[c]! - level[r]! - offset[c]!));
    cells[condition] = { logRatio: offset[c]!, dispersion: MAD_TO_SIGMA * spread, products };
  });
  // Pairs: the spread of ln(P_a / P_b) around the offsets' difference, over products with both.
  const pairs: Partial<Record<string, CalibratedPair>> = {};
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      let m = 0;
      for (const row of rows) {
        if (Number.isNaN(row[a]!) || Number.isNaN(row[b]!)) continue;
        buf[m++] = Math.abs(row[a]! - row[b]! - (offset[a]! - offset[b]!));
      }
      if (m > 0) pairs[pairKey(a, b)] = { dispersion: MAD_TO_SIGMA * median(buf, m), products: m };
    }
  }
  return { cells, pairs };
}

/** Every condition the calibration covers, in display order (for `oracle calibration`). */
export const CALIBRATED_CONDITIONS: readonly string[] = [
  UNGRADED,
  ...MATRIX_GRADES.flatMap((g) => [...GRADERS, POOLED_GRADER].map((grader) => conditionKey(grader, g))),
];
