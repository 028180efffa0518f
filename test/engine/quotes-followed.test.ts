// @module-tag sqlite-only: the pure engine: no store
/** Quotes followed, not re-averaged (docs/methodology.md §4.2, issue 31 item 4). */
import { describe, expect, it } from 'vitest';
import { buildSeries } from '../../src/engine/series.js';
import { estimateCondition, estimateContext } from '../../src/engine/estimate.js';
import { DAY_MS, HOUR_MS } from '../../src/domain/time.js';

const asOf = 400 * DAY_MS;

function estimate(points: { source: string; daysBefore: number; priceMinor: number }[]) {
  const set = buildSeries(
    points.map((p) => ({
      condition: 'ungraded',
      source: p.source,
      observedAt: asOf - p.daysBefore * DAY_MS,
      priceMinor: p.priceMinor,
    })),
    asOf,
    asOf - 24 * HOUR_MS,
  );
  return estimateCondition(
    set.conditions[0]!.current,
    estimateContext(asOf, asOf - 24 * HOUR_MS, 2, set.maxLength),
  )!;
}

/** A daily guide series: 28 quotes near $290, then the jump of Charizard ex 199 (issue 31): $454, $487. */
const jump = [
  ...Array.from({ length: 28 }, (_, i) => ({
    source: 'tcgplayer',
    daysBefore: 30 - i,
    priceMinor: 29_000 + (i % 3) * 300,
  })),
  { source: 'tcgplayer', daysBefore: 1.5, priceMinor: 45_400 },
  { source: 'tcgplayer', daysBefore: 0.5, priceMinor: 48_700 },
];

describe('quotes followed', () => {
  it('prices a quote-only slot at its latest quote after a jump, not at the filtered average', () => {
    const e = estimate(jump);
    expect(e.followed).toBe(true);
    expect(Math.round(Math.exp(e.mean))).toBe(48_700);
    // The older quotes are out of the estimate, not outliers of it.
    expect(e.included).toBe(1);
    expect(e.i0).toBe(e.i1 - 1);
  });

  it('adjusts the latest quote only by the sales newer than it', () => {
    const withSales = estimate([
      ...jump,
      { source: 'ebay', daysBefore: 3, priceMinor: 20_000 }, // older than the latest quote: ignored
      { source: 'ebay', daysBefore: 0.25, priceMinor: 50_000 },
    ]);
    expect(withSales.followed).toBe(true);
    const price = Math.exp(withSales.mean);
    expect(price).toBeGreaterThan(48_700);
    expect(price).toBeLessThan(50_000);
    expect(withSales.included).toBe(2);
  });

  it('widens the interval by the steps between quotes, not by the jump', () => {
    const e = estimate(jump);
    // One next quote strays by the series' steps (pooled with the prior), far less than the jump's ln 1.6.
    expect(Math.sqrt(e.variance + e.scatter)).toBeLessThan(0.2);
  });

  it('leaves a slot of mostly sales to the filter and the recency weights', () => {
    const e = estimate([
      ...Array.from({ length: 6 }, (_, i) => ({ source: 'ebay', daysBefore: 6 - i, priceMinor: 10_000 })),
      { source: 'pricecharting', daysBefore: 0.5, priceMinor: 20_000 },
    ]);
    expect(e.followed).toBe(false);
    expect(Math.round(Math.exp(e.mean))).toBe(10_000);
  });
});
