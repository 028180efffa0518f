/** The quote weight of docs/methodology.md §4.1: a sale counts once, a quote's weight grows with its volume, bounded. */
import { describe, expect, it } from 'vitest';
import { QUOTE_WEIGHT_CAP, quoteWeight } from '../../src/engine/methodology.js';
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
    const points = (volume: number | null) => [
      { condition: 'ungraded', source: 'ebay', observedAt: asOf - 2 * HOUR_MS, priceMinor: 1000 },
      { condition: 'ungraded', source: 'pricecharting', observedAt: asOf - 2 * HOUR_MS, priceMinor: 1200, salesVolume: volume },
    ];
    const estimate = (volume: number | null) => {
      const set = buildSeries(points(volume), asOf, asOf - 24 * HOUR_MS);
      const s = set.conditions[0]!.current;
      return estimateCondition(s, estimateContext(asOf, asOf - 24 * HOUR_MS, 2, set.maxLength))!;
    };
    const sale = estimate(null);
    const quote = estimate(1299);
    expect(Math.exp(sale.mean)).toBeCloseTo(Math.sqrt(1000 * 1200), 6);
    // weights 1 and QUOTE_WEIGHT_CAP: the log mean sits QUOTE_WEIGHT_CAP / (1 + cap) of the way to the quote
    const share = QUOTE_WEIGHT_CAP / (1 + QUOTE_WEIGHT_CAP);
    expect(quote.mean).toBeCloseTo(Math.log(1000) + share * Math.log(1.2), 10);
    expect(quote.effectivePoints).toBeCloseTo(1 + QUOTE_WEIGHT_CAP, 10);
    expect(sale.effectivePoints).toBeCloseTo(2, 10);
  });
});
