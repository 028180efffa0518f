/**
 * Card conditions: the ungraded (near-mint equivalent) condition, the four graders
 * the matrix prices, and the pooled `ANY` grader that carries market-level band
 * signals (a price guide's "grade 9" column). See CONTRACT.md, observation records.
 */

/** Graders priced in the matrix, in the order SPEC.md 2.1 lists them. */
export const GRADERS = ['PSA', 'BGS', 'CGC', 'SGC'] as const;
export type Grader = (typeof GRADERS)[number];

/** Grades the matrix prices. Other grades (1-6, halves) are extra grades (isExtraCondition), priced on request. */
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

/**
 * True for a condition key priced as an extra grade (CONTRACT.md additions 6): graded, not in
 * PRICED_CONDITIONS, not a played raw card. Half grades of any grader (`bgs9.5`), grades
 * below 7 (`psa6`), other graders (`tag10`, `ars10`), the tiers above a regular 10
 * (`cgc-pristine10`, `bgs-black10`) and pooled grades outside the matrix (`any9.5`, a price
 * guide's "grade 9.5" column).
 */
export function isExtraCondition(key: string): boolean {
  return (
    key !== UNGRADED &&
    !key.startsWith('raw-') &&
    !PRICED_CONDITIONS.includes(key) &&
    parseConditionKey(key) !== null
  );
}

/** A grade as stored: 1 to 10 in steps of 0.5. */
function isGrade(grade: number): boolean {
  return grade >= 1 && grade <= 10 && Number.isInteger(grade * 2);
}

/**
 * The grader (upper case) and grade of a graded condition key (`bgs9.5` -> BGS 9.5,
 * `cgc-pristine10` -> CGC-PRISTINE 10), or null for `ungraded`, a played raw card and any
 * other text. A grade is 1 to 10 in steps of 0.5, so the split is unique even for a grader
 * that ends in a digit.
 */
export function parseConditionKey(key: string): { grader: string; grade: number } | null {
  const m = /^([a-z][a-z0-9_-]*?)(10|[1-9](?:\.5)?)$/.exec(key);
  if (m === null) return null;
  return { grader: m[1]!.toUpperCase(), grade: Number(m[2]) };
}

/** How a condition key is shown: `ungraded`, `BGS 9.5`, `CGC-PRISTINE 10`, `RAW-LP`. */
export function conditionLabel(key: string): string {
  const graded = parseConditionKey(key);
  if (graded !== null) return `${graded.grader} ${graded.grade}`;
  return key === UNGRADED ? UNGRADED : key.toUpperCase();
}

/**
 * Words a person writes after a grader for a tier above a regular 10, to the grader value
 * observations use (the ingest keeps them apart the same way, title-grade.ts).
 */
const TIER_WORDS: readonly { grader: string; words: RegExp; tier: string }[] = [
  { grader: 'BGS', words: /^(black|black-?label|bl)$/, tier: 'BGS-BLACK' },
  { grader: 'CGC', words: /^(pristine|pr)$/, tier: 'CGC-PRISTINE' },
  { grader: 'CGC', words: /^perfect$/, tier: 'CGC-PERFECT' },
  { grader: 'SGC', words: /^(pristine|pr)$/, tier: 'SGC-PRISTINE' },
];

/** Other names of a grader, to the name observations use. */
const GRADER_NAMES: Readonly<Record<string, string>> = { BECKETT: 'BGS' };

/** What `parseCondition` accepts, for messages. */
export const CONDITION_HELP =
  'ungraded, or a grader and a grade 1-10 in steps of 0.5 (PSA 10, psa10, BGS 9.5, bgs9.5, TAG 10, CGC Pristine 10, BGS Black Label 10)';

/**
 * A condition as people write it, to its condition key: `ungraded` (also `raw`, `NM`); a
 * grader and a grade, with or without a space, any case (`PSA 10`, `psa10`, `BGS 9.5`,
 * `bgs9.5`, `TAG 10`, `Beckett 9.5`); a tier above a regular 10 by its words (`CGC Pristine
 * 10`, `CGC 10 Pristine`, `SGC Pristine 10`, `BGS Black Label 10`, `CGC Perfect 10`) or its
 * grader value (`CGC-PRISTINE 10`, `cgc-pristine10`); a played raw card (`RAW-LP`, `raw-lp`).
 * Returns the key, or null when the text is none of these. Used by `oracle value`, `oracle
 * explain --slot` and the evidence route alike.
 */
export function parseCondition(text: string): string | null {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  if (t === '') return null;
  if (t === UNGRADED || t === 'raw' || t === 'nm' || t === 'near mint') return UNGRADED;
  if (/^raw[- ](lp|mp|hp|dmg)$/.test(t)) return t.replace(' ', '-');
  if (/^[a-z][a-z_-]*(10|[1-9](\.5)?)$/.test(t)) return t;
  const m = /^([a-z][a-z_-]*?)(?: ([a-z -]+?))? ?(10|[1-9](?:\.5)?)(?: ([a-z -]+))?$/.exec(t);
  if (m === null) return null;
  const grade = Number(m[3]);
  if (!isGrade(grade)) return null;
  let grader = m[1]!.toUpperCase();
  grader = GRADER_NAMES[grader] ?? grader;
  const words = [m[2], m[4]]
    .filter((w): w is string => w !== undefined)
    .join(' ')
    .trim()
    .replace(/\s+/g, '-');
  if (words !== '' && !/^(gem-?mint|gem-?mt|mint|mt)$/.test(words)) {
    if (grade !== 10) return null;
    const tier = TIER_WORDS.find(
      (w) => w.grader === grader && w.words.test(words.replace(/-?(gem-?mint|gem-?mt|mint)$/, '')),
    );
    if (tier === undefined) return null;
    grader = tier.tier;
  }
  return conditionKey(grader, grade);
}
