// @module-tag sqlite-only: the pure engine, no store
import { describe, expect, it } from 'vitest';
import type { IndexMember } from '../../src/engine/index-chain.js';
import { DAY, days, expectIntervalFromMembers, member } from './_index-members.js';
import { cappedWeights, chainedLaspeyres } from '../../src/engine/index-laspeyres.js';
import { INDEX_BASE_VALUE, INDEX_REBALANCE_MS, INDEX_WEIGHT_CAP } from '../../src/engine/methodology.js';

describe('cappedWeights', () => {
  it('weights by price, none above the cap, the excess shared in proportion', () => {
    const prices = [1000, ...Array<number>(11).fill(10)];
    const w = cappedWeights(prices);
    expect(w[0]).toBeCloseTo(INDEX_WEIGHT_CAP, 12);
    expect(w.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    for (const x of w.slice(1)) expect(x).toBeCloseTo((1 - INDEX_WEIGHT_CAP) / 11, 12);
  });

  it('gives equal weights when the cap cannot hold (fewer members than 1 / cap)', () => {
    expect(cappedWeights([100, 300])).toEqual([0.5, 0.5]);
    expect(cappedWeights([])).toEqual([]);
  });

  it('keeps price proportions when no one is over the cap', () => {
    const prices = Array.from({ length: 20 }, (_, i) => 100 + i);
    const w = cappedWeights(prices);
    const total = prices.reduce((a, b) => a + b, 0);
    w.forEach((x, i) => expect(x).toBeCloseTo(prices[i]! / total, 12));
  });
});

describe('chainedLaspeyres', () => {
  it("is the fixed basket's value ratio while every member is priced", () => {
    // 12 members, none over the cap: weights are the prices' shares at the base.
    const base = [...Array<number>(11).fill(100), 110];
    const later = base.map((p, i) => (i === 11 ? p * 1.1 : p));
    const members = base.map((p, i) => member([p, (p + later[i]!) / 2, later[i]!]));
    const { values, contributions } = chainedLaspeyres(days(3), members);
    expect(values[0]!.value).toBe(INDEX_BASE_VALUE);
    const expected = INDEX_BASE_VALUE * (later.reduce((a, b) => a + b) / base.reduce((a, b) => a + b));
    expect(values[2]!.value).toBeCloseTo(expected, 9);
    // All the move is the member that moved; the sum of shares is the log of the move.
    expect(contributions.slice(0, 11).every((c) => c === 0)).toBe(true);
    expect(contributions[11]).toBeCloseTo(Math.log(expected / INDEX_BASE_VALUE), 12);
    expect(values[2]!.priced).toBe(12);
    expect(values[2]!.linked).toBe(12);
  });

  it('moves with a capped member by its capped weight, not its price share', () => {
    const members = [member([10_000, 20_000]), ...Array.from({ length: 11 }, () => member([10, 10]))];
    const { values } = chainedLaspeyres(days(2), members);
    // Uncapped, the $100 card is 99 % of the basket and the index nearly doubles.
    expect(values[1]!.value).toBeCloseTo(INDEX_BASE_VALUE * (1 + INDEX_WEIGHT_CAP), 9);
  });

  it('resets its weights at a rebalance', () => {
    const n = Math.round(INDEX_REBALANCE_MS / DAY) + 2;
    const instants = days(n);
    // One member doubles on day 1, then the other moves 10 % on the last day.
    const a = member(instants.map((_, t) => (t === 0 ? 100 : 200)));
    const b = member(instants.map((_, t) => (t === n - 1 ? 110 : 100)));
    const { values } = chainedLaspeyres(instants, [a, b]);
    const atRebalance = values[n - 2]!.value;
    expect(values[1]!.value).toBeCloseTo(1500, 9);
    // After the rebalance equal weights again (2 members): b's 10 % moves it 5 %.
    expect(values[n - 1]!.value / atRebalance).toBeCloseTo(1.05, 9);
  });

  it('carries its value over a step nothing links, and lets a member first priced later join', () => {
    const late: IndexMember = { ...member([null, 50, 100]), member: [false, true, true] };
    const { values } = chainedLaspeyres(days(3), [late]);
    expect(values.map((v) => v.linked)).toEqual([0, 0, 1]);
    expect(values[1]!.value).toBe(INDEX_BASE_VALUE);
    expect(values[2]!.value).toBeCloseTo(2 * INDEX_BASE_VALUE, 9);
  });

  it("widens its interval with its members' intervals and narrows it with their number", () =>
    expectIntervalFromMembers(chainedLaspeyres));
});
