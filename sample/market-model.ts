/**
 * The market model behind the sample history: which conditions a product trades in, how a
 * condition's price relates to the ungraded price, and how sales spread over conditions.
 * The numbers are hobby rules of thumb, chosen for realistic shapes, not fitted to data.
 */
import { GRADERS, MATRIX_GRADES, POOLED_GRADER, type Grader } from '../src/domain/conditions.js';
import type { Era } from '../src/domain/product.js';

/** A condition as the observation CSV spells it: empty grader and grade for ungraded. */
export interface SampleCondition {
  grader: '' | Grader | typeof POOLED_GRADER;
  grade: number | null;
}

/** Every condition a product can carry: ungraded, the 16 matrix cells, then pooled ANY 7-10. */
export const SAMPLE_CONDITIONS: readonly SampleCondition[] = [
  { grader: '', grade: null },
  ...GRADERS.flatMap((grader) => MATRIX_GRADES.map((grade): SampleCondition => ({ grader, grade }))),
  ...MATRIX_GRADES.map((grade): SampleCondition => ({ grader: POOLED_GRADER, grade })),
];

/** Index of a condition in SAMPLE_CONDITIONS. */
export function conditionIndex(grader: SampleCondition['grader'], grade: number | null): number {
  const index = SAMPLE_CONDITIONS.findIndex((c) => c.grader === grader && c.grade === grade);
  if (index < 0) throw new Error(`no sample condition ${grader} ${grade}`);
  return index;
}

export const UNGRADED_CONDITION = 0;

/**
 * The columns of a PriceCharting-style guide, as its CSV maps to conditions (issue 5):
 * loose (ungraded), grades 7-9 pooled across graders, and one grade-10 column per grader.
 */
export const GUIDE_CONDITIONS: readonly number[] = [
  UNGRADED_CONDITION,
  conditionIndex(POOLED_GRADER, 7),
  conditionIndex(POOLED_GRADER, 8),
  conditionIndex(POOLED_GRADER, 9),
  ...GRADERS.map((grader) => conditionIndex(grader, 10)),
];

/**
 * Where each grade sits between the ungraded price (exponent 0) and the PSA 10 price
 * (exponent 1), on a log scale. Raw modern cards are near mint, so they trade about like a
 * PSA 8; raw vintage cards are mostly worn, so every grade is worth more than raw.
 */
const GRADE_EXPONENT: Record<Era, Record<number, number>> = {
  modern: { 7: -0.15, 8: 0, 9: 0.25, 10: 1 },
  vintage: { 7: 0.2, 8: 0.35, 9: 0.6, 10: 1 },
};

/**
 * Price of a grader's slab relative to PSA at the same grade: PSA and BGS 10 carry a gem
 * premium over CGC and SGC; at 7-9 the gap is small.
 */
const GRADER_FACTOR: Record<string, { gem: number; other: number }> = {
  PSA: { gem: 1, other: 1 },
  BGS: { gem: 1.1, other: 0.93 },
  CGC: { gem: 0.6, other: 0.82 },
  SGC: { gem: 0.62, other: 0.86 },
  // A guide's pooled column averages a PSA-heavy mix of slabs.
  [POOLED_GRADER]: { gem: 0.92, other: 0.96 },
};

/** Price of a condition as a multiple of the ungraded price, given the PSA 10 / ungraded ratio. */
export function conditionMultiplier(condition: SampleCondition, era: Era, gemRatio: number): number {
  if (condition.grade === null) return 1;
  const graderFactor = GRADER_FACTOR[condition.grader];
  if (!graderFactor) throw new Error(`no grader factor for ${condition.grader}`);
  const exponent = GRADE_EXPONENT[era][condition.grade] ?? 0;
  const factor = condition.grade === 10 ? graderFactor.gem : graderFactor.other;
  return gemRatio ** exponent * factor;
}

/** Graded sales per ungraded sale: vintage cards change hands mostly in slabs. */
const GRADED_SHARE: Record<Era, number> = { modern: 0.7, vintage: 1.5 };
/** PSA is the most liquid grader, SGC the thinnest. */
const GRADER_SHARE: Record<string, number> = { PSA: 0.6, BGS: 0.17, CGC: 0.15, SGC: 0.08 };
/** Modern slabs cluster at 9-10; vintage gems are rare. */
const GRADE_SHARE: Record<Era, Record<number, number>> = {
  modern: { 7: 0.1, 8: 0.2, 9: 0.35, 10: 0.35 },
  vintage: { 7: 0.3, 8: 0.32, 9: 0.28, 10: 0.1 },
};

/**
 * Expected marketplace sales a day in a condition, for a product selling
 * `ungradedPerDay` ungraded copies a day. Pooled ANY cells never sell: only guides quote them.
 */
export function salesRate(
  condition: SampleCondition,
  era: Era,
  ungradedPerDay: number,
  graded: boolean,
): number {
  if (condition.grade === null) return ungradedPerDay;
  if (!graded || condition.grader === POOLED_GRADER || condition.grader === '') return 0;
  const graderShare = GRADER_SHARE[condition.grader] ?? 0;
  const gradeShare = GRADE_SHARE[era][condition.grade] ?? 0;
  return ungradedPerDay * GRADED_SHARE[era] * graderShare * gradeShare;
}
