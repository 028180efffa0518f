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

/** Grader and condition key of ungraded observations: a raw card, near mint or better (SPEC.md). */
export const UNGRADED = 'ungraded';

/**
 * The played conditions of a raw card, below near mint: TCGplayer's scale (Lightly Played,
 * Moderately Played, Heavily Played, Damaged), which eBay's ungraded Card Condition values
 * follow (Lightly Played (Excellent), Moderately Played (Very Good), Heavily Played (Poor)).
 * A raw sale in one of them is stored under the grader `RAW-LP`, `RAW-MP`, `RAW-HP` or
 * `RAW-DMG` without a grade, condition key `raw-lp` ...: kept as evidence, never in the
 * ungraded (near-mint) price, which reads only PRICED_CONDITIONS. docs/feeds.md, "Raw condition".
 */
export const PLAYED_CONDITIONS = ['LP', 'MP', 'HP', 'DMG'] as const;
export type PlayedCondition = (typeof PLAYED_CONDITIONS)[number];

/** The grader value of a raw card sold in a played condition: `RAW-LP`. */
export function playedGrader(condition: PlayedCondition): string {
  return `RAW-${condition}`;
}

const PLAYED_GRADERS: ReadonlySet<string> = new Set(PLAYED_CONDITIONS.map(playedGrader));

/** True for `RAW-LP`, `RAW-MP`, `RAW-HP`, `RAW-DMG` (upper case, as graders are stored): a raw card, no grade. */
export function isPlayedGrader(grader: string): boolean {
  return PLAYED_GRADERS.has(grader);
}

/**
 * The condition key stored with each observation and shown in slots:
 * `ungraded`, lowercase grader plus grade (`psa10`, `any9`, `bgs9.5`, `tag10`), or a played
 * raw card's lowercase grader (`raw-lp`). Graders are normalised to upper case before they
 * get here.
 */
export function conditionKey(grader: string, grade: number | null): string {
  if (grade === null) return isPlayedGrader(grader) ? grader.toLowerCase() : UNGRADED;
  if (grader === UNGRADED) return UNGRADED;
  return `${grader.toLowerCase()}${grade}`;
}

/** Condition keys of every cell the engine reads: ungraded, 4 graders x 4 grades, pooled 7-10. */
export const PRICED_CONDITIONS: readonly string[] = [
  UNGRADED,
  ...GRADERS.flatMap((g) => MATRIX_GRADES.map((n) => conditionKey(g, n))),
  ...MATRIX_GRADES.map((n) => conditionKey(POOLED_GRADER, n)),
];
