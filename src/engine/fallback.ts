/**
 * The fallback chains of docs/methodology.md §9 for the cells that must price without
 * observations of their own: a grader's grade 10 and the ungraded slot. Grades 7-9 never
 * need a chain of their own: they are anchored to the grader's grade 10 (graded-matrix.ts).
 */
import type { Grader } from '../domain/conditions.js';
import type { Estimate } from './estimate.js';
import type { EstimateSet } from './estimate-set.js';
import { FALLBACK_TIER, METHODOLOGY, twapMethodology, type FallbackTier, type RatioTable } from './methodology.js';
import { convert, type Value } from './value.js';

/** A cell's unrounded price, how it was obtained, and the cell's own estimate (if any). */
export interface Priced {
  value: Value;
  tier: FallbackTier | null;
  methodology: string;
  own: Estimate | null;
}

const LOWER_GRADES = [9, 8, 7] as const;

/** A cell priced by its own observations. */
export function direct(own: Estimate, windowHours: number): Priced {
  return { value: own, tier: null, methodology: own.extended ? METHODOLOGY.sparse : twapMethodology(windowHours), own };
}

/**
 * Grade 10 of one grader: own observations; else the grade-10 band; else, nearest grade
 * first, the grader's own lower grade or that grade's band through the ratio table; else
 * the ungraded price through the ratio table. Null only when the set holds no value at all.
 */
export function priceGem10(set: EstimateSet, grader: Grader, ratios: RatioTable, windowHours: number): Priced | null {
  const own = set.cell(grader, 10);
  if (own !== null) return direct(own, windowHours);
  const band = set.band(10);
  if (band !== null) return { value: band, tier: FALLBACK_TIER.bandTwap, methodology: METHODOLOGY.band, own: null };
  for (const grade of LOWER_GRADES) {
    const cell = set.cell(grader, grade);
    if (cell !== null) return viaRatio(convert(cell, ratios[grade], 1), FALLBACK_TIER.adjacentGradeRatio);
    const gradeBand = set.band(grade);
    if (gradeBand !== null) return viaRatio(convert(gradeBand, ratios[grade], 1), FALLBACK_TIER.bandRatio);
  }
  if (set.ungraded !== null) return viaRatio(convert(set.ungraded, ratios.ungraded, 1), FALLBACK_TIER.ungradedRatio);
  return null;
}

/**
 * The ungraded slot: own observations; else the market-wide grade-10 level (the grade-10
 * band, or the nearest lower band through the ratio table) times the ungraded ratio.
 */
export function priceUngraded(set: EstimateSet, ratios: RatioTable, windowHours: number): Priced | null {
  if (set.ungraded !== null) return direct(set.ungraded, windowHours);
  const band10 = set.band(10);
  if (band10 !== null) return viaRatio(convert(band10, 1, ratios.ungraded), FALLBACK_TIER.bandRatio);
  for (const grade of LOWER_GRADES) {
    const band = set.band(grade);
    if (band !== null) return viaRatio(convert(band, ratios[grade], ratios.ungraded), FALLBACK_TIER.bandRatio);
  }
  return null;
}

function viaRatio(value: Value, tier: FallbackTier): Priced {
  return { value, tier, methodology: METHODOLOGY.ratio, own: null };
}
