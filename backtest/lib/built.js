// @ts-check
/**
 * The BUILT product (dist/), typed against its sources, loaded the way
 * bench/children/pricing-probe.js loads it: the backtest prices with exactly the code users run.
 * `npm run backtest` builds first.
 */

/** @param {string} path under dist/ */
const dist = (path) => new URL(`../../dist/${path}`, import.meta.url).href;

/** @type {typeof import('../../src/store/store.js')} */
export const store = await import(dist('store/store.js'));
/** @type {typeof import('../../src/service/oracle.js')} */
export const service = await import(dist('service/oracle.js'));
/** @type {typeof import('../../src/service/calibration.js')} */
export const calibration = await import(dist('service/calibration.js'));
/** @type {typeof import('../../src/ingest/pipeline.js')} */
export const ingest = await import(dist('ingest/pipeline.js'));
/** @type {typeof import('../../sample/prng.js')} */
export const prng = await import(new URL('../../build/sample/prng.js', import.meta.url).href); // the sample generator's, built beside dist/
/** @type {typeof import('../../src/engine/stats.js')} */
export const stats = await import(dist('engine/stats.js'));
/** @type {typeof import('../../src/domain/time.js')} */
export const time = await import(dist('domain/time.js'));
