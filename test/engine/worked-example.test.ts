// @module-tag sqlite-only: the pure engine: no store
/**
 * The worked example of docs/methodology.md §13, computed there step by step from the
 * documented formulas; every price and interval bound must match the document to the cent.
 */
import { describe, expect, it } from 'vitest';
import { computeBundle } from '../../src/engine/index.js';
import { params, product, WORKED_EXAMPLE_POINTS } from './fixtures.js';

const points = WORKED_EXAMPLE_POINTS;

describe('worked example of docs/methodology.md', () => {
  const bundle = computeBundle({ product: product('modern'), points, params: params(), id: null });
  const interval = (s: { meta: Record<string, unknown> }) => {
    const c = s.meta.confidence as { low_minor: number; high_minor: number };
    return [c.low_minor, c.high_minor];
  };

  it('prices the ungraded slot at 46.35 USD, excluding the x10 sale', () => {
    expect(bundle.ungraded).toMatchObject({
      price_minor: 4635,
      methodology: 'robust_recency_24h_v2',
      window_start: '2026-02-28T00:00:00Z',
      window_end: '2026-03-01T00:00:00Z',
      included_points: 4,
      excluded_points: 1,
      error: null,
    });
    expect(bundle.ungraded.meta).toEqual({
      source_counts: { ebay: 2, mercari: 2 },
      // §18: the two sources' medians of the 30 days, 46.00 and 47.24 USD, agree.
      cross_source: {
        agree: true,
        ratio: '1.04',
        max_ratio: 2.5,
        medians_minor: { ebay: 4550, mercari: 4724 },
        out_of_line: null,
      },
      confidence: { level: 0.8, low_minor: 4224, high_minor: 5086 },
      newest_observation_at: '2026-02-28T20:00:00Z',
      stale: false,
      basis: 'own',
    });
  });

  it('says which slots are measured (own) and which estimated (§6.6)', () => {
    const basis = Object.fromEntries(
      Object.entries(bundle.graded).map(([g, col]) => [g, Object.values(col).map((s) => s.meta.basis)]),
    );
    const E = 'estimated';
    const N = undefined; // withheld (§9.1): no price, no basis
    expect(basis).toEqual({
      PSA: [E, E, 'own', 'own'],
      BGS: [N, N, E, E],
      CGC: [N, N, E, E],
      SGC: [N, N, E, E],
    });
    expect(bundle.graded.CGC['10'].meta.basis_reason).toBe('other_conditions');
  });

  it('gives every cell the price and interval computed by hand', () => {
    const prices = Object.fromEntries(
      Object.entries(bundle.graded).map(([g, col]) => [g, Object.values(col).map((s) => s.price_minor)]),
    );
    // Object.values lists "7", "8", "9", "10" in that order (integer-like keys ascend).
    expect(prices).toEqual({
      PSA: [6218, 9327, 13997, 31084],
      BGS: [null, null, 14000, 34191],
      CGC: [null, null, 14000, 18650],
      SGC: [null, null, 14000, 21758],
    });
    expect([7, 8, 9, 10].map((g) => interval(bundle.graded.PSA[String(g) as '7']))).toEqual([
      [4583, 8436],
      [6874, 12654],
      [12100, 16192],
      [27920, 34607],
    ]);
    expect(interval(bundle.graded.BGS['10'])).toEqual([23738, 49246]);
    expect(interval(bundle.graded.CGC['10'])).toEqual([12526, 27767]);
    expect(interval(bundle.graded.SGC['9'])).toEqual([9409, 20831]);
    // Grades 7 and 8 of BGS, CGC and SGC would be 9325 and 6217, their level's interval 2.48-fold wide: withheld (§9.1).
    expect(bundle.graded.SGC['7']).toMatchObject({
      price_minor: null,
      error: 'no_observations',
      included_points: 0,
    });
    expect(bundle.graded.SGC['7'].meta).toEqual({
      no_price_reason: 'wide_estimate',
      newest_observation_at: '2026-02-28T20:00:00Z',
    });
  });

  it('names how each cell was priced', () => {
    const tier = (s: { meta: Record<string, unknown> }) => s.meta.oracle_fallback_tier;
    expect(bundle.graded.PSA['10']).toMatchObject({
      included_points: 3,
      methodology: 'robust_recency_24h_v2',
    });
    expect(tier(bundle.graded.PSA['10'])).toBeUndefined();
    expect(bundle.graded.CGC['10']).toMatchObject({
      included_points: 0,
      excluded_points: 1,
      methodology: 'card_model_v2',
    });
    expect(tier(bundle.graded.CGC['10'])).toBe('cross_check');
    expect(tier(bundle.graded.BGS['10'])).toBe('grader_premium');
    expect(tier(bundle.graded.PSA['8'])).toBe('grade_ratio');
    expect(tier(bundle.graded.SGC['9'])).toBe('grader_premium');
    expect(bundle.graded.PSA['9'].meta).toMatchObject({
      developer_band_primary_applied: true,
      developer_composite_band_minor: 13987,
      developer_band_blend_weights: { band: 0.202, grader: 0.798, gem10_anchor: 0 },
      developer_gem10_anchor_minor: 31084,
      developer_anchor_ratio_vs_gem10: '0.4503',
      developer_gem10_ratio_era: 'modern',
      developer_grader_twap_minor: 14000,
      newest_observation_at: '2026-02-28T19:00:00Z', // its own sale 5 h back (the prediction's PSA 10 sales are older)
      stale: false,
    });
  });
});
