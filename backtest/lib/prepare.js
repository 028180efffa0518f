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

import { calibration, time } from './built.js';

/** @typedef {import('../../src/store/store.js').Store} Store */

/**
 * `oracle calibrate --at <asOf>`: the service call the command makes, fitted from the
 * observations before the end of the warm-up and stored with that date.
 * @param {Store} store the backtest's database: the catalog and every observation before `asOf`
 * @param {number} asOf epoch ms: the first scored instant is later; use no data from after it
 * @returns {Promise<{ steps: string[] }>} what was run, for the report
 */
export async function prepareStore(store, asOf) {
  const report = await calibration.calibrate(store, asOf, asOf);
  const fitted =
    report.eras.modern.filter((r) => r.source === 'fitted').length +
    report.eras.vintage.filter((r) => r.source === 'fitted').length;
  return {
    steps: [
      `oracle calibrate --at ${time.toIsoUtc(asOf)} (${report.products.modern} modern and ${report.products.vintage} vintage products, ${fitted} of ${report.eras.modern.length + report.eras.vintage.length} ratios fitted, the rest priors)`,
    ],
  };
}
