// @module-tag sqlite-only: the pure engine: no store
/** The quote weight of docs/methodology.md §4.1: a sale counts once, a quote's weight grows with its volume, bounded. */
import { describe, expect, it } from 'vitest';
import { QUOTE_AGE_MS, QUOTE_WEIGHT_CAP, quoteWeight } from '../../src/engine/methodology.js';
import { buildSeries } from '../../src/engine/series.js';
import { estimateCondition, estimateContext } from '../../src/engine/estimate.js';
import { HOUR_MS } from '../../src/domain/time.js';

describe('quote weight', () => {
  it.each([
    [null, 1],
    [undefined, 1],
    [0, 1],
    [9, 2],
    [1299, QUOTE_WEIGHT_CAP],
  ])('weighs a point of volume %j as %j sales', (volume, weight) => {
    expect(quoteWeight(volume)).toBeCloseTo(Math.min(weight, QUOTE_WEIGHT_CAP), 10);
  });

  it('moves the estimate toward a high-volume quote and counts it as more than one point', () => {
    const asOf = 100 * HOUR_MS;
    // The sale is as old as the sales the quote summarises (§4.1): their recency weights are equal.
    const points = (volume: number | null) => [
      {
        condition: 'ungraded',
        source: 'ebay',
        observedAt: asOf - 2 * HOUR_MS - QUOTE_AGE_MS,
        priceMinor: 1000,
      },
      {
        condition: 'ungraded',
        source: 'pricecharting',
        observedAt: asOf - 2 * HOUR_MS,
        priceMinor: 1200,
        salesVolume: volume,
      },
    ];
    const estimate = (volume: number | null) => {
      const set = buildSeries(points(volume), asOf, asOf - 24 * HOUR_MS);
      const s = set.conditions[0]!.current;
      return estimateCondition(s, estimateContext(asOf, asOf - 24 * HOUR_MS, 2, set.maxLength))!;
    };
    const quote = estimate(1299);
    // weights 1 and QUOTE_WEIGHT_CAP: the log mean sits QUOTE_WEIGHT_CAP / (1 + cap) of the way to the quote
    const share = QUOTE_WEIGHT_CAP / (1 + QUOTE_WEIGHT_CAP);
    expect(quote.mean).toBeCloseTo(Math.log(1000) + share * Math.log(1.2), 10);
    expect(quote.effectivePoints).toBeCloseTo(1 + QUOTE_WEIGHT_CAP, 10);
  });

  it('weighs a quote as the sales it summarises: QUOTE_AGE_MS older than its date', () => {
    const asOf = 400 * HOUR_MS;
    const estimate = (source: string) => {
      const points = [
        { condition: 'ungraded', source: 'ebay', observedAt: asOf - 30 * HOUR_MS, priceMinor: 1000 },
        { condition: 'ungraded', source, observedAt: asOf - 2 * HOUR_MS, priceMinor: 1200 },
      ];
      const set = buildSeries(points, asOf, asOf - 24 * HOUR_MS);
      return estimateCondition(
        set.conditions[0]!.current,
        estimateContext(asOf, asOf - 24 * HOUR_MS, 2, set.maxLength),
      )!;
    };
    // Half-life 30 h (the oldest kept point); a sale 2 h old weighs 2^(-2/30), a quote 2^(-(2 + 72)/30).
    const w = (ageHours: number) => Math.pow(2, -ageHours / 30);
    const mean = (wNew: number) => (w(30) * Math.log(1000) + wNew * Math.log(1200)) / (w(30) + wNew);
    expect(estimate('ebay').mean).toBeCloseTo(mean(w(2)), 10);
    expect(estimate('tcgplayer').mean).toBeCloseTo(mean(w(2 + QUOTE_AGE_MS / HOUR_MS)), 10);
    expect(estimate('tcgplayer').mean).toBeLessThan(estimate('ebay').mean);
  });

  it('judges a regime change on the sales: quotes at the old level among them do not hide a jump', () => {
    const asOf = 400 * HOUR_MS;
    const points = [
      ...Array.from({ length: 12 }, (_, i) => ({
        condition: 'ungraded',
        source: 'ebay',
        observedAt: asOf - (40 - i) * HOUR_MS,
        priceMinor: 1000 + (i % 3) * 10,
      })),
      // The market jumped 50 % 16 h ago: the sales show it, the guide's quotes do not yet.
      ...Array.from({ length: 8 }, (_, i) => ({
        condition: 'ungraded',
        source: 'ebay',
        observedAt: asOf - (16 - 2 * i) * HOUR_MS,
        priceMinor: 1500 + (i % 3) * 15,
      })),
      ...Array.from({ length: 4 }, (_, i) => ({
        condition: 'ungraded',
        source: 'pricecharting',
        observedAt: asOf - (15 - 4 * i) * HOUR_MS,
        priceMinor: 1005,
      })),
    ];
    const set = buildSeries(points, asOf, asOf - 24 * HOUR_MS);
    const e = estimateCondition(
      set.conditions[0]!.current,
      estimateContext(asOf, asOf - 24 * HOUR_MS, 2, set.maxLength),
    )!;
    expect(e.regime).toBe(true);
    expect(Math.exp(e.mean)).toBeGreaterThan(1450);
  });
});
