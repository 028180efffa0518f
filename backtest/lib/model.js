// @ts-check
/**
 * The simulated market's parameters: the period, the cells, every distribution a product's
 * parameters are drawn from, and the scenarios (named groups of products, each with the
 * contamination it exercises). docs/backtest.md explains each value; change both together.
 */

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** The simulated period is fixed (no wall clock anywhere): 60 days ending here. */
export const END = Date.parse('2026-06-01T00:00:00Z');
export const DAYS = 60;
export const START = END - DAYS * DAY;
export const HOURS = DAYS * 24;
/** The first days only build history: nothing before SCORED_START is scored. */
export const WARMUP_DAYS = 15;
export const SCORED_START = START + WARMUP_DAYS * DAY;
/** Scored instants: every INSTANT_STEP_HOURS hours from SCORED_START + INSTANT_OFFSET_HOURS. */
export const INSTANT_STEP_HOURS = 6;
export const INSTANT_OFFSET_HOURS = 3;
/** The pricing request every instant is priced with (the defaults of `oracle price`). */
export const WINDOW_HOURS = 24;
export const OUTLIER_STDDEVS = 2;

export const GRADERS = /** @type {const} */ (['PSA', 'BGS', 'CGC', 'SGC']);
export const GRADES = /** @type {const} */ ([7, 8, 9, 10]);
/** @typedef {(typeof GRADERS)[number]} Grader */
/** @typedef {(typeof GRADES)[number]} Grade */

/**
 * The 17 scored cells: 0 is ungraded, 1 + 4 * graderIndex + (grade - 7) a graded one.
 * @typedef {{ index: number, key: string, grader: Grader | null, grade: Grade | null }} Cell
 */
/** @type {readonly Cell[]} */
export const CELLS = [
  { index: 0, key: 'ungraded', grader: null, grade: null },
  ...GRADERS.flatMap((grader, gi) =>
    GRADES.map((grade, ni) => ({
      index: 1 + gi * 4 + ni,
      key: `${grader.toLowerCase()}${grade}`,
      grader,
      grade,
    })),
  ),
];
/** @param {number} graderIndex @param {number} gradeIndex 0..3 for grades 7..10 */
export const cellIndex = (graderIndex, gradeIndex) => 1 + graderIndex * 4 + gradeIndex;

/** Distributions every product draws from (lognormal: median and sd of the log). */
export const PARAMS = {
  /** Share of single cards that are vintage. */
  vintageShare: 0.3,
  /** Ungraded truth at the start, US dollars. */
  basePrice: {
    modern: { median: 25, logSd: 1.0 },
    vintage: { median: 150, logSd: 0.9 },
    sealed: { median: 150, logSd: 0.6 },
  },
  minBasePrice: 3,
  /** Daily volatility of the ungraded truth's geometric random walk (sd of the daily log return). */
  dailyVol: {
    modern: { median: 0.025, logSd: 0.3 },
    vintage: { median: 0.015, logSd: 0.3 },
    sealed: { median: 0.01, logSd: 0.3 },
  },
  /** Drift of the walk: normal, sd of the daily log drift. */
  dailyDriftSd: 0.003,
  /**
   * PSA 10 truth as a multiple of the ungraded truth, per card. Spread as real price guides and
   * sold medians show it (docs/backtest.md "Grade ratios in real price guides"): several-fold
   * between cards of one era.
   */
  psa10Multiple: { modern: { median: 8, logSd: 0.9 }, vintage: { median: 25, logSd: 0.85 } },
  /**
   * PSA grade 7-9 truth, per card, as a chain of steps down from PSA 10: PSA 9 = PSA 10 x the
   * `9` draw, PSA 8 = PSA 9 x the `8` draw, PSA 7 = PSA 8 x the `7` draw; each draw is
   * lognormal (median, sd of the log) and at most `maxStep`, so grades stay in order. Fitted to
   * the same evidence: PSA 9 / PSA 10 varies about four-fold between cards (P10 to P90).
   */
  gradeStep: {
    modern: {
      9: { median: 0.24, logSd: 0.55 },
      8: { median: 0.52, logSd: 0.4 },
      7: { median: 0.75, logSd: 0.4 },
    },
    vintage: {
      9: { median: 0.25, logSd: 0.65 },
      8: { median: 0.59, logSd: 0.5 },
      7: { median: 0.64, logSd: 0.45 },
    },
    maxStep: 0.9,
  },
  /**
   * Grader premium over PSA at the same grade, per card: grade 10 and grades 7-9 have their own
   * medians; each grade of a card gets its own draw. Grade 10's spread is wide because the one
   * real file that prices CGC and SGC 10 from sales (not from a fixed multiple of PSA 10) shows
   * them several-fold apart between cards.
   */
  graderPremium: {
    BGS: { 10: 1.15, lower: 0.95 },
    CGC: { 10: 0.6, lower: 0.8 },
    SGC: { 10: 0.8, lower: 0.85 },
    logSd10: 0.35,
    logSdLower: 0.1,
  },
  /** Sale noise: sale = truth x exp(sd x N(0,1)), sd per card = median x lognormal(0, 0.2). */
  saleNoise: { ungraded: 0.08, graded: 0.1, sealed: 0.05, logSd: 0.2 },
  /** Ungraded sales per day (Poisson arrivals, hour by hour). */
  ungradedRate: { median: 15, logSd: 0.6 },
  /** Graded sales per day, all graded cells together, as a multiple of the ungraded rate. */
  gradedRateMultiple: 0.5,
  /** Share of a card's graded sales per grader and per grade (renormalised over the graders present). */
  graderShare: { PSA: 0.6, BGS: 0.15, CGC: 0.15, SGC: 0.1 },
  gradeShare: { 7: 0.13, 8: 0.22, 9: 0.35, 10: 0.3 },
  /** Chance that BGS, CGC or SGC (each separately) has no market at all for a card. */
  graderAbsent: 0.35,
  /** Background contamination of every sale, every scenario (probabilities per sale). */
  contamination: { typo10: 0.002, typo01: 0.002, lot: 0.005, lowball: 0.02 },
  /** A lot of k cards listed as one sale: k uniform in [2, 5]. */
  lotSize: { min: 2, max: 5 },
  /** A best-offer lowball: truth x uniform [min, max]. */
  lowball: { min: 0.5, max: 0.8 },
  /**
   * Share of products with price-guide quotes, outside the `guides` scenario (all quoted) and the
   * scenarios built on a cell's exact count of sales (none quoted).
   */
  guideShare: 0.4,
  /** pricecharting: one quote a day at 00:00Z, the mean truth of the previous 7 days x exp(0.02 N). */
  pricecharting: { lagHours: 168, noise: 0.02, hourOfDay: 0 },
  /** tcgplayer: one ungraded quote a day at 12:00Z, the mean truth of the previous 3 days x exp(0.03 N). */
  tcgplayer: { lagHours: 72, noise: 0.03, hourOfDay: 12 },
};

/**
 * @typedef {object} ProductPlan what one product's market is made of (market.js draws it)
 * @property {string} key
 * @property {string} refsourceId
 * @property {string} scenario
 * @property {'single_card' | 'booster_box'} productType
 * @property {'modern' | 'vintage'} era
 * @property {number} basePrice ungraded truth at START, US cents
 * @property {number} hourlyVol sd of the hourly log return
 * @property {number} hourlyDrift
 * @property {number[]} logMultiple per cell: log(cell truth / ungraded truth); NaN where the cell has no truth (sealed graded)
 * @property {number[]} cellRate per cell: sales per day
 * @property {number[]} graderWeight per grader: share in the pooled (ANY) grade truth
 * @property {number} noiseUngraded
 * @property {number} noiseGraded
 * @property {{ typo10: number, typo01: number, lot: number, lowball: number }} contamination
 * @property {{ hour: number, factor: number, volumeBoost: number, boostHours: number }[]} jumps
 * @property {{ hour: number, hours: number, count: number, factor: number }[]} shills
 * @property {{ cell: number, hour: number, factor: number }[]} injected single contaminated sales
 * @property {{ from: number, to: number } | null} dormant hours without any observation
 * @property {number | null} deadFrom hour from which nothing is observed
 * @property {boolean} guides
 */

/**
 * @typedef {object} Scenario
 * @property {string} name
 * @property {string} description one line for the docs
 * @property {{ full: number, small: number }} count
 * @property {'booster_box'} [productType] default: single_card
 * @property {(plan: ProductPlan, rng: import('../../sample/prng.js').Prng) => void} [shape] changes the default plan
 */

/** Share of sales that are best-offer lowballs in the `quotes_lowball` scenario (issue 22: one in ten). */
const QUOTES_LOWBALL_SHARE = 0.1;

/** Hour index of a day of the period plus hours. */
const at = (/** @type {number} */ day, hours = 0) => day * 24 + hours;
/** A random hour inside the scored period, away from its ends. */
const scoredHour = (
  /** @type {import('../../sample/prng.js').Prng} */ rng,
  firstDay = WARMUP_DAYS + 3,
  lastDay = DAYS - 6,
) => at(rng.int(firstDay, lastDay), rng.int(0, 23));

/** @type {readonly Scenario[]} */
export const SCENARIOS = [
  {
    name: 'baseline',
    description: 'ordinary cards: moderate volume, background contamination only',
    count: { full: 90, small: 4 },
  },
  {
    name: 'hot',
    description: 'hundreds of ungraded sales a day (150-350)',
    count: { full: 10, small: 1 },
    shape(plan, rng) {
      scaleUngraded(plan, rng.uniform(150, 350));
    },
  },
  {
    name: 'thin',
    description: 'a sale every few days (0.2-0.5 ungraded a day), graded cells thinner still',
    count: { full: 30, small: 2 },
    shape(plan, rng) {
      scaleUngraded(plan, rng.uniform(0.2, 0.5));
    },
  },
  {
    name: 'dormant',
    description: 'no sales and frozen price guides for 14-28 days in the scored period, then trading resumes',
    count: { full: 15, small: 2 },
    shape(plan, rng) {
      const from = at(rng.int(WARMUP_DAYS, 25), rng.int(0, 23));
      plan.dormant = { from, to: from + at(rng.int(14, 28)) };
    },
  },
  {
    name: 'typos',
    description: 'x10 and x0.1 typos, 3 % of sales each',
    count: { full: 15, small: 1 },
    shape(plan) {
      plan.contamination = { ...plan.contamination, typo10: 0.03, typo01: 0.03 };
    },
  },
  {
    name: 'typo_x10_of_3',
    description:
      'two real sales a day; every ~4 days one more at x10, so a 24 h window often holds three sales, one of them x10; no price guide',
    count: { full: 15, small: 1 },
    shape(plan, rng) {
      scaleUngraded(plan, 2);
      plan.guides = false;
      for (let day = 2 + rng.int(0, 3); day < DAYS - 1; day += rng.int(3, 5)) {
        plan.injected.push({ cell: 0, hour: at(day, rng.int(0, 23)), factor: 10 });
      }
    },
  },
  {
    name: 'typo_2x10_of_5',
    description:
      'three real sales a day; every ~5 days two more at x10 within 12 h (two x10 among five); no price guide',
    count: { full: 15, small: 1 },
    shape(plan, rng) {
      scaleUngraded(plan, 3);
      plan.guides = false;
      for (let day = 2 + rng.int(0, 4); day < DAYS - 1; day += rng.int(4, 6)) {
        const hour = at(day, rng.int(0, 11));
        plan.injected.push(
          { cell: 0, hour, factor: 10 },
          { cell: 0, hour: hour + rng.int(1, 12), factor: 10 },
        );
      }
    },
  },
  {
    name: 'lots',
    description: 'lot sales (2-5 cards listed as one) are 10 % of sales',
    count: { full: 15, small: 1 },
    shape(plan) {
      plan.contamination = { ...plan.contamination, lot: 0.1 };
    },
  },
  {
    name: 'shill',
    description: '3-5 bursts of shill / fat-finger sales at 2x that outnumber the real ones for 3-6 hours',
    count: { full: 20, small: 2 },
    shape(plan, rng) {
      const bursts = rng.int(3, 5);
      for (let i = 0; i < bursts; i++) {
        const hours = rng.int(3, 6);
        const real = (plan.cellRate[0] ?? 0) * (hours / 24);
        plan.shills.push({
          hour: scoredHour(rng),
          hours,
          count: Math.max(4, Math.ceil(3 * real)),
          factor: 2,
        });
      }
    },
  },
  {
    name: 'lowball',
    description: 'best-offer lowballs (0.5-0.8x) are 25 % of sales',
    count: { full: 15, small: 1 },
    shape(plan) {
      plan.contamination = { ...plan.contamination, lowball: 0.25 };
    },
  },
  {
    name: 'jumps',
    description:
      'regime jumps: one up (+22 % to +65 %) and one down (-18 % to -33 %) in the scored period, volume x1.3 for 2 days after each',
    count: { full: 20, small: 2 },
    shape(plan, rng) {
      scaleUngraded(plan, rng.uniform(8, 30));
      twoJumps(plan, rng);
    },
  },
  {
    name: 'crash',
    description: 'a -43 % crash in the scored period with continued volume (x1.5 for 3 days after)',
    count: { full: 15, small: 2 },
    shape(plan, rng) {
      scaleUngraded(plan, rng.uniform(8, 30));
      plan.jumps.push({
        hour: scoredHour(rng, WARMUP_DAYS + 3, DAYS - 10),
        factor: 0.57,
        volumeBoost: 1.5,
        boostHours: 72,
      });
    },
  },
  {
    name: 'guides',
    description: 'thin sales (0.5-2 a day) with daily pricecharting and tcgplayer quotes',
    count: { full: 15, small: 1 },
    shape(plan, rng) {
      scaleUngraded(plan, rng.uniform(0.5, 2));
      plan.guides = true;
    },
  },
  {
    name: 'thin_grader_typo',
    description:
      'CGC traded thinly (a CGC 10 sale every ~10 days) and one CGC 10 sale at 10x in the scored period; no price guide',
    count: { full: 15, small: 2 },
    shape(plan, rng) {
      plan.guides = false;
      const cgc = GRADERS.indexOf('CGC');
      const share = /** @type {Record<number, number>} */ (PARAMS.gradeShare);
      GRADES.forEach((grade, ni) => {
        plan.cellRate[cellIndex(cgc, ni)] = grade === 10 ? 0.1 : 0.3 * (share[grade] ?? 0);
      });
      plan.injected.push({ cell: cellIndex(cgc, 3), hour: scoredHour(rng), factor: 10 });
    },
  },
  {
    name: 'graded_only',
    description: 'graded sales only: no ungraded sale or quote',
    count: { full: 15, small: 1 },
    shape(plan, rng) {
      plan.cellRate[0] = 0;
      for (let c = 1; c < CELLS.length; c++) plan.cellRate[c] = (plan.cellRate[c] ?? 0) * rng.uniform(1.5, 3);
    },
  },
  {
    name: 'dead',
    description: 'no observation at all from a day in the scored period (day 20-45) on',
    count: { full: 10, small: 1 },
    shape(plan, rng) {
      plan.deadFrom = at(rng.int(20, 45), rng.int(0, 23));
    },
  },
  {
    name: 'sealed',
    description: 'booster boxes: ungraded sales only (3-15 a day); the engine must give no graded price',
    count: { full: 15, small: 2 },
    productType: 'booster_box',
    shape(plan, rng) {
      scaleUngraded(plan, rng.uniform(3, 15));
    },
  },
  {
    name: 'quotes_lowball',
    description:
      'daily pricecharting and tcgplayer quotes that lag the truth, one sale in ten a best-offer lowball (0.5-0.8x), and two regime jumps as in jumps; 3-10 ungraded sales a day',
    count: { full: 20, small: 1 },
    shape(plan, rng) {
      scaleUngraded(plan, rng.uniform(3, 10));
      plan.guides = true;
      plan.contamination = { ...plan.contamination, lowball: QUOTES_LOWBALL_SHARE };
      twoJumps(plan, rng);
    },
  },
];

/**
 * The scenarios where quotes are weighed against sales alone: the run scores their products a
 * second time on a database without their price-guide quotes (docs/backtest.md, "Quotes as
 * evidence").
 */
export const QUOTE_EVIDENCE_SCENARIOS = ['guides', 'quotes_lowball'];

/**
 * Two regime jumps in the scored period: one up (x e^U(0.2, 0.5)) and one down (x e^-U(0.2, 0.4))
 * in random order, the first in days 18-32, the second in days 38-54, volume x1.3 for 48 h after each.
 * @param {ProductPlan} plan
 * @param {import('../../sample/prng.js').Prng} rng
 */
function twoJumps(plan, rng) {
  const first = scoredHour(rng, WARMUP_DAYS + 3, 32);
  const second = scoredHour(rng, 38, DAYS - 6);
  const up = Math.exp(rng.uniform(0.2, 0.5));
  const down = Math.exp(-rng.uniform(0.2, 0.4));
  const [a, b] = rng.next() < 0.5 ? [up, down] : [down, up];
  plan.jumps.push(
    { hour: first, factor: a, volumeBoost: 1.3, boostHours: 48 },
    { hour: second, factor: b, volumeBoost: 1.3, boostHours: 48 },
  );
}

/**
 * Sets the ungraded rate to `perDay` and scales the graded rates with it.
 * @param {ProductPlan} plan
 * @param {number} perDay
 */
function scaleUngraded(plan, perDay) {
  const factor = perDay / ((plan.cellRate[0] ?? 0) || 1);
  for (let c = 0; c < plan.cellRate.length; c++) plan.cellRate[c] = (plan.cellRate[c] ?? 0) * factor;
}

/** @param {string} name */
export function scenarioByName(name) {
  return SCENARIOS.find((s) => s.name === name) ?? null;
}
