/**
 * The pricing engine: pure functions from observations, product metadata and parameters to
 * the bundle of SPEC.md 2.1-2.4. No I/O, no clock reads. Method: docs/methodology.md.
 */
export { computeBundle, type ComputeBundleInput } from './bundle.js';
export { pointsRequest, type PointsRequest } from './points-request.js';
