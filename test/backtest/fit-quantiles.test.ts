// @module-tag sqlite-only: arithmetic on residual records, no store
/**
 * backtest/fit-quantiles.js (docs/backtest.md "Fitting the interval"): the split-conformal re-fit
 * of PREDICTION_QUANTILE reads each residual under the quantile its interval was made with, fits
 * on `fit` points only, and its table holds 80 % of the points it was fitted on.
 */
import { describe, expect, it } from 'vitest';
import { coverage, fitTable, MIN_POINTS, standardised } from '../../backtest/fit-quantiles.js';

const TABLE = [
  [7, 0.8, 1.2816],
  [30, 0.9, 1.2816],
  [Infinity, 0.9, 1.2816],
] as const;

/** A sale `z` standardised units from a price of $100 whose interval used quantile `q` and half-width `half`. */
const residual = (z: number, { q = 0.8, half = 0.2, age = 3, split = 'fit' as 'fit' | 'held out' } = {}) => ({
  corpus: 'c',
  kind: 'sales' as const,
  split,
  price_minor: 10000,
  realised_minor: Math.round(10000 * Math.exp((z * half) / q)),
  low_minor: Math.round(10000 * Math.exp(-half)),
  high_minor: Math.round(10000 * Math.exp(half)),
  points: 3,
  newest_age_days: age,
  quantile: q,
});

describe('fit-quantiles', () => {
  it('standardises a residual by the quantile its interval used, whatever its width', () => {
    expect(standardised(residual(0.5, { half: 0.1 }))).toBeCloseTo(0.5, 2);
    expect(standardised(residual(1.5, { half: 0.4, q: 1.2 }))).toBeCloseTo(1.5, 2);
  });

  it('fits each row to the 80 % quantile of its fit points and holds 80 % of them', () => {
    const zs = Array.from({ length: 200 }, (_, i) => (i + 0.5) / 100); // uniform on 0-2: 80 % quantile 1.6
    const points = zs.map((z) => residual(z));
    const { table, fits } = fitTable(TABLE, points, 0.8, 1.2816);
    expect(table[0]![1]).toBeCloseTo(1.6, 1);
    expect(fits.find((f) => f.row === 0 && f.column === 1)!.n).toBe(200);
    expect(coverage(points)).toBeCloseTo(0.4, 1); // the run's 0.8 held z <= 0.8
    expect(coverage(points, table)).toBeCloseTo(0.8, 1);
  });

  it('keeps the normal quantile on rows with too few points, and never narrows an older row', () => {
    const young = Array.from({ length: MIN_POINTS }, (_, i) => residual((i / MIN_POINTS) * 1.25));
    const old = Array.from({ length: MIN_POINTS }, (_, i) => residual((i / MIN_POINTS) * 0.5, { age: 100 }));
    const { table } = fitTable(TABLE, [...young, ...old], 0.8, 1.2816);
    expect(table[1]![1]).toBe(1.2816); // 7-30 days: no point
    expect(table[2]![1]).toBeGreaterThanOrEqual(table[1]![1]); // older: its own fit is 0.4
    expect(table[0]![2]).toBe(1.2816); // other cells: no point
  });
});
