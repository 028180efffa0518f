/**
 * The pricing engine: pure functions from observations, product metadata, parameters and a
 * calibration to the bundle of SPEC.md 2.1-2.4. No I/O, no clock reads. Method:
 * docs/methodology.md.
 */
export { computeBundle, computeEvidence, type BundleEvidence, type ComputeBundleInput } from './bundle.js';
export { pointsRequest, type PointsRequest } from './points-request.js';
export { timelineOfColumns, type PointTimeline } from './series.js';
export { calibrationFor, fitCalibration, type Calibration, type ProductLevels } from './calibration.js';
export { conditionLevels, levelsRequest } from './levels.js';
export { CALIBRATED_CONDITIONS, type CalibratedCell } from './calibration.js';
export { explainSlot } from './explain.js';
export { productSales } from './sales.js';
export { computeExtraGrades, extraEvidence, extraGradeSlots } from './extra-grades.js';
