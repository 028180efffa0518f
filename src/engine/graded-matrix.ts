/**
 * One grader's column of the matrix (docs/methodology.md §7, SPEC.md 2.5): grade 10 from its
 * own observations or the fallback chain; grades 7-9 from the band-primary blend of the
 * 30-day composite band with the grader-specific part, where thin grader data shrinks towards
 * the grade-10 price times the era ratio; then the clamp 7 <= 8 <= 9 <= 10.
 */
import type { Grader } from '../domain/conditions.js';
import type { Estimate } from './estimate.js';
import type { EstimateSet } from './estimate-set.js';
import { priceGem10, type Priced } from './fallback.js';
import {
  BAND_WEIGHT,
  FALLBACK_TIER,
  GRADER_WEIGHT,
  METHODOLOGY,
  THIN_GRADER_POINTS,
  type RatioTable,
} from './methodology.js';
import { blend, convert, type Value } from './value.js';

export interface BlendWeights {
  band: number;
  grader: number;
  gem10_anchor: number;
}

/** A grade 7-9 cell with the inputs of its blend, for the developer_* meta keys. */
export interface LowerGradeCell extends Priced {
  band: Estimate | null;
  weights: BlendWeights;
  /** The grader's grade-10 price the anchor is taken from (unrounded, never clamped). */
  gem10: Value;
  /** The unclamped value when the clamp lowered this cell, else null. */
  clampedFrom: number | null;
}

export interface GraderColumn {
  gem10: Priced;
  /** Grades 7, 8, 9 in that order. */
  lower: [LowerGradeCell, LowerGradeCell, LowerGradeCell];
}

/**
 * Weights of the band-primary blend. With a band: band BAND_WEIGHT, the grader part
 * GRADER_WEIGHT; without one the grader part takes everything. The grader part is the
 * grader's own price when it keeps THIN_GRADER_POINTS or more points; with n fewer points
 * it is n/THIN_GRADER_POINTS own price and the rest the gem-10 anchor.
 */
export function blendWeights(hasBand: boolean, graderPoints: number): BlendWeights {
  const share = Math.min(1, graderPoints / THIN_GRADER_POINTS);
  const graderPart = hasBand ? GRADER_WEIGHT : 1;
  return { band: hasBand ? BAND_WEIGHT : 0, grader: graderPart * share, gem10_anchor: graderPart * (1 - share) };
}

function lowerGrade(set: EstimateSet, grader: Grader, grade: 7 | 8 | 9, gem10: Value, ratios: RatioTable): LowerGradeCell {
  const own = set.cell(grader, grade);
  const band = set.band(grade);
  const weights = blendWeights(band !== null, own?.included ?? 0);
  const value = blend([
    [weights.band, band],
    [weights.grader, own],
    [weights.gem10_anchor, convert(gem10, 1, ratios[grade])],
  ]);
  const tier = own !== null ? null : band !== null ? FALLBACK_TIER.bandTwap : FALLBACK_TIER.gem10Ratio;
  const methodology = band !== null ? METHODOLOGY.bandPrimary : METHODOLOGY.ratio;
  return { value, tier, methodology, own, band, weights, gem10, clampedFrom: null };
}

/** Prices one grader's four cells; null when the set holds no value at all. */
export function priceGraderColumn(
  set: EstimateSet,
  grader: Grader,
  ratios: RatioTable,
  windowHours: number,
): GraderColumn | null {
  const gem10 = priceGem10(set, grader, ratios, windowHours);
  if (gem10 === null) return null;
  const lower: GraderColumn['lower'] = [
    lowerGrade(set, grader, 7, gem10.value, ratios),
    lowerGrade(set, grader, 8, gem10.value, ratios),
    lowerGrade(set, grader, 9, gem10.value, ratios),
  ];
  // Clamp from the top down: a grade is lowered to the grade above it, never raised, so the
  // oracle errs low (a collateral value must not be overstated). Rounding is monotone, so the
  // order survives rounding to cents.
  let ceiling = gem10.value.value;
  for (let i = 2; i >= 0; i--) {
    const cell = lower[i]!;
    if (cell.value.value > ceiling) {
      cell.clampedFrom = cell.value.value;
      cell.value = { ...cell.value, value: ceiling };
    }
    ceiling = cell.value.value;
  }
  return { gem10, lower };
}
