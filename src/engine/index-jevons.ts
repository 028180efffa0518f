/**
 * A chained Jevons index (docs/methodology.md §17): pure, from each member's price and
 * interval at each instant to the index's value, interval and members priced at each instant,
 * and each member's share of the index's move. No I/O, no clock.
 */
import { INDEX_BASE_VALUE, INDEX_CARRY_MS, INDEX_MEMBER_CAP } from './methodology.js';

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
  /** Per member, the sum of its capped shares of every link after instant `contributionsFrom` (ln units). */
  contributions: number[];
}

/** Where a member stands at an instant: its price (own or carried) and that price's log half-width. */
interface Standing {
  ln: number;
  halfWidth: number;
  /** Its half-width where it entered the chain, the other end of its move from the base. */
  entryHalfWidth: number;
}

function halfWidthOf(p: MemberPrice): number {
  return p.low !== null && p.high !== null && p.low > 0 && p.high > 0 ? Math.log(p.high / p.low) / 2 : 0;
}

/**
 * The index at `instants` (epoch ms, oldest first; the first is its base, valued
 * INDEX_BASE_VALUE). The link into an instant is the mean over the members valued at it and
 * at the instant before (a price of its own or one carried for up to INDEX_CARRY_MS) of their
 * log moves, each member's share clamped to ±INDEX_MEMBER_CAP; no such member: the value is
 * carried. The interval: the value times exp(± the root of the linked members' squared half
 * widths now and at their entry, over their count), members' errors taken as independent.
 */
export function chainedJevons(
  instants: readonly number[],
  members: readonly IndexMember[],
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
    let link = 0;
    let variance = 0;
    for (const i of linked) {
      const share = Math.max(
        -INDEX_MEMBER_CAP,
        Math.min(INDEX_MEMBER_CAP, (current[i]!.ln - previous[i]!.ln) / linked.length),
      );
      link += share;
      if (t > contributionsFrom) contributions[i]! += share;
      variance += current[i]!.halfWidth ** 2 + current[i]!.entryHalfWidth ** 2;
    }
    lnIndex += link;
    const value = INDEX_BASE_VALUE * Math.exp(lnIndex);
    const half = linked.length === 0 ? 0 : Math.sqrt(variance) / linked.length;
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
