/**
 * The pricing engine: pure functions from observations, product metadata and parameters to
 * the bundle of SPEC.md 2.1-2.4. No I/O, no clock reads. Method: docs/methodology.md.
 */
export { computeBundle, type ComputeBundleInput } from './bundle.js';
export { LOOKBACK_MS, PRIOR_POINTS_PER_CONDITION } from './methodology.js';
