/** Hand-made index members for the engine's index tests: a day's instants and a member's prices with ±width intervals. */
import { expect } from 'vitest';
import type { IndexMember } from '../../src/engine/index-chain.js';

export const DAY = 86_400_000;
export const days = (n: number) => Array.from({ length: n }, (_, i) => i * DAY);
export const member = (prices: (number | null)[], width = 0.1): IndexMember => ({
  prices: prices.map((p) => ({
    price: p,
    low: p === null ? null : p * (1 - width),
    high: p === null ? null : p * (1 + width),
  })),
  member: prices.map(() => true),
});

/**
 * What both methods' intervals must do: widen with their members' intervals and narrow with
 * their number, always around the value.
 */
export function expectIntervalFromMembers(
  index: (
    at: number[],
    members: IndexMember[],
  ) => { values: readonly { value: number; low: number; high: number }[] },
): void {
  const one = index(days(2), [member([100, 100], 0.2)]).values[1]!;
  const narrow = index(days(2), [member([100, 100], 0.05)]).values[1]!;
  const four = index(
    days(2),
    [0, 1, 2, 3].map(() => member([100, 100], 0.2)),
  ).values[1]!;
  expect(one.high - one.low).toBeGreaterThan(narrow.high - narrow.low);
  expect(four.high - four.low).toBeLessThan(one.high - one.low);
  expect(one.low).toBeLessThan(one.value);
  expect(one.high).toBeGreaterThan(one.value);
}
