// @module-tag sqlite-only: the pure engine, no store
import { describe, expect, it } from 'vitest';
import type { IndexMember } from '../../src/engine/index-chain.js';
import { DAY, days, expectIntervalFromMembers, member } from './_index-members.js';
import { chainedJevons } from '../../src/engine/index-jevons.js';
import { INDEX_BASE_VALUE, INDEX_CARRY_MS, INDEX_MEMBER_CAP } from '../../src/engine/methodology.js';

describe('chainedJevons', () => {
  it('is the geometric mean of the members moves from the base value', () => {
    const { values } = chainedJevons(days(3), [member([100, 101, 102]), member([200, 200, 202])]);
    expect(values[0]!.value).toBe(INDEX_BASE_VALUE);
    const expected = INDEX_BASE_VALUE * Math.sqrt((102 / 100) * (202 / 200));
    expect(values[2]!.value).toBeCloseTo(expected, 9);
    expect(values.map((v) => [v.priced, v.linked])).toEqual([
      [2, 0],
      [2, 2],
      [2, 2],
    ]);
  });

  it("caps one member's share of a step", () => {
    const { values, contributions } = chainedJevons(days(2), [member([100, 200]), member([100, 100])]);
    expect(values[1]!.value).toBeCloseTo(INDEX_BASE_VALUE * Math.exp(INDEX_MEMBER_CAP), 9);
    expect(contributions).toEqual([INDEX_MEMBER_CAP, 0]);
  });

  it('carries a member without a price at its last price, then lets it go', () => {
    const carried = Math.floor(INDEX_CARRY_MS / DAY);
    const prices: (number | null)[] = [100, ...Array<null>(carried + 1).fill(null)];
    const { values } = chainedJevons(days(prices.length), [member(prices), member(prices.map(() => 100))]);
    expect(values[carried]!.linked).toBe(2);
    expect(values[carried]!.priced).toBe(1);
    expect(values[carried + 1]!.linked).toBe(1);
    expect(values.at(-1)!.value).toBe(INDEX_BASE_VALUE);
  });

  it('holds its value over a step nothing links, and joins a member from its second instant', () => {
    const late: IndexMember = { ...member([null, 50, 100]), member: [false, true, true] };
    const { values } = chainedJevons(days(3), [late]);
    expect(values.map((v) => v.linked)).toEqual([0, 0, 1]);
    expect(values[1]!.value).toBe(INDEX_BASE_VALUE);
    expect(values[2]!.value).toBeCloseTo(INDEX_BASE_VALUE * Math.exp(INDEX_MEMBER_CAP), 9);
  });

  it("widens its interval with its members' intervals and narrows it with their number", () =>
    expectIntervalFromMembers(chainedJevons));
});
