/**
 * What the engine reads to price at given parameters (docs/methodology.md §1-§2), so the
 * caller fetches exactly that and no more: bounded work per bundle, whatever the length and
 * density of a product's history.
 */
import type { PricingParams } from '../domain/bundle.js';
import { HOUR_MS } from '../domain/time.js';
import {
  EXTENDED_DEPTH_PER_CONDITION,
  EXTENDED_WINDOW_MS,
  PRIOR_POINTS_PER_CONDITION,
} from './methodology.js';

/** The points a bundle needs, per priced condition: see `pointsRequest`. */
export interface PointsRequest {
  /** Every point in [windowStart, asOf): the requested window. */
  windowStart: number;
  asOf: number;
  /** The latest `depthPerCondition` points in [lookbackStart, windowStart): the extended window. */
  lookbackStart: number;
  depthPerCondition: number;
  /** The latest `priorPerCondition` points before lookbackStart: the last known price. */
  priorPerCondition: number;
}

/** Start of the requested window [as_of - window_hours, as_of). */
export function requestedWindowStart(params: PricingParams): number {
  return params.asOf - params.windowHours * HOUR_MS;
}

/**
 * The points `computeBundle` reads for `params`, per priced condition: every point of the
 * requested window, the latest EXTENDED_DEPTH_PER_CONDITION of the 30 days before it, and
 * the latest PRIOR_POINTS_PER_CONDITION older than 30 days. Any superset gives the same bundle.
 */
export function pointsRequest(params: PricingParams): PointsRequest {
  return {
    windowStart: requestedWindowStart(params),
    asOf: params.asOf,
    lookbackStart: params.asOf - EXTENDED_WINDOW_MS,
    depthPerCondition: EXTENDED_DEPTH_PER_CONDITION,
    priorPerCondition: PRIOR_POINTS_PER_CONDITION,
  };
}
