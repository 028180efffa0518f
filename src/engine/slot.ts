/**
 * Slot objects of SPEC.md 2.2 with the key order of its table, and the one rounding step of
 * the engine (docs/methodology.md §11).
 */
import type { Grader, MatrixGrade } from '../domain/conditions.js';
import type { GradedSlot, Slot } from '../domain/bundle.js';
import { HOUR_MS, toIsoUtc } from '../domain/time.js';
import type { Priced } from './fallback.js';
import { FALLBACK_TIER, METHODOLOGY, twapMethodology } from './methodology.js';

/** What every slot of one bundle shares. */
export interface SlotContext {
  asOf: number;
  windowMs: number;
  windowHours: number;
  /** The bundle was priced from last known points (docs/methodology.md §9). */
  stale: boolean;
  /** ISO-8601 UTC of an instant; memoised, since the slots of a bundle share a few windows. */
  iso(ms: number): string;
}

/** An `iso` function for one bundle: its slots show only a handful of distinct instants. */
export function memoIso(): (ms: number) => string {
  const cache = new Map<number, string>();
  return (ms) => {
    let text = cache.get(ms);
    if (text === undefined) cache.set(ms, (text = toIsoUtc(ms)));
    return text;
  };
}

/**
 * Rounds an unrounded price to integer cents, half up (⌊x + 0.5⌋), at least 1 cent. The
 * engine calls it once per price, after every blend and clamp; it is non-decreasing, so
 * it keeps the order the clamp established.
 */
export function roundCents(value: number): number {
  return Math.max(1, Math.floor(value + 0.5));
}

/** A slot for a cell the product has no observation for: null price, `no_observations`. */
export function emptySlot(conditionKey: string, ctx: SlotContext, meta: Record<string, unknown>): Slot {
  return {
    price_minor: null,
    currency: 'USD',
    condition_key: conditionKey,
    methodology: twapMethodology(ctx.windowHours),
    window_start: ctx.iso(ctx.asOf - ctx.windowMs),
    window_end: ctx.iso(ctx.asOf),
    included_points: 0,
    excluded_points: 0,
    error: 'no_observations',
    meta,
  };
}

/**
 * A priced slot. `meta` holds the slot-specific keys first (source_counts, developer_*);
 * the shared diagnostics follow: twap_sparse_window_extended, oracle_fallback_tier,
 * oracle_last_known_age_hours.
 */
export function pricedSlot(conditionKey: string, priced: Priced, ctx: SlotContext, meta: Record<string, unknown>): Slot {
  const tier = priced.tier ?? (ctx.stale ? FALLBACK_TIER.lastKnownPrice : null);
  if (priced.value.extended) meta.twap_sparse_window_extended = true;
  if (tier !== null) meta.oracle_fallback_tier = tier;
  if (ctx.stale) meta.oracle_last_known_age_hours = Math.floor((ctx.asOf - priced.value.newestAt) / HOUR_MS);
  return {
    price_minor: roundCents(priced.value.value),
    currency: 'USD',
    condition_key: conditionKey,
    methodology: ctx.stale ? METHODOLOGY.lastKnown : priced.methodology,
    window_start: ctx.iso(priced.value.start),
    window_end: ctx.iso(ctx.asOf),
    included_points: priced.own?.included ?? 0,
    excluded_points: priced.own?.excluded ?? 0,
    error: null,
    meta,
  };
}

/** Adds `company` and `grade` after the slot fields, as SPEC.md 2.2 orders them. */
export function gradedSlot(slot: Slot, company: Grader, grade: MatrixGrade): GradedSlot {
  return {
    price_minor: slot.price_minor,
    currency: slot.currency,
    condition_key: slot.condition_key,
    methodology: slot.methodology,
    window_start: slot.window_start,
    window_end: slot.window_end,
    included_points: slot.included_points,
    excluded_points: slot.excluded_points,
    error: slot.error,
    meta: slot.meta,
    company,
    grade,
  };
}
