/**
 * Assembles the bundle of SPEC.md 2.1-2.4 from the estimates: ungraded slot, one column per
 * grader, metadata. The developer_* keys of grades 7-9 are filled here because they need the
 * rounded prices of the column.
 */
import { GRADERS, conditionKey, type Grader, type MatrixGradeKey } from '../domain/conditions.js';
import type { BundleMetadata, GradedSlot, PricingBundle, PricingParams, Slot } from '../domain/bundle.js';
import { InvalidParameterError } from '../domain/errors.js';
import type { Product } from '../domain/product.js';
import type { PricePoint } from '../domain/observation.js';
import { HOUR_MS } from '../domain/time.js';
import { OUTLIER_STDDEVS, WINDOW_HOURS } from '../domain/bundle.js';
import { sourceCounts, type EstimateContext } from './estimate.js';
import { buildEstimateSet, type EstimateSet } from './estimate-set.js';
import { priceUngraded } from './fallback.js';
import { priceGraderColumn, type LowerGradeCell } from './graded-matrix.js';
import { GEM10_RATIOS } from './methodology.js';
import { requestedWindowStart } from './points-request.js';
import { buildSeries } from './series.js';
import { emptySlot, gradedSlot, memoIso, pricedSlot, roundCents, type SlotContext } from './slot.js';

export interface ComputeBundleInput {
  product: Product;
  points: readonly PricePoint[];
  params: PricingParams;
  id: string | null;
}

function checkParams(params: PricingParams): void {
  const { windowHours, outlierStddevs, asOf } = params;
  if (!Number.isInteger(windowHours) || windowHours < WINDOW_HOURS.min || windowHours > WINDOW_HOURS.max) {
    throw new InvalidParameterError('window_hours', `window_hours must be an integer from ${WINDOW_HOURS.min} to ${WINDOW_HOURS.max}`);
  }
  if (!Number.isInteger(outlierStddevs) || outlierStddevs < OUTLIER_STDDEVS.min || outlierStddevs > OUTLIER_STDDEVS.max) {
    throw new InvalidParameterError(
      'outlier_stddevs',
      `outlier_stddevs must be an integer from ${OUTLIER_STDDEVS.min} to ${OUTLIER_STDDEVS.max}`,
    );
  }
  if (!Number.isFinite(asOf)) throw new InvalidParameterError('at', 'as_of must be a finite epoch-milliseconds instant');
}

/** Four decimals for weights shown in meta (display only; prices use the exact weights). */
function displayWeight(w: number): number {
  return Math.round(w * 10_000) / 10_000;
}

function lowerGradeMeta(cell: LowerGradeCell, price: number, gem10Price: number, era: string): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    developer_band_primary_applied: cell.band !== null,
    developer_composite_band_minor: cell.band === null ? null : roundCents(cell.band.value),
    developer_band_blend_weights: {
      band: displayWeight(cell.weights.band),
      grader: displayWeight(cell.weights.grader),
      gem10_anchor: displayWeight(cell.weights.gem10_anchor),
    },
    developer_gem10_anchor_minor: gem10Price,
    developer_anchor_ratio_vs_gem10: (price / gem10Price).toFixed(4),
    developer_gem10_ratio_era: era,
    developer_grader_twap_minor: cell.own === null ? null : roundCents(cell.own.value),
  };
  if (cell.clampedFrom !== null) meta.developer_clamped_from_minor = roundCents(cell.clampedFrom);
  return meta;
}

function graderColumn(set: EstimateSet | null, grader: Grader, product: Product, ctx: SlotContext): Record<MatrixGradeKey, GradedSlot> {
  const ratios = GEM10_RATIOS[product.era];
  const column = set === null ? null : priceGraderColumn(set, grader, ratios, ctx.windowHours);
  const key = (grade: 7 | 8 | 9 | 10) => conditionKey(grader, grade);
  if (column === null) {
    const empty = (grade: 7 | 8 | 9 | 10) => gradedSlot(emptySlot(key(grade), ctx, {}), grader, grade);
    return { '7': empty(7), '8': empty(8), '9': empty(9), '10': empty(10) };
  }
  const gem10Slot = pricedSlot(key(10), column.gem10, ctx, {});
  const gem10Price = gem10Slot.price_minor!;
  const lower = ([7, 8, 9] as const).map((grade, i) => {
    const cell = column.lower[i]!;
    const price = roundCents(cell.value.value);
    return gradedSlot(pricedSlot(key(grade), cell, ctx, lowerGradeMeta(cell, price, gem10Price, product.era)), grader, grade);
  });
  return { '7': lower[0]!, '8': lower[1]!, '9': lower[2]!, '10': gradedSlot(gem10Slot, grader, 10) };
}

function metadata(product: Product): BundleMetadata {
  return {
    product_name: product.productName,
    subtitle: product.subtitle,
    set_name: product.setName,
    image_url: product.imageUrl,
    product_type: product.productType,
    era: product.era,
    release_date: product.releaseDate,
  };
}

/**
 * Builds the bundle of SPEC.md 2.1-2.4 for one product. Pure and deterministic. `points` must
 * hold at least what `pointsRequest(params)` asks for; extra points never change the bundle.
 */
export function computeBundle(input: ComputeBundleInput): PricingBundle {
  const { product, points, params, id } = input;
  checkParams(params);
  const series = buildSeries(points, params.asOf, requestedWindowStart(params));
  const estimateCtx: EstimateContext = {
    asOf: params.asOf,
    windowMs: params.windowHours * HOUR_MS,
    k: params.outlierStddevs,
    scratch: new Float64Array(series.maxLength),
  };
  const set = buildEstimateSet(series, estimateCtx);
  const ctx: SlotContext = {
    asOf: params.asOf,
    windowMs: estimateCtx.windowMs,
    windowHours: params.windowHours,
    stale: set?.stale ?? false,
    iso: memoIso(),
  };
  const ungradedPriced = set === null ? null : priceUngraded(set, GEM10_RATIOS[product.era], params.windowHours);
  const ungradedMeta = { source_counts: sourceCounts(ungradedPriced?.own ?? null, series.sources) };
  const ungraded: Slot =
    ungradedPriced === null
      ? emptySlot('ungraded', ctx, ungradedMeta)
      : pricedSlot('ungraded', ungradedPriced, ctx, ungradedMeta);
  const graded = {} as Record<Grader, Record<MatrixGradeKey, GradedSlot>>;
  for (const grader of GRADERS) graded[grader] = graderColumn(set, grader, product, ctx);
  return {
    id,
    product_key: product.productKey,
    window_hours: params.windowHours,
    outlier_stddevs: params.outlierStddevs,
    ungraded,
    graded,
    metadata: metadata(product),
  };
}
