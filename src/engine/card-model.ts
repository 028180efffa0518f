/**
 * The card model (docs/methodology.md §6): every priced condition of a card is the card's
 * level times the condition's calibrated ratio to PSA 10 (§7). Each condition with data
 * implies a card level; the levels are cross-checked
 * (a thin cell with a typo disagrees with the rest and is set aside; a cell with enough
 * points of its own is evidence in itself and never set aside), pooled by precision,
 * and every cell gets a prediction from the card's other conditions. A cell's price is its
 * own estimate and that prediction weighted by their precisions, so plentiful own data
 * takes (nearly) all the weight and a cell without data is priced from the rest.
 */
import {
  GRADERS,
  MATRIX_GRADES,
  POOLED_GRADER,
  PRICED_CONDITIONS,
  UNGRADED,
  conditionKey,
} from '../domain/conditions.js';
import type { SlotMeta } from '../domain/bundle.js';
import type { ConditionTable } from './calibration.js';
import type { Estimate, LogEstimate } from './estimate.js';
import {
  BLEND_GAP_WEIGHT,
  CROSS_CHECK_MAX_POINTS,
  CROSS_CHECK_SIGMAS,
  FALLBACK_TIER,
  MIN_DISPERSION,
  OWN_BASIS_MIN_WEIGHT,
  OWN_EVIDENCE_MIN_POINTS,
  OWN_FULL_WEIGHT_POINTS,
  PREDICTION_HUBER_K,
  PREDICTION_HUBER_PASSES,
  type FallbackTier,
} from './methodology.js';

/** How one condition was priced. */
export interface CellPrice {
  /** The price (ln cents) and its variance, after the blend; null when the cell has no price. */
  estimate: LogEstimate | null;
  own: Estimate | null;
  /** True when the cross-check set the own estimate aside. */
  rejected: boolean;
  /** Weight of the own estimate in the price (0 without own data, 1 without a prediction). */
  ownWeight: number;
  /** The prediction from the card's other conditions, or null when it has none. */
  prediction: LogEstimate | null;
  tier: FallbackTier | null;
  /**
   * The blend's ln price when own evidence first (§6.6) moved it into the range of the cell's
   * kept window points (carried by the card's move, §6.1), else null.
   */
  heldFrom: number | null;
}

/** Whether a slot's price is a measurement of its own cell or an estimate (§6.6, `meta.basis`). */
export type Basis = NonNullable<SlotMeta['basis']>;
/** Why a priced slot is an estimate (§6.6, `meta.basis_reason`). */
export type BasisReason = NonNullable<SlotMeta['basis_reason']>;

const N = PRICED_CONDITIONS.length;
const UNGRADED_INDEX = PRICED_CONDITIONS.indexOf(UNGRADED);
/** Per condition: index of its grader in GRADERS (4 for ANY, -1 for ungraded) and its grade (0 for ungraded). */
const GRADER_OF = new Int8Array(N).fill(-1);
const GRADE_OF = new Int8Array(N);
[...GRADERS, POOLED_GRADER].forEach((grader, gi) =>
  MATRIX_GRADES.forEach((grade) => {
    const c = PRICED_CONDITIONS.indexOf(conditionKey(grader, grade));
    GRADER_OF[c] = gi;
    GRADE_OF[c] = grade;
  }),
);

/** Index of a condition key in PRICED_CONDITIONS (the order of `own` and of the result). */
export function conditionIndex(condition: string): number {
  return PRICED_CONDITIONS.indexOf(condition);
}

/** Lower weighted median of the values at `members` (weights > 0). */
function weightedMedian(values: Float64Array, weights: Float64Array, members: number[]): number {
  const order = [...members].sort((a, b) => values[a]! - values[b]!);
  let total = 0;
  for (const c of order) total += weights[c]!;
  let acc = 0;
  for (const c of order) {
    acc += weights[c]!;
    if (acc >= total / 2) return values[c]!;
  }
  return values[order[order.length - 1]!]!;
}

/** The cross-check of §6.1-§6.2: each condition's implied card level, the card's level, and which were set aside. */
export interface CardLevels {
  /** Implied PSA 10 level (ln cents) and its variance per condition (indexed like PRICED_CONDITIONS; 0 without an estimate). */
  z: Float64Array;
  v: Float64Array;
  /** Conditions with an own estimate. */
  members: number[];
  /** The card's level: the lower weighted median of the members' z; null with fewer than two members. */
  level: number | null;
  rejected: boolean[];
}

/** The implied levels and the cross-check of the own estimates (§6.1-§6.2). */
export function cardLevels(own: readonly (Estimate | null)[], table: ConditionTable): CardLevels {
  const z = new Float64Array(N);
  const v = new Float64Array(N);
  const members: number[] = [];
  for (let c = 0; c < N; c++) {
    const e = own[c];
    if (e == null) continue;
    const d = Math.max(table.dispersion[c]!, MIN_DISPERSION);
    z[c] = e.mean - table.logRatio[c]!;
    v[c] = e.variance + d * d;
    members.push(c);
  }
  const rejected = new Array<boolean>(N).fill(false);
  let level: number | null = null;
  if (members.length >= 2) {
    const precision = new Float64Array(N);
    for (const c of members) precision[c] = 1 / v[c]!;
    level = weightedMedian(z, precision, members);
    for (const c of members) {
      rejected[c] =
        own[c]!.included < CROSS_CHECK_MAX_POINTS &&
        !own[c]!.loneQuote &&
        !own[c]!.followed &&
        Math.abs(z[c]! - level) > CROSS_CHECK_SIGMAS * Math.sqrt(v[c]!);
    }
  }
  return { z, v, members, level, rejected };
}

/** The price of every condition from the own estimates (indexed like PRICED_CONDITIONS). */
export function priceCard(own: readonly (Estimate | null)[], table: ConditionTable): CellPrice[] {
  const { members, rejected } = cardLevels(own, table);
  const used = members.filter((c) => !rejected[c]);
  const scratch = new Float64Array(2 * N);
  const result: CellPrice[] = [];
  for (let c = 0; c < N; c++) {
    const prediction = predict(c, used, own, table, scratch);
    const e = own[c] ?? null;
    const ownUsable = e !== null && !rejected[c];
    let estimate: LogEstimate | null = prediction;
    let ownWeight = 0;
    let heldFrom: number | null = null;
    if (ownUsable) {
      ownWeight =
        prediction === null || plentiful(e) || e.loneQuote || e.followed ? 1 : blendWeight(e, prediction);
      estimate = prediction === null ? e : combine(e, prediction, ownWeight);
      const held = withinOwnRange(e, estimate.mean);
      if (held !== estimate.mean) {
        heldFrom = estimate.mean;
        estimate = { ...estimate, mean: held };
      }
    }
    const tier =
      ownUsable || estimate === null ? null : rejected[c] ? FALLBACK_TIER.crossCheck : tierOf(c, used);
    result.push({ estimate, own: e, rejected: rejected[c]!, ownWeight, prediction, tier, heldFrom });
  }
  return result;
}

/**
 * Own evidence first (§6.6): a ln price moved into the range of the cell's kept points in the
 * requested window, shifted by the card's move when one was carried (§6.1), when it holds at
 * least OWN_EVIDENCE_MIN_POINTS of them; else the price unchanged.
 */
export function withinOwnRange(e: Estimate, mean: number): number {
  if (e.windowKept < OWN_EVIDENCE_MIN_POINTS) return mean;
  const shift = e.carry?.move ?? 0;
  return Math.min(Math.max(mean, e.windowLo + shift), e.windowHi + shift);
}

/**
 * `meta.basis` of a priced cell (§6.6): `own` when its price rests on its own observations of
 * the 30 days (at least OWN_EVIDENCE_MIN_POINTS kept in the window, or at least
 * OWN_BASIS_MIN_WEIGHT of the blend) and no move of the card was carried into it; else
 * `estimated`, with the reason.
 */
export function basisOf(cell: CellPrice): { basis: Basis; reason: BasisReason | null } {
  const own = cell.ownWeight > 0 ? cell.own : null;
  if (own === null) return { basis: 'estimated', reason: 'other_conditions' };
  if (own.old) return { basis: 'estimated', reason: 'last_known' };
  if (own.carry !== null) return { basis: 'estimated', reason: 'carried' };
  if (own.windowKept < OWN_EVIDENCE_MIN_POINTS && cell.ownWeight < OWN_BASIS_MIN_WEIGHT)
    return { basis: 'estimated', reason: 'pooled' };
  return { basis: 'own', reason: null };
}

/** Own data that is priced alone: enough kept points in the requested window. */
export function plentiful(e: Estimate): boolean {
  return e.windowKept >= OWN_FULL_WEIGHT_POINTS;
}

/**
 * Weight of the own estimate against the prediction: their precisions, the prediction's
 * scaled by k/|r| when the two lie r > PREDICTION_HUBER_K standard deviations apart (the card
 * is unusual: its own data says so, and the usual ratio must not pull it far).
 */
function blendWeight(own: LogEstimate, prediction: LogEstimate): number {
  const r = Math.abs(own.mean - prediction.mean) / Math.sqrt(own.variance + prediction.variance);
  const predPrecision = (r > PREDICTION_HUBER_K ? PREDICTION_HUBER_K / r : 1) / prediction.variance;
  return 1 / own.variance / (1 / own.variance + predPrecision);
}

/** The precision-weighted blend of an own estimate and a prediction. */
function combine(a: LogEstimate, b: LogEstimate, wa: number): LogEstimate {
  return {
    mean: wa * a.mean + (1 - wa) * b.mean,
    // 1 / (own precision + the prediction's, as weighted) = wa · own variance, plus the share
    // of the squared gap between the two that the blend cannot resolve (§6.4).
    variance: wa * a.variance + BLEND_GAP_WEIGHT * wa * (1 - wa) * (a.mean - b.mean) ** 2,
    start: Math.min(a.start, b.start),
    extended: a.extended || b.extended,
    newestAt: Math.max(a.newestAt, b.newestAt),
  };
}

/**
 * Condition c predicted from the other used conditions of its closest evidence class (the same
 * grade at other graders, else the same grader's other grades, else the rest): each one's own
 * estimate carried to c through the calibrated ratios (a piece), with the variance of its
 * estimate plus the pair's spread between cards. Every piece's error holds c's own deviation
 * from the usual ratio, so the smallest pair spread² (the shared part) is taken out of each
 * piece's weight and added back to the pool's variance: pieces of one card cannot average
 * their common error away, and a loose pair (fitted on few cards) cannot outvote the close
 * one. Pieces far from the pool lose weight (Huber, PREDICTION_HUBER_PASSES passes).
 */
export function predict(
  c: number,
  used: readonly number[],
  own: readonly (Estimate | null)[],
  table: ConditionTable,
  scratch: Float64Array,
  record?: PredictionRecord,
): LogEstimate | null {
  let count = 0;
  const from: number[] | undefined = record && [];
  let shared = Infinity;
  let start = Infinity;
  let extended = false;
  let newestAt = -Infinity;
  const closest = closestClass(c, used);
  // scratch: piece values at [0, N), their variances at [N, 2N).
  for (const j of used) {
    if (j === c || evidenceClass(c, j) !== closest) continue;
    const e = own[j]!;
    const d = Math.max(table.pairDispersion[c * N + j]!, MIN_DISPERSION);
    scratch[count] = e.mean - table.logRatio[j]! + table.logRatio[c]!;
    scratch[N + count] = e.variance + d * d;
    shared = Math.min(shared, d * d);
    start = Math.min(start, e.start);
    extended ||= e.extended;
    newestAt = Math.max(newestAt, e.newestAt);
    from?.push(j);
    count++;
  }
  if (count === 0) return null;
  let mean = 0;
  let precision = 0;
  for (let pass = 0; pass <= PREDICTION_HUBER_PASSES; pass++) {
    let sum = 0;
    let total = 0;
    for (let i = 0; i < count; i++) {
      const sd = Math.sqrt(scratch[N + i]!);
      const r = pass === 0 ? 0 : Math.abs(scratch[i]! - mean) / sd;
      const w = (r > PREDICTION_HUBER_K ? PREDICTION_HUBER_K / r : 1) / (scratch[N + i]! - shared);
      if (from && pass === PREDICTION_HUBER_PASSES)
        record!.pieces.push({
          condition: from[i]!,
          value: scratch[i]!,
          variance: scratch[N + i]!,
          weight: w,
        });
      sum += w * scratch[i]!;
      total += w;
    }
    mean = sum / total;
    precision = total;
  }
  if (record) record.shared = shared;
  return { mean, variance: shared + 1 / precision, start, extended, newestAt };
}

/** One piece of a prediction as it entered the pool's last pass (for `oracle explain`). */
export interface PredictionPiece {
  /** Index of the condition it came from (PRICED_CONDITIONS). */
  condition: number;
  /** ln cents carried to the predicted cell, its variance, and its final (Huber) weight. */
  value: number;
  variance: number;
  weight: number;
}

/** The pieces of a prediction and the shared part of their variance (for `oracle explain`). */
export interface PredictionRecord {
  pieces: PredictionPiece[];
  /** The smallest pair spread² among the pieces: the error they all share (§6.3). */
  shared: number;
}

/** How close condition j is to c as evidence: 0 the same grade (another grader or ANY), 1 the same grader, 2 anything else. */
function evidenceClass(c: number, j: number): number {
  if (c === UNGRADED_INDEX || j === UNGRADED_INDEX) return 2;
  if (GRADE_OF[j] === GRADE_OF[c]) return 0;
  return GRADER_OF[j] === GRADER_OF[c] ? 1 : 2;
}

/** The closest evidence class among the used conditions other than c (3 when there is none). */
function closestClass(c: number, used: readonly number[]): number {
  let best = 3;
  for (const j of used) if (j !== c) best = Math.min(best, evidenceClass(c, j));
  return best;
}

/** The fallback tier of a cell priced by prediction alone: its closest evidence class. */
function tierOf(c: number, used: readonly number[]): FallbackTier {
  if (c === UNGRADED_INDEX) return FALLBACK_TIER.gradedRatio;
  return [FALLBACK_TIER.graderPremium, FALLBACK_TIER.gradeRatio, FALLBACK_TIER.cardLevel][
    closestClass(c, used)
  ]!;
}

/** Own estimates only (sealed products, §6.5): each cell from its own points (held to their range, §6.6) or not at all. */
export function priceOwnOnly(own: readonly (Estimate | null)[]): CellPrice[] {
  return own.map((e) => {
    if (e === null)
      return {
        estimate: null,
        own: null,
        rejected: false,
        ownWeight: 0,
        prediction: null,
        tier: null,
        heldFrom: null,
      };
    const held = withinOwnRange(e, e.mean);
    const estimate = held === e.mean ? e : { ...e, mean: held };
    return {
      estimate,
      own: e,
      rejected: false,
      ownWeight: 1,
      prediction: null,
      tier: null,
      heldFrom: held === e.mean ? null : e.mean,
    };
  });
}
