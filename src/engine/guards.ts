/**
 * The anchor's guards (docs/methodology.md §6), applied in this order to a TWAP:
 * 1. median blend when the TWAP diverges from the median of the kept points,
 * 2. the blend may lower the TWAP by at most MAX_DOWNWARD_ADJUSTMENT,
 * 3. quantile floor: with enough depth and source diversity, never below the q20 of kept points.
 * Every step returns a value between the smallest and largest kept price.
 */
import {
  BLEND_FULL_DIVERGENCE,
  BLEND_MAX_MEDIAN_WEIGHT,
  BLEND_START_DIVERGENCE,
  MAX_DOWNWARD_ADJUSTMENT,
} from './methodology.js';

/** Weight of the median in the blend: 0 up to 10 % divergence, rising linearly to 0.5 at 30 %. */
export function medianBlendWeight(twap: number, med: number): number {
  const divergence = Math.abs(twap - med) / med;
  const ramp = (divergence - BLEND_START_DIVERGENCE) / (BLEND_FULL_DIVERGENCE - BLEND_START_DIVERGENCE);
  return BLEND_MAX_MEDIAN_WEIGHT * Math.min(1, Math.max(0, ramp));
}

/**
 * Applies the three guards. `floor` is the q20 of the kept prices, or null when the window
 * lacks the depth or the source diversity for the floor guard.
 */
export function applyGuards(twap: number, med: number, floor: number | null): number {
  const beta = medianBlendWeight(twap, med);
  let value = (1 - beta) * twap + beta * med;
  if (value < twap) value = Math.max(value, twap * (1 - MAX_DOWNWARD_ADJUSTMENT));
  if (floor !== null && value < floor) value = floor;
  return value;
}
