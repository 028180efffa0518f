/**
 * A product's current level per priced condition, the input of the calibration fit
 * (docs/methodology.md §7.2): each condition's own estimate (§3-§5) at the default window and
 * threshold, nothing derived from other conditions, so the fit sees only what was observed.
 */
import { OUTLIER_STDDEVS, WINDOW_HOURS } from '../domain/bundle.js';
import type { PricePoint } from '../domain/observation.js';
import type { Era } from '../domain/product.js';
import type { ProductLevels } from './calibration.js';
import { estimateCondition, estimateContext } from './estimate.js';
import { pointsRequest, requestedWindowStart } from './points-request.js';
import { buildSeries } from './series.js';

/** The parameters the calibration reads each product at. */
export function levelParams(asOf: number) {
  return { windowHours: WINDOW_HOURS.default, outlierStddevs: OUTLIER_STDDEVS.default, asOf };
}

/** The points request of `conditionLevels` at `asOf`. */
export function levelsRequest(asOf: number) {
  return pointsRequest(levelParams(asOf));
}

/** ln level per priced condition (NaN where the product has no point in the 30 days). */
export function conditionLevels(points: readonly PricePoint[], era: Era, asOf: number): ProductLevels {
  const params = levelParams(asOf);
  const windowStart = requestedWindowStart(params);
  const series = buildSeries(points, asOf, windowStart);
  const ctx = estimateContext(asOf, windowStart, params.outlierStddevs, series.maxLength);
  const levels = new Float64Array(series.conditions.length).fill(NaN);
  series.conditions.forEach((c, i) => {
    const e = estimateCondition(c.current, ctx);
    if (e !== null) levels[i] = e.mean;
  });
  return { era, levels };
}
