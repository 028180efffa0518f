/**
 * A watch rule read against bundles the pricing engine made (docs/alerts.md): pure, so a rule
 * fires on exactly what `oracle price` shows at the same instant, and on nothing it would not.
 */
import type { PricingBundle, Slot } from '../domain/bundle.js';
import { parseConditionKey, UNGRADED } from '../domain/conditions.js';
import { HOUR_MS } from '../domain/time.js';
import type { WatchDefinition } from '../domain/watch.js';

/**
 * What a rule sees at one check: `value`, the quantity it watches (cents for a price or an
 * interval width, percent for a move, hours since the newest observation for staleness), and
 * `holds`, whether its condition is true; null when the bundle cannot tell (the slot has no
 * price), so a rule neither fires nor re-arms on a price the engine does not show.
 */
export interface WatchReading {
  value: number | null;
  holds: boolean | null;
}

/** The slot of `slot` (a condition key) in a bundle: the ungraded one, a matrix cell, or an extra grade; undefined when absent. */
export function slotOf(bundle: PricingBundle, slot: string): Slot | undefined {
  if (slot === UNGRADED) return bundle.ungraded;
  const graded = parseConditionKey(slot);
  if (graded === null) return undefined;
  const matrix = (bundle.graded as Record<string, Record<string, Slot> | undefined>)[graded.grader]?.[
    String(graded.grade)
  ];
  return matrix ?? bundle.extra_grades?.[graded.grader]?.[String(graded.grade)];
}

const unknown: WatchReading = { value: null, holds: null };

/** The interval of a priced slot (meta.confidence), or null. */
export function intervalOf(slot: Slot): { level: number; low_minor: number; high_minor: number } | null {
  const c = slot.meta.confidence as
    { level?: unknown; low_minor?: unknown; high_minor?: unknown } | undefined;
  return c !== undefined &&
    typeof c.low_minor === 'number' &&
    typeof c.high_minor === 'number' &&
    typeof c.level === 'number'
    ? { level: c.level, low_minor: c.low_minor, high_minor: c.high_minor }
    : null;
}

/** Percent, kept to two decimals (what an event shows). */
const percentOf = (now: number, before: number) => Math.round(((now - before) / before) * 10_000) / 100;

/**
 * A move rule read on a value now and `rule.spanMs` before (a price in cents, or an index's
 * value): the change in percent, and whether it is at least the rule's size its way.
 */
export function readMove(
  rule: Pick<WatchDefinition, 'percent' | 'direction'>,
  now: number | null,
  then: number | null,
): WatchReading {
  if (now === null || then === null || then === 0) return unknown;
  const change = percentOf(now, then);
  const size = rule.percent!;
  const holds =
    rule.direction === 'up'
      ? change >= size
      : rule.direction === 'down'
        ? change <= -size
        : Math.abs(change) >= size;
  return { value: change, holds };
}

/**
 * Reads `rule` on `slot` (the bundle at the check's instant) and, for a move, `before` (the
 * bundle `spanMs` earlier). Above and below include the amount; narrower and wider exclude it.
 * A slot without a price is stale (its data aged out of every window) and unknown to the rest.
 */
export function readWatch(rule: WatchDefinition, slot: Slot | undefined, before?: Slot): WatchReading {
  const price = slot?.price_minor ?? null;
  switch (rule.kind) {
    case 'above':
      return price === null ? unknown : { value: price, holds: price >= rule.amountMinor! };
    case 'below':
      return price === null ? unknown : { value: price, holds: price <= rule.amountMinor! };
    case 'narrower':
    case 'wider': {
      const interval = slot === undefined || price === null ? null : intervalOf(slot);
      if (interval === null) return unknown;
      const width = interval.high_minor - interval.low_minor;
      return {
        value: width,
        holds: rule.kind === 'narrower' ? width < rule.amountMinor! : width > rule.amountMinor!,
      };
    }
    case 'move':
      return readMove(rule, price, before?.price_minor ?? null);
    case 'stale': {
      if (slot === undefined || price === null) return { value: null, holds: true };
      const newest = slot.meta.newest_observation_at;
      const age =
        typeof newest === 'string'
          ? Math.floor((Date.parse(slot.window_end) - Date.parse(newest)) / HOUR_MS)
          : null;
      return { value: age, holds: slot.meta.stale === true };
    }
  }
}
