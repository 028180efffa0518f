/**
 * A chained Jevons index (docs/methodology.md §17.1-17.2): each link the mean of the linked
 * members' log moves, each member's share clamped to ±INDEX_MEMBER_CAP. Pure.
 */
import { chainIndex, type IndexMember, type IndexSeries } from './index-chain.js';
import { INDEX_MEMBER_CAP } from './methodology.js';

/** The chained Jevons index at `instants` (the first its base); see chainIndex for carrying and the interval. */
export function chainedJevons(
  instants: readonly number[],
  members: readonly IndexMember[],
  contributionsFrom = 0,
): IndexSeries {
  return chainIndex(
    instants,
    members,
    ({ current, previous, linked }) => {
      const n = linked.length;
      const shares = linked.map((i) =>
        Math.max(-INDEX_MEMBER_CAP, Math.min(INDEX_MEMBER_CAP, (current[i]!.ln - previous[i]!.ln) / n)),
      );
      return { ln: shares.reduce((a, b) => a + b, 0), shares, weights: linked.map(() => 1 / n) };
    },
    contributionsFrom,
  );
}
