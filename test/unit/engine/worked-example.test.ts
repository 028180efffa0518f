/**
 * The worked example of docs/methodology.md §12, computed by hand there; every price must
 * match the document to the cent.
 */
import { describe, expect, it } from 'vitest';
import { computeBundle } from '../../../src/engine/index.js';
import { params, product, pt } from './fixtures.js';

const points = [
  pt('ungraded', 24, 1250, 'ebay'),
  pt('ungraded', 6, 1500, 'tcgplayer'),
  pt('ungraded', 6, 1450, 'ebay'),
  pt('ungraded', 4, 1550, 'ebay'),
  pt('ungraded', 4, 150000, 'ebay'),
  pt('ungraded', 2, 1500, 'tcgplayer'),
  pt('ungraded', 1, 1600, 'ebay'),
  pt('psa10', 22, 30000),
  pt('psa10', 12, 32000),
  pt('psa10', 6, 31000),
  pt('psa9', 5, 14000),
  pt('bgs9', 240, 11000),
  pt('any9', 120, 12000, 'pricecharting'),
  pt('any9', 48, 12500, 'pricecharting'),
];

describe('worked example of docs/methodology.md', () => {
  const bundle = computeBundle({ product: product('modern'), points, params: params(), id: null });

  it('prices the ungraded slot at 14.50 USD through the quantile floor, excluding the 100x sale', () => {
    expect(bundle.ungraded).toMatchObject({
      price_minor: 1450,
      methodology: 'twap_24h_robust_mad_v1_floor_q20',
      window_start: '2026-02-28T00:00:00Z',
      window_end: '2026-03-01T00:00:00Z',
      included_points: 6,
      excluded_points: 1,
      error: null,
      meta: { source_counts: { ebay: 4, tcgplayer: 2 } },
    });
  });

  it('gives every cell the price computed by hand', () => {
    const prices = Object.fromEntries(
      Object.entries(bundle.graded).map(([g, col]) => [g, Object.values(col).map((s) => s.price_minor)]),
    );
    // Object.values lists "7", "8", "9", "10" in that order (integer-like keys ascend).
    expect(prices).toEqual({
      PSA: [6164, 9245, 12544, 30818],
      BGS: [6164, 9245, 12144, 30818],
      CGC: [6164, 9245, 12526, 30818],
      SGC: [6164, 9245, 12526, 30818],
    });
  });

  it('names how each cell was priced', () => {
    const psa = bundle.graded.PSA;
    expect(psa['10'].meta).toEqual({});
    expect(psa['10'].included_points).toBe(3);
    expect(bundle.graded.BGS['10'].meta).toEqual({ oracle_fallback_tier: 'band_twap' });
    expect(bundle.graded.BGS['10'].methodology).toBe('twap_720h_robust_mad_v1_floor_q20');
    expect(psa['9'].meta).toEqual({
      developer_band_primary_applied: true,
      developer_composite_band_minor: 11631,
      developer_band_blend_weights: { band: 0.6, grader: 0.1333, gem10_anchor: 0.2667 },
      developer_gem10_anchor_minor: 30818,
      developer_anchor_ratio_vs_gem10: '0.4070',
      developer_gem10_ratio_era: 'modern',
      developer_grader_twap_minor: 14000,
      twap_sparse_window_extended: true,
    });
    expect(bundle.graded.CGC['9'].meta.oracle_fallback_tier).toBe('band_twap');
    expect(psa['8'].meta).toMatchObject({
      developer_band_primary_applied: false,
      developer_composite_band_minor: null,
      developer_band_blend_weights: { band: 0, grader: 0, gem10_anchor: 1 },
      developer_anchor_ratio_vs_gem10: '0.3000',
      oracle_fallback_tier: 'gem10_ratio',
    });
    expect(psa['8'].methodology).toBe('gem10_ratio_v1');
  });
});
