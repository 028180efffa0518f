/** One hand-computed fixture per rule of docs/methodology.md. */
import { describe, expect, it } from 'vitest';
import type { PricePoint } from '../../../src/domain/observation.js';
import { InvalidParameterError } from '../../../src/domain/errors.js';
import { DAY_MS, HOUR_MS } from '../../../src/domain/time.js';
import { computeBundle, pointsRequest } from '../../../src/engine/index.js';
import { EXTENDED_WINDOW_MS, PRIOR_POINTS_PER_CONDITION } from '../../../src/engine/methodology.js';
import { applyGuards, medianBlendWeight } from '../../../src/engine/guards.js';
import { blendWeights } from '../../../src/engine/graded-matrix.js';
import { roundCents } from '../../../src/engine/slot.js';
import { AS_OF, params, product, pt } from './fixtures.js';

function price(points: PricePoint[], overrides = {}, era: 'modern' | 'vintage' = 'modern') {
  return computeBundle({ product: product(era), points, params: params(overrides), id: null });
}

describe('interface', () => {
  it('asks the caller, per condition, for the window, the latest 32 points of the 30 days before it and the latest 3 older ones', () => {
    expect(pointsRequest(params({ windowHours: 6 }))).toEqual({
      windowStart: AS_OF - 6 * HOUR_MS,
      asOf: AS_OF,
      lookbackStart: AS_OF - 30 * DAY_MS,
      depthPerCondition: 32,
      priorPerCondition: 3,
    });
    expect(EXTENDED_WINDOW_MS).toBe(30 * DAY_MS);
    expect(PRIOR_POINTS_PER_CONDITION).toBe(3);
  });

  it('keeps the key order of SPEC.md 2.1 and 2.2, with company and grade last on graded slots', () => {
    const b = price([pt('ungraded', 1, 1000)]);
    expect(Object.keys(b)).toEqual(['id', 'product_key', 'window_hours', 'outlier_stddevs', 'ungraded', 'graded', 'metadata']);
    const slotKeys = ['price_minor', 'currency', 'condition_key', 'methodology', 'window_start', 'window_end'];
    const tail = ['included_points', 'excluded_points', 'error', 'meta'];
    expect(Object.keys(b.ungraded)).toEqual([...slotKeys, ...tail]);
    expect(Object.keys(b.graded)).toEqual(['PSA', 'BGS', 'CGC', 'SGC']);
    expect(Object.keys(b.graded.PSA)).toEqual(['7', '8', '9', '10']);
    expect(Object.keys(b.graded.CGC['9'])).toEqual([...slotKeys, ...tail, 'company', 'grade']);
    expect(b.graded.CGC['9']).toMatchObject({ company: 'CGC', grade: 9, condition_key: 'cgc9', currency: 'USD' });
    expect(b.metadata).toEqual({
      product_name: 'Charizard',
      subtitle: '4/102 Holo',
      set_name: 'Base Set',
      image_url: 'https://example.test/charizard.png',
      product_type: 'single_card',
      era: 'modern',
      release_date: '1999-01-09',
    });
  });

  it('copies id, window_hours and outlier_stddevs to the bundle', () => {
    const b = computeBundle({ product: product(), points: [], params: params({ windowHours: 72, outlierStddevs: 5 }), id: '42' });
    expect(b).toMatchObject({ id: '42', product_key: 'base-set-charizard-4', window_hours: 72, outlier_stddevs: 5 });
  });

  it.each([
    [{ windowHours: 0 }, 'window_hours'],
    [{ windowHours: 73 }, 'window_hours'],
    [{ windowHours: 1.5 }, 'window_hours'],
    [{ outlierStddevs: 0 }, 'outlier_stddevs'],
    [{ outlierStddevs: 11 }, 'outlier_stddevs'],
    [{ asOf: Number.NaN }, 'at'],
  ])('rejects %o naming %s', (bad, name) => {
    expect(() => price([], bad)).toThrow(InvalidParameterError);
    expect(() => price([], bad)).toThrow(expect.objectContaining({ parameter: name }));
  });
});

describe('no observations', () => {
  it.each([
    ['no points at all', []],
    ['only points at or after as_of', [pt('ungraded', 0, 1000), pt('psa10', -5, 9000)]],
    ['only conditions the engine does not price', [pt('tag10', 3, 1000), pt('psa9.5', 3, 1000)]],
  ])('gives every slot null and no_observations for %s', (_name, points) => {
    const b = price(points as PricePoint[]);
    const slots = [b.ungraded, ...Object.values(b.graded).flatMap((c) => Object.values(c))];
    expect(slots).toHaveLength(17);
    for (const s of slots) {
      expect(s).toMatchObject({
        price_minor: null,
        error: 'no_observations',
        included_points: 0,
        excluded_points: 0,
        methodology: 'twap_24h_robust_mad_v1_floor_q20',
        window_start: '2026-02-28T00:00:00Z',
        window_end: '2026-03-01T00:00:00Z',
      });
    }
    expect(b.ungraded.meta).toEqual({ source_counts: {} });
    expect(b.graded.PSA['9'].meta).toEqual({});
  });
});

describe('windows are half-open [as_of - window, as_of)', () => {
  it('counts a point exactly at the window start and ignores one exactly at as_of', () => {
    const b = price([pt('ungraded', 24, 1000), pt('ungraded', 12, 1000), pt('ungraded', 6, 1000), pt('ungraded', 0, 5000)]);
    expect(b.ungraded).toMatchObject({ price_minor: 1000, included_points: 3, excluded_points: 0 });
  });
});

describe('TWAP (§4)', () => {
  it.each([
    ['a single sale is its own price', [[10, 1234]], 1234],
    // 1000 holds 6 h, 2000 1 h, 1500 the last hour: (6000 + 2000 + 1500) / 8 = 1187.5; the median 1500
    // is 20.8 % off, so β = 0.5·(0.2083 - 0.1)/0.2 = 0.2708: 1187.5 + 0.2708·312.5 = 1272.14.
    ['each price holds until the next sale, the last until as_of', [[8, 1000], [2, 2000], [1, 1500]], 1272],
    // Simultaneous 1000 and 1100 share their interval: their mean 1050 holds 4 h, 1080 holds 2 h: 1060.
    ['simultaneous sales share their interval', [[6, 1000], [6, 1100], [2, 1080]], 1060],
  ])('%s', (_name, sales, expected) => {
    const b = price((sales as number[][]).map(([h, p]) => pt('ungraded', h!, p!)));
    expect(b.ungraded.price_minor).toBe(expected);
  });

  it('weights by holding time: 1000 for 6 h then 1100 for 2 h gives 1025', () => {
    const b = price([pt('ungraded', 8, 1000), pt('ungraded', 2, 1100), pt('ungraded', 2, 1100)]);
    expect(b.ungraded.price_minor).toBe(1025);
  });

  it('gives an excluded sale\'s interval to the sale before it', () => {
    // 100000 at 4 h is excluded; 1000 then holds from 8 h to 2 h (6 h), 1100 for 2 h: 1025.
    const b = price([pt('ungraded', 8, 1000), pt('ungraded', 4, 100000), pt('ungraded', 2, 1100), pt('ungraded', 2, 1100)]);
    expect(b.ungraded).toMatchObject({ price_minor: 1025, included_points: 3, excluded_points: 1 });
  });
});

describe('robust outlier filter (§3)', () => {
  it('flags one wild sale among three, where mean ± 2 stddev cannot', () => {
    const b = price([pt('ungraded', 9, 1000), pt('ungraded', 6, 1050), pt('ungraded', 3, 50000)]);
    expect(b.ungraded).toMatchObject({ included_points: 2, excluded_points: 1 });
  });

  it('flags a 0.01x mis-key as it flags a 100x lot sale (log-price symmetry)', () => {
    const b = price([pt('ungraded', 9, 1000), pt('ungraded', 6, 1050), pt('ungraded', 5, 1020), pt('ungraded', 3, 10)]);
    expect(b.ungraded).toMatchObject({ included_points: 3, excluded_points: 1 });
  });

  it('still filters when MAD is 0, with the 0.1 log scale floor', () => {
    // centre ln 1000, σ = 0.1; at k = 2 the band is ±0.2: 1220 (ln ratio 0.199) stays, 1230 (0.207) goes.
    const keep = price([pt('ungraded', 9, 1000), pt('ungraded', 6, 1000), pt('ungraded', 3, 1220)]);
    const drop = price([pt('ungraded', 9, 1000), pt('ungraded', 6, 1000), pt('ungraded', 3, 1230)]);
    expect(keep.ungraded.included_points).toBe(3);
    expect(drop.ungraded).toMatchObject({ included_points: 2, excluded_points: 1 });
  });

  it('uses outlier_stddevs as the threshold in robust standard deviations', () => {
    const pts = [pt('ungraded', 9, 1000), pt('ungraded', 6, 1000), pt('ungraded', 3, 1400)];
    // ln 1.4 = 0.336: outside 3·0.1, inside 4·0.1.
    expect(price(pts, { outlierStddevs: 3 }).ungraded.excluded_points).toBe(1);
    expect(price(pts, { outlierStddevs: 4 }).ungraded.excluded_points).toBe(0);
  });

  it('never excludes either of two points', () => {
    expect(price([pt('ungraded', 9, 1000), pt('ungraded', 3, 90000)], { windowHours: 24 }).ungraded.excluded_points).toBe(0);
  });
});

describe('guards (§6)', () => {
  it.each([
    [1000, 1000, 0],
    [1100, 1000, 0],
    [1200, 1000, 0.25],
    [1300, 1000, 0.5],
    [5000, 1000, 0.5],
    [800, 1000, 0.25],
  ])('median blend weight for TWAP %d and median %d is %d', (twap, med, w) => {
    expect(medianBlendWeight(twap, med)).toBeCloseTo(w, 12);
  });

  it('blends towards the median: TWAP 1200, median 1000 gives 0.75·1200 + 0.25·1000 = 1150', () => {
    expect(applyGuards(1200, 1000, null)).toBeCloseTo(1150, 9);
  });

  it('caps a downward blend at 15 % below the TWAP: TWAP 2000, median 1000 gives 1700, not 1500', () => {
    expect(applyGuards(2000, 1000, null)).toBeCloseTo(1700, 9);
  });

  it('raises the price to the floor, which may exceed the blend', () => {
    expect(applyGuards(1000, 1050, 1040)).toBe(1040);
  });

  it('applies the floor only with 5 kept points from 2 or more sources', () => {
    // A low sale holding 20 h drags the TWAP: (20·1000 + 1200 + 1250 + 1300 + 1250) / 24 = 1041.67,
    // median 1250 (16.7 % off: β = 0.1667, blend 1076.39); q20 of 1000,1200,1250,1250,1300 = 1160.
    const sales = [[24, 1000], [4, 1200], [3, 1250], [2, 1300], [1, 1250]] as const;
    const oneSource = price(sales.map(([h, p]) => pt('ungraded', h, p, 'ebay')), { outlierStddevs: 10 });
    const twoSources = price(sales.map(([h, p], i) => pt('ungraded', h, p, i % 2 ? 'ebay' : 'tcgplayer')), { outlierStddevs: 10 });
    expect(oneSource.ungraded.price_minor).toBe(1076);
    expect(twoSources.ungraded.price_minor).toBe(1160);
    const fourPoints = price(sales.slice(0, 4).map(([h, p], i) => pt('ungraded', h, p, i % 2 ? 'ebay' : 'tcgplayer')), { outlierStddevs: 10 });
    // 1000 for 20 h, 1200 1 h, 1250 1 h, 1300 2 h = 25050 / 24 = 1043.75; median 1225 (14.8 % off:
    // β = 0.1199): 1043.75 + 0.1199·181.25 = 1065.48; 4 points, so no floor.
    expect(fourPoints.ungraded.price_minor).toBe(1065);
  });
});

describe('sparse data (§5)', () => {
  it('keeps the requested window with 3 kept points', () => {
    const b = price([pt('ungraded', 20, 1000), pt('ungraded', 10, 1000), pt('ungraded', 5, 1000), pt('ungraded', 100, 3000)]);
    expect(b.ungraded).toMatchObject({ price_minor: 1000, included_points: 3, window_start: '2026-02-28T00:00:00Z' });
    expect(b.ungraded.meta).not.toHaveProperty('twap_sparse_window_extended');
  });

  it('extends to 30 days with recency weights below 3 kept points and says so', () => {
    // Weights 2^(-5/168) = 0.97958 and 2^(-173/168) = 0.48970: (979.58 + 979.40) / 1.46928 = 1333.31;
    // the median 1500 is 11.1 % off (β = 0.0278): 1333.31 + 0.0278·166.69 = 1337.94.
    const b = price([pt('ungraded', 5, 1000), pt('ungraded', 173, 2000)], { outlierStddevs: 10 });
    expect(b.ungraded).toMatchObject({
      price_minor: 1338,
      methodology: 'twap_720h_recency_hl168h_robust_mad_v1_floor_q20',
      window_start: '2026-01-30T00:00:00Z',
      window_end: '2026-03-01T00:00:00Z',
      included_points: 2,
    });
    expect(b.ungraded.meta.twap_sparse_window_extended).toBe(true);
  });

  it('counts kept points, not raw points, towards the threshold', () => {
    // Three points in the window but one is an outlier: 2 kept, so the window extends.
    const b = price([pt('ungraded', 9, 1000), pt('ungraded', 6, 1000), pt('ungraded', 3, 90000)]);
    expect(b.ungraded.meta.twap_sparse_window_extended).toBe(true);
  });

  it('names the window hours in the methodology key', () => {
    const pts = [pt('ungraded', 3, 1000), pt('ungraded', 2, 1000), pt('ungraded', 1, 1000)];
    expect(price(pts, { windowHours: 6 }).ungraded).toMatchObject({
      methodology: 'twap_6h_robust_mad_v1_floor_q20',
      window_start: '2026-02-28T18:00:00Z',
    });
  });
});

describe('depth cap (§2)', () => {
  /** The 32 latest points before the 24 h window: one an hour from 25 h to 56 h before as_of. */
  const capped = (condition: string) => Array.from({ length: 32 }, (_, i) => pt(condition, 25 + i, 1000));

  it('reads only the latest 32 points before the window, and the window shown starts at the oldest of them', () => {
    // One sale in the window: the sparse fallback reads the 32 capped points, all at 1000. Read, the
    // 33rd latest (57 h, 1200, inside the filter) would move the recency value to 1005.48.
    const b = price([pt('ungraded', 5, 1000), ...capped('ungraded'), pt('ungraded', 57, 1200)]);
    expect(b.ungraded).toMatchObject({
      price_minor: 1000,
      methodology: 'twap_720h_recency_hl168h_robust_mad_v1_floor_q20',
      window_start: '2026-02-26T16:00:00Z', // 56 h before as_of
      included_points: 33,
      excluded_points: 0,
    });
  });

  it('keeps the 30-day window start when fewer than 32 points precede the window', () => {
    const b = price([pt('ungraded', 5, 1000), ...capped('ungraded').slice(1)]);
    expect(b.ungraded).toMatchObject({ window_start: '2026-01-30T00:00:00Z', included_points: 32 });
  });

  it('starts a band at its capped member\'s oldest point, so an older sale of another member cannot hold over the unread span', () => {
    // psa9: 3 sales in the window and a full cap before it (the 57 h sale is not read), all 1000.
    // any9's sale 200 h back precedes the band's start (56 h): read, it would hold 144 h at 1150
    // and lift the band to 1105.8. PSA 9 = 0.6·1000 + 0.4·1000.
    const b = price([
      ...[20, 10, 5].map((h) => pt('psa9', h, 1000)),
      ...capped('psa9'),
      pt('psa9', 57, 1150),
      pt('any9', 200, 1150, 'pricecharting'),
    ]);
    expect(b.graded.PSA['9']).toMatchObject({ price_minor: 1000, window_start: '2026-02-26T16:00:00Z', included_points: 3 });
    expect(b.graded.PSA['9'].meta.developer_composite_band_minor).toBe(1000);
    // BGS 9 has no data of its own: the band (and the anchor from it) alone, same window.
    expect(b.graded.BGS['9']).toMatchObject({ price_minor: 1000, window_start: '2026-02-26T16:00:00Z' });
  });
});

describe('grades 7-9 (§7)', () => {
  const gem10 = [pt('psa10', 20, 10000), pt('psa10', 10, 10000), pt('psa10', 5, 10000)];

  it.each([
    [false, 0, { band: 0, grader: 0, gem10_anchor: 1 }],
    [false, 3, { band: 0, grader: 1, gem10_anchor: 0 }],
    [true, 0, { band: 0.6, grader: 0, gem10_anchor: 0.4 }],
    [true, 2, { band: 0.6, grader: 0.4 * (2 / 3), gem10_anchor: 0.4 * (1 / 3) }],
    [true, 9, { band: 0.6, grader: 0.4, gem10_anchor: 0 }],
  ])('band present %s with %d grader points gives weights %o', (hasBand, n, expected) => {
    const w = blendWeights(hasBand, n);
    expect(w.band).toBeCloseTo(expected.band, 12);
    expect(w.grader).toBeCloseTo(expected.grader, 12);
    expect(w.gem10_anchor).toBeCloseTo(expected.gem10_anchor, 12);
  });

  it('blends a thick grader cell with the band of all graders and ANY: 0.6·band + 0.4·own', () => {
    // outlier_stddevs 10 keeps every point. PSA 9 own: 5000 (3 points). Band 9 = psa9 + cgc9 + any9, 30-day step TWAP:
    // 3000 at 100 h holds 80 h, 5000 from 20 h to as_of (20 h): (240000 + 100000) / 100 = 3400 →
    // the median 5000 is 32 % off (β = 0.5): 4200; floor needs 2 sources (all ebay): none.
    // PSA 9 = 0.6·4200 + 0.4·5000 = 4520.
    const b = price([...gem10, pt('psa9', 20, 5000), pt('psa9', 10, 5000), pt('psa9', 5, 5000), pt('cgc9', 100, 3000), pt('any9', 100, 3000)], { outlierStddevs: 10 });
    expect(b.graded.PSA['9']).toMatchObject({ price_minor: 4520, methodology: 'band_primary_720h_gem10_ratio_v1', included_points: 3 });
    expect(b.graded.PSA['9'].meta).toMatchObject({
      developer_band_primary_applied: true,
      developer_composite_band_minor: 4200,
      developer_band_blend_weights: { band: 0.6, grader: 0.4, gem10_anchor: 0 },
      developer_gem10_anchor_minor: 10000,
      developer_anchor_ratio_vs_gem10: '0.4520',
      developer_gem10_ratio_era: 'modern',
      developer_grader_twap_minor: 5000,
    });
    expect(b.graded.PSA['9'].meta).not.toHaveProperty('oracle_fallback_tier');
    // CGC 9: one own point (3000, thin): 0.6·4200 + 0.4·(1/3·3000 + 2/3·0.45·gem10). CGC has no
    // grade 10 of its own: band 10 = 10000. 2520 + 0.4·(1000 + 3000) = 4120.
    expect(b.graded.CGC['9'].price_minor).toBe(4120);
  });

  it.each([
    ['modern', [2000, 3000, 4500]],
    ['vintage', [600, 1200, 2500]],
  ] as const)('anchors empty cells of a %s card to grade 10 with its ratio table', (era, expected) => {
    const b = price(gem10, {}, era);
    expect([b.graded.PSA['7'], b.graded.PSA['8'], b.graded.PSA['9']].map((s) => s.price_minor)).toEqual(expected);
    expect(b.graded.PSA['9'].meta).toMatchObject({ oracle_fallback_tier: 'gem10_ratio', developer_gem10_ratio_era: era });
  });

  it('clamps 7 <= 8 <= 9 <= 10 from the top down and records the unclamped price', () => {
    // PSA 9 trades above PSA 10 (thick data both): 9 is lowered to 10's price, 8 anchored stays.
    const b = price([...gem10, pt('psa9', 20, 12000), pt('psa9', 10, 12000), pt('psa9', 5, 12000)]);
    // Band 9 = PSA 9 = 12000; PSA 9 = 12000 > 10000 → 10000.
    expect(b.graded.PSA['9'].price_minor).toBe(10000);
    expect(b.graded.PSA['9'].meta.developer_clamped_from_minor).toBe(12000);
    expect(b.graded.PSA['9'].meta.developer_anchor_ratio_vs_gem10).toBe('1.0000');
    // BGS 9 has no own data: 0.6·12000 + 0.4·4500 = 9000, under BGS 10 (band 10 = 10000).
    expect(b.graded.BGS['9'].price_minor).toBe(9000);
  });
});

describe('fallback chain (§9)', () => {
  const tier = (s: { meta: Record<string, unknown> }) => s.meta.oracle_fallback_tier;

  it('prices grade 10 from the grader\'s own lower grade through the ratio table', () => {
    const b = price([pt('bgs8', 5, 3000)]);
    // No grade-10 sale anywhere; BGS 8 own (sparse) 3000 / 0.30 = 10000.
    expect(b.graded.BGS['10']).toMatchObject({ price_minor: 10000, methodology: 'gem10_ratio_v1', included_points: 0 });
    expect(tier(b.graded.BGS['10'])).toBe('adjacent_grade_ratio');
    // PSA has no grade 8 of its own: band 8 (the BGS sale) / 0.30.
    expect(tier(b.graded.PSA['10'])).toBe('band_ratio');
    expect(b.graded.PSA['10'].price_minor).toBe(10000);
    // Ungraded from the band: 3000 / 0.30 · 0.15 = 1500.
    expect(b.ungraded).toMatchObject({ price_minor: 1500, meta: { source_counts: {}, oracle_fallback_tier: 'band_ratio' } });
  });

  it('prices the matrix from the ungraded price when nothing graded trades', () => {
    const b = price([pt('ungraded', 20, 1500), pt('ungraded', 10, 1500), pt('ungraded', 5, 1500)], {}, 'vintage');
    // Vintage: grade 10 = 1500 / 0.04 = 37500; grade 9 = 0.25 · 37500 = 9375.
    expect(b.graded.SGC['10']).toMatchObject({ price_minor: 37500, meta: { oracle_fallback_tier: 'ungraded_ratio' } });
    expect(b.graded.SGC['9']).toMatchObject({ price_minor: 9375, meta: { oracle_fallback_tier: 'gem10_ratio' } });
    expect(b.ungraded.meta).toEqual({ source_counts: { ebay: 3 } });
  });

  it('feeds the bands from pooled ANY observations alone', () => {
    const b = price([pt('any10', 30, 20000, 'pricecharting')]);
    expect(b.graded.PSA['10']).toMatchObject({ price_minor: 20000, meta: { oracle_fallback_tier: 'band_twap' } });
    expect(b.ungraded.price_minor).toBe(3000);
  });

  it('uses the median of the last known points, with their age, when nothing is newer than 30 days', () => {
    const old = EXTENDED_WINDOW_MS / HOUR_MS;
    const b = price([
      pt('ungraded', old + 10, 1000),
      pt('ungraded', old + 20, 1200),
      pt('ungraded', old + 30, 900),
      pt('ungraded', old + 40, 5000), // the 4th latest: not read
    ]);
    expect(b.ungraded).toMatchObject({
      price_minor: 1000,
      methodology: 'last_known_median_v1',
      included_points: 3,
      window_start: new Date(AS_OF - (old + 30) * HOUR_MS).toISOString().replace('.000', ''),
      meta: { source_counts: { ebay: 3 }, oracle_fallback_tier: 'last_known_price', oracle_last_known_age_hours: old + 10 },
    });
    expect(b.graded.PSA['10']).toMatchObject({
      price_minor: Math.round(1000 / 0.15),
      methodology: 'last_known_median_v1',
      meta: { oracle_fallback_tier: 'ungraded_ratio', oracle_last_known_age_hours: old + 10 },
    });
  });

  it('prefers any data of the last 30 days over last known points', () => {
    const b = price([pt('psa10', 24 * 31, 50000), pt('ungraded', 5, 1500)]);
    expect(b.graded.PSA['10']).toMatchObject({ price_minor: 10000, meta: { oracle_fallback_tier: 'ungraded_ratio' } });
  });
});

describe('rounding (§11)', () => {
  it.each([
    [1234.4999, 1234],
    [1234.5, 1235],
    [0.2, 1],
    [1, 1],
  ])('rounds %d to %d cents, half up, at least 1', (x, cents) => {
    expect(roundCents(x)).toBe(cents);
  });
});
