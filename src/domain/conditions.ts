/**
 * Card conditions: the ungraded (near-mint equivalent) condition, the four graders
 * the matrix prices, and the pooled `ANY` grader that carries market-level band
 * signals (a price guide's "grade 9" column). See CONTRACT.md, observation records.
 */

/** Graders priced in the matrix, in the order SPEC.md 2.1 lists them. */
export const GRADERS = ['PSA', 'BGS', 'CGC', 'SGC'] as const;
export type Grader = (typeof GRADERS)[number];

/** Grades the matrix prices. Other grades (1-6, halves) are stored but not priced. */
export const MATRIX_GRADES = [7, 8, 9, 10] as const;
export type MatrixGrade = (typeof MATRIX_GRADES)[number];
export type MatrixGradeKey = '7' | '8' | '9' | '10';

/** Grader value for a grade pooled across graders; feeds the composite band. */
export const POOLED_GRADER = 'ANY';

/** Grader and condition key of ungraded observations. */
export const UNGRADED = 'ungraded';

/**
 * The condition key stored with each observation and shown in slots:
 * `ungraded`, or lowercase grader plus grade (`psa10`, `any9`, `bgs9.5`, `tag10`).
 * Graders are normalised to upper case before they get here.
 */
export function conditionKey(grader: string, grade: number | null): string {
  if (grader === UNGRADED || grade === null) return UNGRADED;
  return `${grader.toLowerCase()}${grade}`;
}

/** Condition keys of every cell the engine reads: ungraded, 4 graders x 4 grades, pooled 7-10. */
export const PRICED_CONDITIONS: readonly string[] = [
  UNGRADED,
  ...GRADERS.flatMap((g) => MATRIX_GRADES.map((n) => conditionKey(g, n))),
  ...MATRIX_GRADES.map((n) => conditionKey(POOLED_GRADER, n)),
];
