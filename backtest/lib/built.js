// @ts-check
/**
 * The BUILT product (build/: the sources bundled as dist/ is), typed against its sources,
 * loaded the way bench/children/pricing-probe.js loads it: the backtest prices with exactly
 * the code users run.
 * `npm run backtest` builds first.
 */

/** @param {string} path under build/ */
const built = (path) => new URL(`../../build/${path}`, import.meta.url).href;

/** @type {typeof import('../../src/store/open-store.js')} */
export const store = await import(built('store/open-store.js'));
/** @type {typeof import('../../src/service/pricing.js')} */
export const pricing = await import(built('service/pricing.js'));
/** @type {typeof import('../../src/service/calibration.js')} */
export const calibration = await import(built('service/calibration.js'));
/** @type {typeof import('../../src/service/market-index.js')} */
export const marketIndex = await import(built('service/market-index.js'));
/** @type {typeof import('../../src/ingest/pipeline.js')} */
export const ingest = await import(built('ingest/pipeline.js'));
/** @type {typeof import('../../sample/prng.js')} */
export const prng = await import(built('sample/prng.js')); // the sample generator's
/** @type {typeof import('../../src/engine/stats.js')} */
export const stats = await import(built('engine/stats.js'));
/** @type {typeof import('../../src/engine/methodology.js')} */
export const methodology = await import(built('engine/methodology.js'));
/** @type {typeof import('../../src/domain/csv.js')} */
export const csv = await import(built('domain/csv.js'));
/** @type {typeof import('../../src/domain/time.js')} */
export const time = await import(built('domain/time.js'));
