/**
 * What a chained index's methods share (docs/methodology.md §17): each member's standing at
 * each instant (its own price or one carried, §17.3), the members each link is measured over,
 * the chained value, its interval (§17.5) and the members' contributions. A method only says
 * how one link is made from its members' moves (index-jevons.ts, index-laspeyres.ts). Pure.
 */
import { INDEX_BASE_VALUE, INDEX_CARRY_MS } from './methodology.js';

/** One member's price at one instant (cents), with its interval; null price: not priced there. */
export interface MemberPrice {
  price: number | null;
  low: number | null;
  high: number | null;
}

export interface IndexMember {
  /** One per instant of the computation. */
  prices: readonly MemberPrice[];
  /** Whether the member belongs to the index at each instant (membership, §17.4). */
  member: readonly boolean[];
}

export interface IndexValue {
  value: number;
  low: number;
  high: number;
  /** Members with a price of their own at this instant (not carried). */
  priced: number;
  /** Members the link into this instant was taken over (priced or carried at it and the one before). */
  linked: number;
}

export interface IndexSeries {
  values: IndexValue[];
  /** Per member, the sum of its shares of every link after instant `contributionsFrom` (ln units). */
  contributions: number[];
}

/** Where a member stands at an instant: its price (own or carried) and that price's log half-width. */
export interface Standing {
  ln: number;
  halfWidth: number;
  /** Its half-width where it entered the chain, the other end of its move from the base. */
  entryHalfWidth: number;
}

/** The members of one step: their standings at it and at the instant before, and those valued at both. */
export interface ChainStep {
  /** The instant's position. */
  t: number;
  current: readonly (Standing | null)[];
  previous: readonly (Standing | null)[];
  /** Members valued at both instants, by position. */
  linked: readonly number[];
}

/** One link as a method makes it: its log, each linked member's share of it and weight in the interval. */
export interface Link {
  ln: number;
  /** Per linked member (same order as `linked`), its share of `ln`. */
  shares: readonly number[];
  /** Per linked member, its weight in the link (summing to 1). */
  weights: readonly number[];
}

function halfWidthOf(p: MemberPrice): number {
  return p.low !== null && p.high !== null && p.low > 0 && p.high > 0 ? Math.log(p.high / p.low) / 2 : 0;
}

/**
 * The index at `instants` (epoch ms, oldest first; the first is its base, valued
 * INDEX_BASE_VALUE). A member is valued at an instant by a price of its own or one carried for
 * up to INDEX_CARRY_MS; the link into an instant is `linkOf` over the members valued at it and
 * at the instant before (none: the value is carried). The interval: the value times exp(± the
 * root of the linked members' weighted squared half-widths now and at their entry), members'
 * errors taken as independent.
 */
export function chainIndex(
  instants: readonly number[],
  members: readonly IndexMember[],
  linkOf: (step: ChainStep) => Link,
  contributionsFrom = 0,
): IndexSeries {
  const contributions = members.map(() => 0);
  const lastPriced = members.map(() => -Infinity);
  let previous: (Standing | null)[] = members.map(() => null);
  let lnIndex = 0;
  const values: IndexValue[] = [];
  instants.forEach((at, t) => {
    let priced = 0;
    const current: (Standing | null)[] = members.map((m, i) => {
      if (!m.member[t]) return null;
      const p = m.prices[t]!;
      const before = previous[i] ?? null;
      if (p.price !== null && p.price > 0) {
        priced += 1;
        lastPriced[i] = at;
        const halfWidth = halfWidthOf(p);
        return { ln: Math.log(p.price), halfWidth, entryHalfWidth: before?.entryHalfWidth ?? halfWidth };
      }
      return before !== null && at - lastPriced[i]! <= INDEX_CARRY_MS ? before : null;
    });
    const linked: number[] = [];
    if (t > 0) current.forEach((s, i) => s !== null && previous[i] !== null && linked.push(i));
    const link = linkOf({ t, current, previous, linked });
    let variance = 0;
    linked.forEach((i, k) => {
      if (t > contributionsFrom) contributions[i]! += link.shares[k]!;
      variance += link.weights[k]! ** 2 * (current[i]!.halfWidth ** 2 + current[i]!.entryHalfWidth ** 2);
    });
    lnIndex += link.ln;
    const value = INDEX_BASE_VALUE * Math.exp(lnIndex);
    const half = Math.sqrt(variance);
    values.push({
      value,
      low: value * Math.exp(-half),
      high: value * Math.exp(half),
      priced,
      linked: linked.length,
    });
    previous = current;
  });
  return { values, contributions };
}
