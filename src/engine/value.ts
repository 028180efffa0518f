/**
 * Unrounded prices with their provenance, and the two ways the engine derives one price
 * from others: a ratio-table conversion and a weighted blend (docs/methodology.md §7-§8).
 */

/** An unrounded price in cents and where it came from. */
export interface Value {
  value: number;
  /** Start of the widest window whose data entered the value (epoch ms). */
  start: number;
  /** True when the 30-day sparse fallback produced data that entered the value. */
  extended: boolean;
  /** observedAt of the newest point that entered the value. */
  newestAt: number;
}

/** Carries a price between conditions through the ratio table: value · toRatio / fromRatio. */
export function convert(v: Value, fromRatio: number, toRatio: number): Value {
  return { value: (v.value * toRatio) / fromRatio, start: v.start, extended: v.extended, newestAt: v.newestAt };
}

/**
 * Weighted sum of values whose weights add up to 1; provenance comes from the parts with a
 * positive weight only. At least one part must have a positive weight and a value.
 */
export function blend(parts: ReadonlyArray<readonly [weight: number, part: Value | null]>): Value {
  let value = 0;
  let start = Infinity;
  let extended = false;
  let newestAt = -Infinity;
  for (const [w, v] of parts) {
    if (w <= 0 || v === null) continue;
    value += w * v.value;
    start = Math.min(start, v.start);
    extended ||= v.extended;
    newestAt = Math.max(newestAt, v.newestAt);
  }
  return { value, start, extended, newestAt };
}
