// @ts-check
/**
 * The held-out discipline of issue 31 (docs/backtest.md, "Fit and held out"), fixed here and
 * nowhere else: which spans of the real corpora and which simulated seeds pricing constants may
 * be fitted or tuned on, and which are held out for reporting. A figure fitted and reported on
 * the same data is not evidence: the report prints `fit` or `held out` beside every figure.
 *
 * Rule for a corpus: a scored point (a sale, or a guide's quote) is `fit` when it is dated before
 * the corpus's `fitBefore` and `held out` from that instant on; null holds the whole corpus out.
 * The spans were chosen before any figure was looked at: the PSA register's sales before 2019
 * (57 % of its scored sales) and the first half of the Pokemon quotes to fit on; the newer
 * sales, the newer quotes and two whole markets (Japanese Pokemon, Magic) never fitted on.
 * psa10-history's cut is the day alt.xyz's record turns daily (2021-02-20): its sparse months before
 * are the earlier part, everything after is held out.
 */

/** @type {Readonly<Record<string, { fitBefore: string | null, why: string }>>} */
export const CORPUS_SPLITS = {
  'psa-register': {
    fitBefore: '2019-01-01',
    why: 'sales before 2019 fit; 2019-2020 held out',
  },
  'psa10-history': {
    fitBefore: '2021-02-20',
    why: 'sales before 2021-02-20 fit; from 2021-02-20 on held out (the later part: 87 % of the 218 sales read)',
  },
  'tcgcsv-pokemon': {
    fitBefore: '2025-10-06',
    why: 'quotes of 2025-09-21 to 10-05 fit; 10-06 to 10-20 held out',
  },
  'tcgcsv-pokemon-japan': { fitBefore: null, why: 'held out whole: a market never fitted on' },
  'tcgcsv-magic': { fitBefore: null, why: 'held out whole: a game never fitted on' },
};

export const SPLIT_LABELS = /** @type {const} */ (['fit', 'held out']);
/** @typedef {(typeof SPLIT_LABELS)[number]} SplitLabel */

/**
 * The split of a point of `corpus` at `t` (epoch ms). A corpus this table does not name is held
 * out whole: new data is evidence until someone decides to fit on it.
 * @param {string} corpus
 * @param {number} t
 * @returns {SplitLabel}
 */
export function splitOf(corpus, t) {
  const fitBefore = CORPUS_SPLITS[corpus]?.fitBefore ?? null;
  return fitBefore !== null && t < Date.parse(`${fitBefore}T00:00:00Z`) ? 'fit' : 'held out';
}

/** Simulated seeds constants may be tuned on (the backtest's defaults, seeds 1 and 7, were). */
export const TUNING_SEEDS = /** @type {const} */ (['1', '7']);
/** Simulated seeds never tuned on: `npm run backtest -- --held-out-seeds` reports issue 31's targets on these. */
export const HELD_OUT_SEEDS = /** @type {const} */ (['11', '23', '42']);
