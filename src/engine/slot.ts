/**
 * Slot objects of SPEC.md 2.2 with the key order of its table, the one rounding step of the
 * engine (docs/methodology.md §12), and the meta every priced slot carries: the tier, the
 * 80 % interval (§9) and the age of its data (§10).
 */
import type { Grader, MatrixGrade } from '../domain/conditions.js';
import type { GradedSlot, Slot, SlotMeta } from '../domain/bundle.js';
import { DAY_MS, HOUR_MS, toIsoUtc } from '../domain/time.js';
import { basisOf, type CellPrice } from './card-model.js';
import {
  CONFIDENCE_LEVEL,
  CONFIDENCE_Z,
  ESTIMATE_MAX_LOG_WIDTH,
  FALLBACK_TIER,
  METHODOLOGY,
  NO_PRICE_REASON,
  STALE_AFTER_MS,
  WIDTH_FACTOR,
  PREDICTION_QUANTILE,
  SALE_SIGMA_PRIOR,
  ownMethodology,
} from './methodology.js';

/** Why an estimate was not published (§9.1, `meta.no_price_reason`). */
export type NoPriceReason = NonNullable<SlotMeta['no_price_reason']>;

/** What every slot of one bundle shares. */
export interface SlotContext {
  asOf: number;
  windowStart: number;
  windowHours: number;
  /** The bundle was priced from last known points (docs/methodology.md §8). */
  lastKnown: boolean;
  /** ISO-8601 UTC of an instant; memoised, since the slots of a bundle share a few instants. */
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
function emptySlot(conditionKey: string, ctx: SlotContext, meta: Record<string, unknown>): Slot {
  return {
    price_minor: null,
    currency: 'USD',
    condition_key: conditionKey,
    methodology: ownMethodology(ctx.windowHours),
    window_start: ctx.iso(ctx.windowStart),
    window_end: ctx.iso(ctx.asOf),
    included_points: 0,
    excluded_points: 0,
    error: 'no_observations',
    meta,
  };
}

/** The tier a priced cell shows: its own, or `last_known_price` for own data in the last-known pass. */
export function shownTier(cell: CellPrice, lastKnown: boolean): string | null {
  return (
    cell.tier ?? (lastKnown || (cell.ownWeight > 0 && cell.own!.old) ? FALLBACK_TIER.lastKnownPrice : null)
  );
}

/** The inputs of a cell's 80 % prediction interval (§9). */
export interface Interval {
  /** Variance of the price as an estimate of the level (§5, §6). */
  variance: number;
  /** Variance of one next sale around the level: the own data's scatter, the prior's for the rest of the blend. */
  scatter: number;
  /** The standardised residuals' 80 % quantile for the cell's basis and the age of its data (PREDICTION_QUANTILE). */
  quantile: number;
  /** The tier's width factor (WIDTH_FACTOR). */
  factor: number;
  /** Half the width in ln units: quantile · factor · √(variance + scatter). */
  half: number;
}

/** The 80 % quantile of the standardised next-sale residuals of a price from own data (or not) at an age (§9). */
export function predictionQuantile(own: boolean, ageMs: number): number {
  const row = PREDICTION_QUANTILE.find(([days]) => ageMs <= days * DAY_MS)!;
  return own ? row[1] : row[2];
}

/** The 80 % prediction interval of a priced cell's estimate (§9). */
export function intervalOf(cell: CellPrice, asOf: number, lastKnown: boolean): Interval {
  const e = cell.estimate!;
  const own = cell.ownWeight > 0 ? cell.own : null;
  const prior = SALE_SIGMA_PRIOR * SALE_SIGMA_PRIOR;
  const scatter = own === null ? prior : cell.ownWeight * own.scatter + (1 - cell.ownWeight) * prior;
  const quantile = predictionQuantile(own !== null, asOf - e.newestAt);
  const factor = WIDTH_FACTOR[(shownTier(cell, lastKnown) ?? 'own') as keyof typeof WIDTH_FACTOR];
  return {
    variance: e.variance,
    scatter,
    quantile,
    factor,
    half: quantile * factor * Math.sqrt(e.variance + scatter),
  };
}

/** Data newest at `newestAt` is stale as of `asOf` (§10): older than the stale age. */
export function isStale(newestAt: number, asOf: number): boolean {
  return asOf - newestAt > STALE_AFTER_MS;
}

/**
 * The full width, in ln units, of the 80 % interval of a cell's estimate as a level (§9.1):
 * z · the tier's width factor · the level's standard deviation, each side. What the
 * withholding rule judges: how far the ratios that carry other cells' data to this one can be off,
 * before the next sale's own scatter (§9).
 */
export function estimateLogWidth(cell: CellPrice, lastKnown: boolean): number {
  const factor = WIDTH_FACTOR[(shownTier(cell, lastKnown) ?? 'own') as keyof typeof WIDTH_FACTOR];
  return 2 * CONFIDENCE_Z * factor * Math.sqrt(cell.estimate!.variance);
}

/**
 * Why a cell's price is not published (§9.1), or null when it is: an estimate (basis
 * `estimated`) resting on data older than the stale age, or whose interval would span more
 * than e^ESTIMATE_MAX_LOG_WIDTH. Own data is always published, stale or not (marked stale).
 */
export function noPriceReason(cell: CellPrice, asOf: number, lastKnown: boolean): NoPriceReason | null {
  const e = cell.estimate;
  // A cell with sales (or quotes) of its own is priced from them whatever their age (§9.1).
  if (e === null || cell.ownWeight > 0) return null;
  if (isStale(e.newestAt, asOf)) return NO_PRICE_REASON.stale;
  if (estimateLogWidth(cell, lastKnown) > ESTIMATE_MAX_LOG_WIDTH) return NO_PRICE_REASON.wide;
  return null;
}

/**
 * The slot of a cell whose estimate is withheld (§9.1): no price, SPEC's `no_observations` (no
 * observations that support a price), and in `meta` the reason and the newest observation the
 * estimate would have rested on.
 */
function withheldSlot(
  conditionKey: string,
  cell: CellPrice,
  reason: NoPriceReason,
  ctx: SlotContext,
  meta: Record<string, unknown>,
): Slot {
  meta.no_price_reason = reason;
  meta.newest_observation_at = ctx.iso(cell.estimate!.newestAt);
  return emptySlot(conditionKey, ctx, meta);
}

/** A cell's slot: withheld (§9.1), without a price, or priced at `price` (unrounded cents, after the clamp). */
export function cellSlot(
  conditionKey: string,
  cell: CellPrice,
  withheld: NoPriceReason | null,
  price: number | null,
  ctx: SlotContext,
  meta: Record<string, unknown>,
): Slot {
  if (withheld !== null) return withheldSlot(conditionKey, cell, withheld, ctx, meta);
  return price === null
    ? emptySlot(conditionKey, ctx, meta)
    : pricedSlot(conditionKey, cell, price, ctx, meta);
}

/** The 80 % interval around a ln price, `half` either side, holding the rounded price (§9). */
export function confidence(mean: number, half: number, price: number) {
  return {
    level: CONFIDENCE_LEVEL,
    low_minor: Math.min(price, roundCents(Math.exp(mean - half))),
    high_minor: Math.max(price, roundCents(Math.exp(mean + half))),
  };
}

/**
 * A priced slot. `price` is the unrounded price in cents (after the clamp); `meta` holds the
 * slot-specific keys first (source_counts, developer_*); the shared ones follow:
 * twap_sparse_window_extended, oracle_fallback_tier, oracle_last_known_age_hours,
 * confidence, newest_observation_at, stale, basis, basis_reason (only on an estimate).
 */
export function pricedSlot(
  conditionKey: string,
  cell: CellPrice,
  price: number,
  ctx: SlotContext,
  meta: Record<string, unknown>,
): Slot {
  const e = cell.estimate!;
  const tier = shownTier(cell, ctx.lastKnown);
  const cents = roundCents(price);
  if (e.extended) meta.twap_sparse_window_extended = true;
  if (tier !== null) meta.oracle_fallback_tier = tier;
  const own = cell.ownWeight > 0 ? cell.own : null;
  if (ctx.lastKnown || own?.old)
    meta.oracle_last_known_age_hours = Math.floor(
      (ctx.asOf - (own?.old ? own.newestAt : e.newestAt)) / HOUR_MS,
    );
  meta.confidence = confidence(e.mean, intervalOf(cell, ctx.asOf, ctx.lastKnown).half, cents);
  meta.newest_observation_at = ctx.iso(e.newestAt);
  meta.stale = isStale(e.newestAt, ctx.asOf);
  const { basis, reason } = basisOf(cell);
  meta.basis = basis;
  if (reason !== null) meta.basis_reason = reason;
  const methodology =
    ctx.lastKnown || own?.old
      ? METHODOLOGY.lastKnown
      : own === null
        ? METHODOLOGY.cardModel
        : own.extended
          ? METHODOLOGY.toppedUp
          : ownMethodology(ctx.windowHours);
  const set = cell.rejected ? cell.own : null;
  return {
    price_minor: cents,
    currency: 'USD',
    condition_key: conditionKey,
    methodology,
    // The window of the slot's own observations when they entered the price, else of the data it came from.
    window_start: ctx.iso(Math.min(own?.start ?? e.start, ctx.windowStart)),
    window_end: ctx.iso(ctx.asOf),
    included_points: own?.included ?? 0,
    excluded_points: own?.excluded ?? (set === null ? 0 : set.included + set.excluded),
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
