/**
 * A chained Laspeyres index with capped weights (docs/methodology.md §17.7): a basket fixed at
 * each rebalance, each member's weight its price's share of the basket, capped at
 * INDEX_WEIGHT_CAP; between rebalances each link is the basket's value ratio over the members
 * valued at both instants (weights drifting with their prices, as a fixed basket's do). Pure.
 */
import { chainIndex, type IndexMember, type IndexSeries, type Standing } from './index-chain.js';
import { INDEX_REBALANCE_MS, INDEX_WEIGHT_CAP } from './methodology.js';

/**
 * Weights proportional to `prices`, none above INDEX_WEIGHT_CAP: a weight over it is set to it
 * and the excess shared among the others in proportion to their prices, until none is over.
 * Fewer members than the cap allows (n × cap < 1): equal weights.
 */
export function cappedWeights(prices: readonly number[]): number[] {
  const n = prices.length;
  if (n === 0) return [];
  if (n * INDEX_WEIGHT_CAP < 1) return prices.map(() => 1 / n);
  const capped = prices.map(() => false);
  for (;;) {
    const free = prices.reduce((sum, p, i) => (capped[i] ? sum : sum + p), 0);
    const left = 1 - INDEX_WEIGHT_CAP * capped.filter(Boolean).length;
    const weights = prices.map((p, i) => (capped[i] ? INDEX_WEIGHT_CAP : (p / free) * left));
    const over = weights.findIndex((w, i) => !capped[i] && w > INDEX_WEIGHT_CAP + 1e-12);
    if (over === -1) return weights;
    weights.forEach((w, i) => {
      if (w > INDEX_WEIGHT_CAP + 1e-12) capped[i] = true;
    });
  }
}

/**
 * The chained Laspeyres index at `instants` (the first its base); the basket is set at the
 * base, at every INDEX_REBALANCE_MS after it and whenever it is empty, over the members valued
 * then. A member first valued between rebalances joins with the basket's mean share. Carrying
 * and the interval are chainIndex's.
 */
export function chainedLaspeyres(
  instants: readonly number[],
  members: readonly IndexMember[],
  contributionsFrom = 0,
): IndexSeries {
  /** Each member's share of the basket's value, relative to the index (NaN: not in the basket). */
  const share = members.map(() => NaN);
  const base = instants[0] ?? 0;
  let nextRebalance = base;
  const rebalance = (current: readonly (Standing | null)[]) => {
    const valued = current.flatMap((s, i) => (s === null ? [] : [i]));
    const weights = cappedWeights(valued.map((i) => Math.exp(current[i]!.ln)));
    share.fill(NaN);
    valued.forEach((i, k) => (share[i] = weights[k]!));
  };
  return chainIndex(
    instants,
    members,
    ({ t, current, previous, linked }) => {
      const held = linked.filter((i) => !Number.isNaN(share[i]));
      const total = held.reduce((sum, i) => sum + share[i]!, 0);
      const relative = held.map((i) => Math.exp(current[i]!.ln - previous[i]!.ln));
      const ratio = total === 0 ? 1 : held.reduce((sum, i, k) => sum + share[i]! * relative[k]!, 0) / total;
      const ln = Math.log(ratio);
      // Each member's share of the link: its part of the basket's move, scaled from ratio - 1 to ln(ratio).
      const scale = ratio === 1 ? 1 : ln / (ratio - 1);
      const byMember = new Map(
        held.map((i, k) => [
          i,
          {
            share: ((share[i]! * (relative[k]! - 1)) / total) * scale,
            weight: share[i]! / total,
          },
        ]),
      );
      held.forEach((i, k) => (share[i]! *= relative[k]! / ratio));
      const at = instants[t]!;
      if (at >= nextRebalance || !share.some((s) => !Number.isNaN(s))) {
        rebalance(current);
        while (nextRebalance <= at) nextRebalance += INDEX_REBALANCE_MS;
      } else {
        const inBasket = share.filter((s) => !Number.isNaN(s));
        const mean = inBasket.reduce((a, b) => a + b, 0) / inBasket.length;
        current.forEach((s, i) => {
          if (s !== null && Number.isNaN(share[i])) share[i] = mean;
        });
      }
      return {
        ln,
        shares: linked.map((i) => byMember.get(i)?.share ?? 0),
        weights: linked.map((i) => byMember.get(i)?.weight ?? 0),
      };
    },
    contributionsFrom,
  );
}
