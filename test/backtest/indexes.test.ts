// @module-tag sqlite-only: a seeded market loaded into a SQLite file, as the backtest runs it; the store's reads run on both in the store contract
/**
 * The market index backtest (docs/backtest.md, "Market indexes"): on a small seeded market,
 * both methods computed from our prices track the same method's index of the true prices,
 * and a crash shows in the index of true prices.
 */
import { describe, expect, it } from 'vitest';
import { INDEX_METHODS, simulatedIndexes, simulatedInstants } from '../../backtest/lib/indexes.js';
import { loadMarket } from '../../backtest/lib/load.js';
import { buildMarket } from '../../backtest/lib/market.js';
import { tempDir } from '../_setup.js';

describe('the market index backtest', () => {
  it('tracks the index of true prices by scenario, each method against its own', async () => {
    const market = buildMarket('1', 'small', 'baseline,crash');
    const { store } = await loadMarket(market, tempDir('oracle-index-backtest-'), async () => null);
    try {
      const { instants, rows } = await simulatedIndexes(market, store);
      expect(instants).toBe(simulatedInstants().length);
      expect(rows.map((r) => `${r.scenario} ${r.method}`)).toEqual(
        ['baseline', 'crash', 'all'].flatMap((s) => INDEX_METHODS.map((m) => `${s} ${m}`)),
      );
      for (const r of rows) {
        expect(r.members).toBe(r.scenario === 'all' ? 6 : r.scenario === 'baseline' ? 4 : 2);
        // Ours within a few percent of the truth's index, never exactly it (the prices are estimates).
        expect(r.trackingRmsPct).toBeGreaterThan(0);
        expect(r.trackingRmsPct).toBeLessThan(6);
        expect(r.pricedLast).toBe(r.members);
      }
      // The crash (-43 % on each member) shows in the truth's Laspeyres index, uncapped.
      const crash = rows.find((r) => r.scenario === 'crash' && r.method === 'chained-laspeyres')!;
      expect(crash.trueMovePct).toBeLessThan(-20);
    } finally {
      await store.close();
    }
  }, 60_000);
});
