/**
 * Assembles the bundle of SPEC.md 2.1-2.4: own estimates per condition (§3-§5), the card
 * model (§6) or own data alone for sealed products, the clamp per grader, then the slots.
 * The developer_* keys of grades 7-9 are filled here because they need the column's prices.
 */
import {
  GRADERS,
  MATRIX_GRADES,
  UNGRADED,
  conditionKey,
  type Grader,
  type MatrixGradeKey,
} from '../domain/conditions.js';
import type { BundleMetadata, GradedSlot, PricingBundle, PricingParams } from '../domain/bundle.js';
import { InvalidParameterError } from '../domain/errors.js';
import type { Product } from '../domain/product.js';
import type { PricePoint } from '../domain/observation.js';
import { OUTLIER_STDDEVS, WINDOW_HOURS } from '../domain/bundle.js';
import { calibrationFor, type Calibration, type ConditionTable } from './calibration.js';
import { carryMoves } from './carry.js';
import { conditionIndex, priceCard, priceOwnOnly, type CellPrice } from './card-model.js';
import { crossSourceCheck, crossSourceMeta, type CrossSource } from './cross-source.js';
import { estimateCondition, estimateContext, sourceCounts, type Estimate } from './estimate.js';
import { requestedWindowStart } from './points-request.js';
import { computeExtraGrades } from './extra-grades.js';
import { NO_PRICE_REASON } from './methodology.js';
import { buildSeries, seriesAt, type PointTimeline, type SeriesSet } from './series.js';
import {
  cellSlot,
  gradedSlot,
  memoIso,
  noPriceReason,
  roundCents,
  type NoPriceReason,
  type SlotContext,
} from './slot.js';

export interface ComputeBundleInput {
  product: Product;
  /** The points in any order, or a timeline of them (one read and sort for many instants). */
  points: readonly PricePoint[] | PointTimeline;
  params: PricingParams;
  id: string | null;
  /** Fitted grader premiums and grade ratios (`oracle calibrate`); null or absent: the documented priors. */
  calibration?: Calibration | null;
  /**
   * The points of the product's extra grades (store readExtra), when they are asked for: the
   * bundle then carries `extra_grades` (extra-grades.ts), else it has no such key.
   */
  extraPoints?: readonly PricePoint[];
}

function checkParams(params: PricingParams): void {
  const { windowHours, outlierStddevs, asOf } = params;
  if (!Number.isInteger(windowHours) || windowHours < WINDOW_HOURS.min || windowHours > WINDOW_HOURS.max) {
    throw new InvalidParameterError(
      'window_hours',
      `window_hours must be an integer from ${WINDOW_HOURS.min} to ${WINDOW_HOURS.max}`,
    );
  }
  if (
    !Number.isInteger(outlierStddevs) ||
    outlierStddevs < OUTLIER_STDDEVS.min ||
    outlierStddevs > OUTLIER_STDDEVS.max
  ) {
    throw new InvalidParameterError(
      'outlier_stddevs',
      `outlier_stddevs must be an integer from ${OUTLIER_STDDEVS.min} to ${OUTLIER_STDDEVS.max}`,
    );
  }
  if (!Number.isFinite(asOf))
    throw new InvalidParameterError('at', 'as_of must be a finite epoch-milliseconds instant');
}

/** Every step from points to prices, for the slots and for `oracle explain`. */
export interface BundleEvidence {
  series: SeriesSet;
  /** Own estimate per priced condition (PRICED_CONDITIONS order), null without points. */
  own: (Estimate | null)[];
  /** The price of every condition (PRICED_CONDITIONS order). */
  cells: CellPrice[];
  /** Why each condition's estimate is not published (§9.1), null where it is (PRICED_CONDITIONS order). */
  withheld: (NoPriceReason | null)[];
  /** True when nothing lay in the 30 days and the last known points priced the bundle (§8). */
  lastKnown: boolean;
  /** The ungraded condition's cross-source check (§18), null with fewer than two sources in the 30 days. */
  crossSource: CrossSource | null;
  sealed: boolean;
  /** Whether each condition's ratio came from a calibration or the prior (PRICED_CONDITIONS order). */
  priorRatios: boolean[];
  /** The ratios and spreads the card model used (the era's calibration or the priors). */
  table: ConditionTable;
}

/** The evidence of a bundle: own estimates and the card model, before rounding and the clamp. */
export function computeEvidence(input: ComputeBundleInput): BundleEvidence {
  const { product, points, params } = input;
  checkParams(params);
  const windowStart = requestedWindowStart(params);
  const series =
    'starts' in points
      ? seriesAt(points, params.asOf, windowStart)
      : buildSeries(points, params.asOf, windowStart);
  const ctx = estimateContext(params.asOf, windowStart, params.outlierStddevs, series.maxLength);
  const lastKnown = !series.hasCurrent;
  const sealed = product.productType === 'booster_box';
  // §6.7: a cell with nothing in the 30 days has its own older points, which carry this card's
  // own ratio, as evidence beside the card model (a sealed product's cells stand alone, §6.5).
  const estimates = series.conditions.map((c) =>
    lastKnown
      ? estimateCondition(c.prior, ctx, true)
      : (estimateCondition(c.current, ctx) ?? (sealed ? null : estimateCondition(c.prior, ctx, true))),
  );
  // The card's move reaches a thin condition through the card model; sealed products have none (§6.5).
  const own = sealed || lastKnown ? estimates : carryMoves(estimates, params.asOf, ctx.scratch);
  const table = calibrationFor(input.calibration ?? null, product.era);
  const cells = sealed ? priceOwnOnly(own) : priceCard(own, table);
  const withheld = cells.map((cell) => noPriceReason(cell, params.asOf, lastKnown));
  const ungraded = conditionIndex(UNGRADED);
  const crossSource = lastKnown
    ? null
    : crossSourceCheck(series.conditions[ungraded]!.current, series.sources, ctx.k, ctx.scratch);
  // §18: sources out of line with each other price no ungraded figure: which one is right cannot be told.
  if (crossSource !== null && !crossSource.agree && cells[ungraded]!.estimate !== null)
    withheld[ungraded] = NO_PRICE_REASON.sources;
  return { series, own, cells, withheld, lastKnown, crossSource, sealed, priorRatios: table.prior, table };
}

/** Four decimals for weights shown in meta (display only; prices use the exact weights). */
function displayWeight(w: number): number {
  return Math.round(w * 10_000) / 10_000;
}

function lowerGradeMeta(
  cell: CellPrice,
  price: number,
  gem10Price: number | null,
  era: string,
  clampedFrom: number | null,
) {
  const band = cell.prediction;
  const bandWeight = band === null ? 0 : 1 - cell.ownWeight;
  const meta: Record<string, unknown> = {
    developer_band_primary_applied: bandWeight > 0,
    developer_composite_band_minor: band === null ? null : roundCents(Math.exp(band.mean)),
    developer_band_blend_weights: {
      band: displayWeight(bandWeight),
      grader: displayWeight(cell.ownWeight),
      gem10_anchor: 0,
    },
    developer_gem10_anchor_minor: gem10Price,
    developer_anchor_ratio_vs_gem10: gem10Price === null ? null : (price / gem10Price).toFixed(4),
    developer_gem10_ratio_era: era,
    developer_grader_twap_minor: cell.own === null ? null : roundCents(Math.exp(cell.own.mean)),
  };
  if (clampedFrom !== null) meta.developer_clamped_from_minor = roundCents(clampedFrom);
  return meta;
}

/** One grader's grades 7-10 after the clamp of §6.4 (unrounded cents; null where unpriced). */
export interface ClampedColumn {
  /** The column's condition indexes (conditions.ts conditionIndex), grades 7-10. */
  conditions: number[];
  price: (number | null)[];
  /** The unclamped price where the clamp lowered a grade, else null. */
  clampedFrom: (number | null)[];
}

/** The clamp of one grader's column (§6.4), grades 7, 8, 9, 10 in that order; a withheld estimate (§9.1) is no price and no ceiling. */
export function clampColumn(evidence: BundleEvidence, grader: Grader): ClampedColumn {
  const conditions = MATRIX_GRADES.map((g) => conditionIndex(conditionKey(grader, g)));
  // Clamp from the top down: a grade is lowered to the priced grade above it, never raised, so
  // the oracle errs low. Rounding is monotone, so the order survives rounding to cents.
  const price = conditions.map((c) => {
    const e = evidence.cells[c]!.estimate;
    return e === null || evidence.withheld[c] !== null ? null : Math.exp(e.mean);
  });
  const clampedFrom: (number | null)[] = [null, null, null, null];
  let ceiling = Infinity;
  for (let i = 3; i >= 0; i--) {
    const p = price[i];
    if (p === null || p === undefined) continue;
    if (p > ceiling) {
      clampedFrom[i] = p;
      price[i] = ceiling;
    }
    ceiling = price[i]!;
  }
  return { conditions, price, clampedFrom };
}

function graderColumn(
  evidence: BundleEvidence,
  grader: Grader,
  product: Product,
  ctx: SlotContext,
): Record<MatrixGradeKey, GradedSlot> {
  const { conditions, price, clampedFrom } = clampColumn(evidence, grader);
  const gem10Price = price[3] == null ? null : roundCents(price[3]);
  const column = {} as Record<MatrixGradeKey, GradedSlot>;
  MATRIX_GRADES.forEach((grade, i) => {
    const cell = evidence.cells[conditions[i]!]!;
    // A withheld estimate has no price in the clamped column.
    const p = price[i] ?? null;
    const meta =
      p === null || grade === 10 || evidence.sealed
        ? {}
        : lowerGradeMeta(cell, roundCents(p), gem10Price, product.era, clampedFrom[i]!);
    const slot = cellSlot(
      conditionKey(grader, grade),
      cell,
      evidence.withheld[conditions[i]!]!,
      p,
      ctx,
      meta,
    );
    column[String(grade) as MatrixGradeKey] = gradedSlot(slot, grader, grade);
  });
  return column;
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
    tcgplayer_id: product.tcgplayerId,
    printing: product.printing ?? null,
    language: product.language ?? null,
  };
}

/**
 * Builds the bundle of SPEC.md 2.1-2.4 for one product. Pure and deterministic. `points` must
 * hold at least what `pointsRequest(params)` asks for; extra points never change the bundle.
 */
export function computeBundle(input: ComputeBundleInput): PricingBundle {
  return bundleFromEvidence(input, computeEvidence(input));
}

/** What every slot of a bundle priced from `evidence` shares. */
export function slotContext(params: PricingParams, evidence: BundleEvidence): SlotContext {
  return {
    asOf: params.asOf,
    windowStart: requestedWindowStart(params),
    windowHours: params.windowHours,
    lastKnown: evidence.lastKnown,
    iso: memoIso(),
  };
}

/** The bundle of `computeBundle`, from evidence already computed for the same input. */
export function bundleFromEvidence(input: ComputeBundleInput, evidence: BundleEvidence): PricingBundle {
  const { product, params, id } = input;
  const ctx = slotContext(params, evidence);
  const ungradedIndex = conditionIndex(UNGRADED);
  const u = evidence.cells[ungradedIndex]!;
  const withheld = evidence.withheld[ungradedIndex]!;
  const ungradedMeta: Record<string, unknown> = {
    source_counts: sourceCounts(u.ownWeight > 0 && withheld === null ? u.own : null, evidence.series.sources),
  };
  if (evidence.crossSource !== null) ungradedMeta.cross_source = crossSourceMeta(evidence.crossSource);
  const ungraded = cellSlot(
    UNGRADED,
    u,
    withheld,
    u.estimate === null ? null : Math.exp(u.estimate.mean),
    ctx,
    ungradedMeta,
  );
  const graded = {} as Record<Grader, Record<MatrixGradeKey, GradedSlot>>;
  for (const grader of GRADERS) graded[grader] = graderColumn(evidence, grader, product, ctx);
  const bundle: PricingBundle = {
    id,
    product_key: product.productKey,
    window_hours: params.windowHours,
    outlier_stddevs: params.outlierStddevs,
    ungraded,
    graded,
    metadata: metadata(product),
  };
  if (input.extraPoints !== undefined) bundle.extra_grades = computeExtraGrades(input.extraPoints, params);
  return bundle;
}
