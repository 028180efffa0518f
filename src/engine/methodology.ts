/**
 * Every constant, weight, threshold, ratio table, methodology key and fallback tier of the
 * pricing engine, in one place. Each comment names its section of docs/methodology.md;
 * changing a value here changes published prices, so change the document with it.
 */
import type { Era } from '../domain/product.js';
import { DAY_MS, HOUR_MS } from '../domain/time.js';

/** §2 Windows: the 30-day window of the sparse fallback and of the composite band. */
export const EXTENDED_WINDOW_MS = 30 * DAY_MS;
export const EXTENDED_WINDOW_HOURS = EXTENDED_WINDOW_MS / HOUR_MS;

/**
 * §2.1 Depth cap: of each priced condition's points in the 30 days before the requested
 * window, the extended window reads only the latest this many. A robust value needs depth,
 * not length: 32 points per condition (up to 160 in a band) keep the median, MAD and q20
 * steady, and a busy cell's older points carry little weight anyway (7-day half-life, §5).
 * Work per bundle is then at most the window plus 21 x (32 + 3) points. 32 rather than 16
 * (bench/findings.md §2 measured both): twice the band's memory for ~0.1-0.2 ms per bundle.
 */
export const EXTENDED_DEPTH_PER_CONDITION = 32;

/** §9 Last known price: the latest points per condition older than 30 days that the median reads. */
export const PRIOR_POINTS_PER_CONDITION = 3;

/** §5 Sparse data: fewer included points than this in the requested window extends it to 30 days. */
export const MIN_WINDOW_POINTS = 3;

/** §5: half-life of the recency weight in the 30-day sparse window (7 days). */
export const RECENCY_HALF_LIFE_MS = 7 * DAY_MS;

/** §3 Outlier filter: MAD to standard deviation of a normal distribution (1 / Φ⁻¹(0.75)). */
export const MAD_TO_SIGMA = 1.4826;

/** §3: floor of the robust scale in natural-log price units (about 10 %), so MAD = 0 still filters
 * but ordinary sale-to-sale spread (±10 % per k) is never called an outlier. */
export const LOG_SCALE_FLOOR = 0.1;

/** §6.1 Median blend: relative TWAP/median divergence where the blend starts and where it is full. */
export const BLEND_START_DIVERGENCE = 0.1;
export const BLEND_FULL_DIVERGENCE = 0.3;
/** §6.1: weight of the median at full divergence. */
export const BLEND_MAX_MEDIAN_WEIGHT = 0.5;

/** §6.2 Capped downward adjustment: the blend lowers the TWAP by at most this fraction. */
export const MAX_DOWNWARD_ADJUSTMENT = 0.15;

/** §6.3 Quantile floor guard: the quantile, its minimum depth and minimum distinct sources. */
export const FLOOR_QUANTILE = 0.2;
export const FLOOR_MIN_POINTS = 5;
export const FLOOR_MIN_SOURCES = 2;

/** §7 Grades 7-9: weight of the composite band in the band-primary blend; the rest is the grader part. */
export const BAND_WEIGHT = 0.6;
export const GRADER_WEIGHT = 1 - BAND_WEIGHT;

/** §7: grader-specific data with fewer included points than this is thin and shrinks to the gem-10 anchor. */
export const THIN_GRADER_POINTS = 3;

/** §8 Ratio tables: price of a grade (or ungraded) as a fraction of the same grader's grade 10. */
export interface RatioTable {
  7: number;
  8: number;
  9: number;
  ungraded: number;
}
export const GEM10_RATIOS: Readonly<Record<Era, RatioTable>> = {
  modern: { 7: 0.2, 8: 0.3, 9: 0.45, ungraded: 0.15 },
  vintage: { 7: 0.06, 8: 0.12, 9: 0.25, ungraded: 0.04 },
};

/** §10 `methodology` values. The requested-window key carries the window hours (1-72). */
export function twapMethodology(windowHours: number): string {
  return `twap_${windowHours}h_robust_mad_v1_floor_q20`;
}
export const METHODOLOGY = {
  /** Own observations, 30-day recency-weighted sparse fallback. */
  sparse: 'twap_720h_recency_hl168h_robust_mad_v1_floor_q20',
  /** Grade-10 cell priced by the 30-day composite band (same estimator as a direct TWAP). */
  band: twapMethodology(EXTENDED_WINDOW_HOURS),
  /** Grades 7-9: band-primary blend with grader data and gem-10 anchor. */
  bandPrimary: 'band_primary_720h_gem10_ratio_v1',
  /** A price carried through the era ratio tables from another cell. */
  ratio: 'gem10_ratio_v1',
  /** No observation in 30 days anywhere: medians of the last known points. */
  lastKnown: 'last_known_median_v1',
} as const;

/** §9 `meta.oracle_fallback_tier` values. */
export const FALLBACK_TIER = {
  bandTwap: 'band_twap',
  adjacentGradeRatio: 'adjacent_grade_ratio',
  bandRatio: 'band_ratio',
  ungradedRatio: 'ungraded_ratio',
  gem10Ratio: 'gem10_ratio',
  lastKnownPrice: 'last_known_price',
} as const;
export type FallbackTier = (typeof FALLBACK_TIER)[keyof typeof FALLBACK_TIER];
