/** Hand-made index members for the engine's index tests: a day's instants and a member's prices with ±width intervals. */
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
