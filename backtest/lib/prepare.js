// @ts-check
/**
 * The operator's steps between loading data and serving prices, run once while the backtest's
 * database holds the catalog and the warm-up's observations only (load.js ingests the scored
 * period's observations after it).
 *
 * THE CALIBRATION HOOK: when the engine gains a calibration step (grader premiums and grade
 * ratios fitted from the catalog's own data, issue 9), run it here exactly as an operator would
 * (the service call `oracle calibrate` makes, loaded from the build through ./built.js), as of
 * `asOf`, the end of the warm-up: it then never sees the period it is scored on. Nothing else in
 * the backtest changes; the scores include whatever the calibration does.
 */

/** @typedef {import('../../src/store/store.js').Store} Store */

/**
 * @param {Store} store the backtest's database: the catalog and every observation before `asOf`
 * @param {number} asOf epoch ms, the end of the warm-up: every scored instant is later
 * @returns {Promise<{ steps: string[] }>} what was run, for the report (empty: nothing to run yet)
 */
export async function prepareStore(store, asOf) {
  void store;
  void asOf;
  return { steps: [] };
}
