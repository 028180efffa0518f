/**
 * The carried move (docs/methodology.md §6.1): a condition's own estimate stands where its
 * kept points were sold, on average some time ago; the card's busiest condition shows how far
 * the card's market moved since then. A thin condition's estimate is shifted by that move,
 * so a graded cell follows a jump or a crash as fast as the card's ungraded price does instead
 * of waiting for its own slow sales.
 */
import { HOUR_MS } from '../domain/time.js';
import {
  CARRY_HOLD_MS,
  CARRY_MIN_MOVE,
  CARRY_REFERENCE_POINTS,
  CARRY_SPAN_MS,
  MIN_REFERENCE_POINTS,
} from './methodology.js';
import { plentiful } from './card-model.js';
import type { Estimate } from './estimate.js';
import { lowerBound, type Series } from './series.js';
import { median } from './stats.js';

/**
 * The reference: the condition with the most kept points in the requested window among those
 * whose window alone holds a full reference set (MIN_REFERENCE_POINTS kept points: its past
 * levels are medians of many sales, which a burst of a few hours cannot set), the lowest index
 * on a tie; -1 when none does.
 */
export function carryReference(own: readonly (Estimate | null)[]): number {
  let best = -1;
  own.forEach((e, c) => {
    if (
      e !== null &&
      e.windowKept >= MIN_REFERENCE_POINTS &&
      (best < 0 || e.windowKept > own[best]!.windowKept)
    )
      best = c;
  });
  return best;
}

/**
 * The reference's points [i0, i1) whose median is its level at `t`: those within CARRY_SPAN_MS
 * either side of the middle of t's hour (a burst of a few hours cannot hold half of a day's
 * sales); for a `t` older than the reference's points reach, its earliest 2 x CARRY_SPAN_MS;
 * never fewer than CARRY_REFERENCE_POINTS (the nearest ones).
 */
export function spanAround(s: Series, t: number): [number, number] {
  const centre = Math.max(hourOf(t) * HOUR_MS + HOUR_MS / 2, s.t[s.lo]! + CARRY_SPAN_MS);
  let i1 = lowerBound(s, centre + CARRY_SPAN_MS);
  let i0 = lowerBound(s, centre - CARRY_SPAN_MS);
  if (i1 - i0 < CARRY_REFERENCE_POINTS) i0 = Math.max(s.lo, i1 - CARRY_REFERENCE_POINTS);
  if (i1 - i0 < CARRY_REFERENCE_POINTS) i1 = Math.min(s.hi, i0 + CARRY_REFERENCE_POINTS);
  return [i0, i1];
}

/** The reference's level CARRY_HOLD_MS ago: the median of its CARRY_REFERENCE_POINTS latest points before then (or its earliest ones). */
function levelBefore(s: Series, t: number, scratch: Float64Array): number {
  const i0 = Math.max(s.lo, lowerBound(s, t) - CARRY_REFERENCE_POINTS);
  return medianOf(s, i0, Math.min(s.hi, i0 + CARRY_REFERENCE_POINTS), scratch);
}

function hourOf(t: number): number {
  return Math.floor(t / HOUR_MS);
}

function medianOf(s: Series, i0: number, i1: number, scratch: Float64Array): number {
  for (let i = i0; i < i1; i++) scratch[i - i0] = s.y[i]!;
  return median(scratch, i1 - i0);
}

/**
 * The own estimates with the market's move carried into each one that is not plentiful: the
 * reference's level now minus its level at the condition's kept points' recency-weighted mean
 * time, when that is at least CARRY_MIN_MOVE in ln.
 * The reference's level now is the one of its own estimate and of its points CARRY_HOLD_MS
 * ago that lies nearer to the old levels: a move is carried once it has held that long, so a
 * burst of shill sales that fooled the reference for a few hours does not reach every cell.
 */
export function carryMoves(
  own: readonly (Estimate | null)[],
  asOf: number,
  scratch: Float64Array,
): (Estimate | null)[] {
  const r = carryReference(own);
  if (r < 0) return [...own];
  const ref = own[r]!;
  const held = levelBefore(ref.series, asOf - CARRY_HOLD_MS, scratch);
  // Conditions whose points are older than the reference's reach share its earliest span: one median per span.
  const levels = new Map<number, number>();
  return own.map((e, c) => {
    if (e === null || c === r || plentiful(e)) return e;
    const [i0, i1] = spanAround(ref.series, e.meanAt);
    const key = i0 * (ref.series.hi + 1) + i1;
    let then = levels.get(key);
    if (then === undefined) levels.set(key, (then = medianOf(ref.series, i0, i1, scratch)));
    const now = Math.abs(held - then) < Math.abs(ref.mean - then) ? held : ref.mean;
    const move = now - then;
    // Opposite signs: the move did not hold; nothing is carried.
    if (!(Math.abs(move) >= CARRY_MIN_MOVE) || (held - then) * (ref.mean - then) <= 0) return e;
    return {
      ...e,
      mean: e.mean + move,
      newestAt: Math.max(e.newestAt, ref.newestAt),
      carry: { from: r, current: ref.mean, held, now, move, before: e.mean },
    };
  });
}
