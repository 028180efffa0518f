// @ts-check
/**
 * The operator's steps between loading data and serving prices, run once on the backtest's
 * store before any instant is priced.
 *
 * THE CALIBRATION HOOK: when the engine gains a calibration step (grader premiums and grade
 * ratios fitted from the catalog's own data, issue 9), run it here exactly as an operator would
 * (the same service call `oracle calibrate` makes, through ./built.js), as of `asOf`: the end of
 * the warm-up, so it sees only data from before every scored instant. Nothing else in the
 * backtest changes; the scores then include whatever the calibration does.
 */

/** @typedef {import('../../src/store/store.js').Store} Store */

/**
 * @param {Store} store the backtest's database, every observation loaded
 * @param {number} asOf epoch ms: the first scored instant is later; use no data from after it
 * @returns {Promise<{ steps: string[] }>} what was run, for the report (empty: nothing to run yet)
 */
export async function prepareStore(store, asOf) {
  void store;
  void asOf;
  return { steps: [] };
}
