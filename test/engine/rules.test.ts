// @module-tag sqlite-only: the pure engine: no store
/** One hand-computed fixture per rule of docs/methodology.md. */
import { describe, expect, it } from 'vitest';
import type { PricePoint } from '../../src/domain/observation.js';
import { InvalidParameterError } from '../../src/domain/errors.js';
import { DAY_MS, HOUR_MS, toIsoUtc } from '../../src/domain/time.js';
import { computeBundle, pointsRequest } from '../../src/engine/index.js';
import { computeEvidence } from '../../src/engine/bundle.js';
import {
  CALIBRATION_PRIOR_PRODUCTS,
  EXTENDED_WINDOW_MS,
  PRIOR_POINTS_PER_CONDITION,
} from '../../src/engine/methodology.js';
import { fitCalibration, type Calibration } from '../../src/engine/calibration.js';
import { roundCents } from '../../src/engine/slot.js';
import { PRICED_CONDITIONS } from '../../src/domain/conditions.js';
import { AS_OF, params, product, pt } from './fixtures.js';

function price(
  points: PricePoint[],
  overrides = {},
  era: 'modern' | 'vintage' = 'modern',
  calibration: Calibration | null = null,
) {
  return computeBundle({ product: product(era), points, params: params(overrides), id: null, calibration });
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
    expect(Object.keys(b)).toEqual([
      'id',
      'product_key',
      'window_hours',
      'outlier_stddevs',
      'ungraded',
      'graded',
      'metadata',
    ]);
    const slotKeys = [
      'price_minor',
      'currency',
      'condition_key',
      'methodology',
      'window_start',
      'window_end',
    ];
    const tail = ['included_points', 'excluded_points', 'error', 'meta'];
    expect(Object.keys(b.ungraded)).toEqual([...slotKeys, ...tail]);
    expect(Object.keys(b.graded)).toEqual(['PSA', 'BGS', 'CGC', 'SGC']);
    expect(Object.keys(b.graded.PSA)).toEqual(['7', '8', '9', '10']);
    expect(Object.keys(b.graded.CGC['9'])).toEqual([...slotKeys, ...tail, 'company', 'grade']);
    expect(b.graded.CGC['9']).toMatchObject({
      company: 'CGC',
      grade: 9,
      condition_key: 'cgc9',
      currency: 'USD',
    });
    expect(b.metadata).toEqual({
      product_name: 'Charizard',
      subtitle: '4/102 Holo',
      set_name: 'Base Set',
      image_url: 'https://example.test/charizard.png',
      product_type: 'single_card',
      era: 'modern',
      release_date: '1999-01-09',
      // Additions (CONTRACT.md additions 7), after SPEC.md 2.3's fields.
      tcgplayer_id: null,
      printing: null,
      language: null,
    });
    expect(Object.keys(b.metadata).slice(0, 7)).toEqual([
      'product_name',
      'subtitle',
      'set_name',
      'image_url',
      'product_type',
      'era',
      'release_date',
    ]);
  });

  it('copies id, window_hours and outlier_stddevs to the bundle', () => {
    const b = computeBundle({
      product: product(),
      points: [],
      params: params({ windowHours: 72, outlierStddevs: 5 }),
      id: '42',
    });
    expect(b).toMatchObject({
      id: '42',
      product_key: 'base-set-charizard-4',
      window_hours: 72,
      outlier_stddevs: 5,
    });
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
        methodology: 'robust_recency_24h_v2',
        window_start: '2026-02-28T00:00:00Z',
        window_end: '2026-03-01T00:00:00Z',
      });
    }
    expect(b.ungraded.meta).toEqual({ source_counts: {} });
    expect(b.graded.PSA['9'].meta).toEqual({});
  });
});

/** `n` sales of `condition` at `priceMinor`, one every `everyHours` hours, the newest `fromHours` before as_of. */
function run(
  condition: string,
  n: number,
  priceMinor: number,
  fromHours: number,
  everyHours: number,
  source = 'ebay',
): PricePoint[] {
  return Array.from({ length: n }, (_, i) => pt(condition, fromHours + i * everyHours, priceMinor, source));
}

/** A sale-to-sale wobble of ±4 % so the MAD is not zero: prices 0.96, 1, 1.04 times `p` in turn. */
function wobbly(
  condition: string,
  n: number,
  p: number,
  fromHours: number,
  everyHours: number,
): PricePoint[] {
  return run(condition, n, p, fromHours, everyHours).map((x, i) => ({
    ...x,
    priceMinor: Math.round(p * [0.96, 1, 1.04][i % 3]!),
  }));
}

const within = (actual: number | null, expected: number, tolerance: number) => {
  expect(actual).not.toBeNull();
  expect(Math.abs(actual! / expected - 1)).toBeLessThanOrEqual(tolerance);
};

describe('windows are half-open [as_of - window, as_of)', () => {
  it('counts a point exactly at the window start and ignores one exactly at as_of', () => {
    const b = price([
      pt('ungraded', 24, 1000),
      pt('ungraded', 12, 1000),
      pt('ungraded', 6, 1000),
      pt('ungraded', 0, 5000),
    ]);
    expect(b.ungraded).toMatchObject({ price_minor: 1000, included_points: 3, excluded_points: 0 });
  });
});

describe('reference set and filter (§3)', () => {
  it('a single sale is its own price', () => {
    expect(price([pt('ungraded', 10, 1234)]).ungraded.price_minor).toBe(1234);
  });

  it('flags one wild sale among three', () => {
    const b = price([pt('ungraded', 9, 1000), pt('ungraded', 6, 1050), pt('ungraded', 3, 50000)]);
    expect(b.ungraded).toMatchObject({ included_points: 2, excluded_points: 1 });
  });

  it('flags a 0.01x mis-key as it flags a 100x lot sale (log-price symmetry)', () => {
    const b = price([
      pt('ungraded', 9, 1000),
      pt('ungraded', 6, 1050),
      pt('ungraded', 5, 1020),
      pt('ungraded', 3, 10),
    ]);
    expect(b.ungraded).toMatchObject({ included_points: 3, excluded_points: 1 });
  });

  it('uses outlier_stddevs as the threshold in robust standard deviations (scale floor 0.1)', () => {
    const pts = [pt('ungraded', 9, 1000), pt('ungraded', 6, 1000), pt('ungraded', 3, 1400)];
    // ln 1.4 = 0.336: outside 3·0.1, inside 4·0.1.
    expect(price(pts, { outlierStddevs: 3 }).ungraded.excluded_points).toBe(1);
    expect(price(pts, { outlierStddevs: 4 }).ungraded.excluded_points).toBe(0);
  });

  it('tops a thin window up with earlier points and says so', () => {
    const b = price([...run('ungraded', 2, 1000, 5, 1), ...run('ungraded', 18, 1000, 30, 10)]);
    expect(b.ungraded).toMatchObject({
      price_minor: 1000,
      included_points: 20,
      methodology: 'robust_recency_720h_v2',
    });
    expect(b.ungraded.meta.twap_sparse_window_extended).toBe(true);
    expect(b.ungraded.window_start).toBe(new Date(AS_OF - 200 * HOUR_MS).toISOString().replace('.000', ''));
  });

  it('failure mode: a x10 sale among three in the window, the last one, is excluded ($443 card)', () => {
    const b = price([
      ...wobbly('ungraded', 18, 44300, 30, 12),
      pt('ungraded', 9, 44300),
      pt('ungraded', 6, 45000),
      pt('ungraded', 1, 443000),
    ]);
    expect(b.ungraded.excluded_points).toBe(1);
    within(b.ungraded.price_minor, 44300, 0.03);
  });

  it('failure mode: two x10 sales among five are excluded', () => {
    const b = price([
      ...wobbly('ungraded', 18, 44300, 30, 12),
      ...wobbly('ungraded', 3, 44300, 8, 2),
      pt('ungraded', 5, 443000),
      pt('ungraded', 1, 443000),
    ]);
    expect(b.ungraded.excluded_points).toBe(2);
    within(b.ungraded.price_minor, 44300, 0.03);
  });

  it('a burst of sales at a new level within minutes, on a card that sells every few hours, is not a regime change', () => {
    const b = price([...wobbly('ungraded', 20, 1000, 5, 6), ...run('ungraded', 4, 2000, 1, 0.1)]);
    expect(b.ungraded.excluded_points).toBe(4);
    within(b.ungraded.price_minor, 1000, 0.03);
  });

  it('failure mode: a cluster of shill sales at 2x that outnumbers the real ones in the window loses', () => {
    const shills = run('ungraded', 4, 2000, 10, 1);
    const b = price([
      ...wobbly('ungraded', 16, 1000, 30, 12),
      ...shills,
      pt('ungraded', 5, 1000),
      pt('ungraded', 2, 1010),
    ]);
    expect(b.ungraded.excluded_points).toBe(4);
    within(b.ungraded.price_minor, 1000, 0.03);
  });

  it('failure mode: a real crash (-43 %) with continued volume is followed, not filtered out', () => {
    // A sale every 6 hours before and after: three at the new level over 12 hours are a regime change.
    const b = price([...wobbly('ungraded', 20, 1000, 19, 6), ...wobbly('ungraded', 3, 570, 1, 6)]);
    within(b.ungraded.price_minor, 570, 0.03);
    expect(b.ungraded.included_points).toBe(3);
  });
});

describe('recency weights (§4)', () => {
  it('failure mode: one sale followed by silence does not hold the window', () => {
    // Step TWAP would let the 900 at 20 h hold 18 h of 20; recency weights give each of the 4 sales its due.
    const b = price([
      pt('ungraded', 20, 900),
      pt('ungraded', 2, 1000),
      pt('ungraded', 1.5, 1000),
      pt('ungraded', 1, 1000),
    ]);
    expect(b.ungraded.price_minor!).toBeGreaterThan(970);
  });
});

describe('card model (§6)', () => {
  const psa10 = wobbly('psa10', 12, 10000, 1, 2);

  it('failure mode: one typo in a thin grader cell is set aside by the cross-check and does not drag the grades below', () => {
    const b = price([...psa10, ...wobbly('cgc9', 6, 4500, 2, 3), pt('cgc10', 3, 60000)]);
    expect(b.graded.CGC['10'].meta.oracle_fallback_tier).toBe('cross_check');
    expect(b.graded.CGC['10']).toMatchObject({
      included_points: 0,
      excluded_points: 1,
      methodology: 'card_model_v2',
    });
    // Prior: CGC 10 = 0.6 PSA 10; the card's CGC 9 at 4500 (prior 0.45 PSA 10) nudges it by the grader effect.
    within(b.graded.CGC['10'].price_minor, 6000, 0.1);
    within(b.graded.CGC['9'].price_minor, 4500, 0.03);
  });

  it('failure mode: BGS / CGC / SGC 10 without own sales use the calibrated grader premiums, not the PSA level', () => {
    const calibration: Calibration = {
      asOf: AS_OF,
      eras: {
        modern: {
          cells: {
            bgs10: { logRatio: Math.log(1.3), dispersion: 0.1, products: 50 },
            cgc10: { logRatio: Math.log(0.55), dispersion: 0.1, products: 50 },
          },
          pairs: {},
        },
        vintage: { cells: {}, pairs: {} },
      },
    };
    const b = price(psa10, {}, 'modern', calibration);
    const psa = b.graded.PSA['10'].price_minor!;
    // With PSA 10 the only data: the level is PSA 10's, no other BGS / CGC cell moves the effects.
    // Each fit is shrunk toward its prior by its 50 products (methodology §7.3).
    const w = 50 / (50 + CALIBRATION_PRIOR_PRODUCTS);
    const shrunk = (fitted: number, prior: number) =>
      Math.exp(w * Math.log(fitted) + (1 - w) * Math.log(prior));
    within(b.graded.BGS['10'].price_minor, psa * shrunk(1.3, 1.1), 0.001);
    within(b.graded.CGC['10'].price_minor, psa * shrunk(0.55, 0.6), 0.001);
    within(b.graded.SGC['10'].price_minor, psa * 0.7, 0.001); // the prior: SGC has no calibrated ratio
    expect(b.graded.BGS['10'].meta.oracle_fallback_tier).toBe('grader_premium');
  });

  it('failure mode: plentiful own grade-9 sales take (nearly) all the weight, not 40 %', () => {
    const b = price([...psa10, ...wobbly('psa9', 30, 7000, 0.5, 0.5)]);
    const w = b.graded.PSA['9'].meta.developer_band_blend_weights as { grader: number };
    expect(w.grader).toBeGreaterThan(0.9);
    within(b.graded.PSA['9'].price_minor, 7000, 0.02);
  });

  it('withholds an ungraded estimate from graded conditions whose ratio spans too much between cards (§9.1)', () => {
    const b = price(psa10);
    // The prior spread of ungraded against PSA 10 (0.5 in ln) gives an interval wider than 2.2-fold.
    expect(b.ungraded).toMatchObject({ price_minor: null, error: 'no_observations', included_points: 0 });
    expect(b.ungraded.meta).toMatchObject({
      no_price_reason: 'wide_estimate',
      newest_observation_at: b.graded.PSA['10'].meta.newest_observation_at,
    });
    expect(b.ungraded.meta.basis).toBeUndefined();
    expect(b.graded.PSA['10'].price_minor).not.toBeNull();
  });

  it('clamps 7 <= 8 <= 9 <= 10 from the top down and records the unclamped price', () => {
    const b = price([...run('psa10', 12, 10000, 1, 2), ...run('psa9', 12, 12000, 1, 2)]);
    expect(b.graded.PSA['9'].price_minor).toBe(b.graded.PSA['10'].price_minor);
    expect(b.graded.PSA['9'].meta.developer_clamped_from_minor).toBeGreaterThan(11000);
  });
});

describe('sealed products (§6.5)', () => {
  const box = { ...product(), productType: 'booster_box' as const };
  const priceBox = (points: PricePoint[]) =>
    computeBundle({ product: box, points, params: params(), id: null });

  it('gets no graded price from its ungraded price', () => {
    const b = priceBox(run('ungraded', 5, 30000, 1, 2));
    expect(b.ungraded.price_minor).toBe(30000);
    for (const g of ['PSA', 'BGS', 'CGC', 'SGC'] as const) {
      for (const grade of ['7', '8', '9', '10'] as const)
        expect(b.graded[g][grade]).toMatchObject({ price_minor: null, error: 'no_observations' });
    }
  });

  it('prices a graded cell from its own graded sales only', () => {
    const b = priceBox([...run('ungraded', 5, 30000, 1, 2), ...run('psa10', 3, 90000, 1, 5)]);
    expect(b.graded.PSA['10']).toMatchObject({ price_minor: 90000, included_points: 3 });
    expect(b.graded.PSA['9'].price_minor).toBeNull();
    expect(b.graded.BGS['10'].price_minor).toBeNull();
  });
});

describe('freshness (§10)', () => {
  it('gives the newest observation that entered the price and marks it stale after 7 days', () => {
    const fresh = price([pt('ungraded', 24 * 6, 1000)]);
    expect(fresh.ungraded.meta).toMatchObject({
      newest_observation_at: '2026-02-23T00:00:00Z',
      stale: false,
    });
    const old = price([pt('ungraded', 24 * 8, 1000)]);
    expect(old.ungraded.meta).toMatchObject({
      newest_observation_at: '2026-02-21T00:00:00Z',
      stale: true,
      basis: 'own',
    });
    // Own data is shown stale; an estimate from stale data is withheld (§9.1).
    expect(old.graded.PSA['10']).toMatchObject({
      price_minor: null,
      meta: { no_price_reason: 'stale_estimate', newest_observation_at: '2026-02-21T00:00:00Z' },
    });
  });

  it('prices a cell from its own last known points when nothing is newer than 30 days, stale, with a wider interval (§8, §9.1)', () => {
    const old = EXTENDED_WINDOW_MS / HOUR_MS;
    const points = [
      pt('ungraded', old + 10, 1000),
      pt('ungraded', old + 20, 1000),
      pt('ungraded', old + 30, 1000),
      pt('ungraded', old + 40, 5000),
    ];
    const b = price(points);
    expect(b.ungraded).toMatchObject({
      price_minor: 1000,
      error: null,
      methodology: 'last_known_v2',
      meta: {
        oracle_fallback_tier: 'last_known_price',
        newest_observation_at: toIsoUtc(AS_OF - (old + 10) * HOUR_MS),
        stale: true,
        basis: 'estimated',
        basis_reason: 'last_known',
      },
    });
    // The same three sales a day old: the same price, a narrower interval (age widens it, §9).
    const fresh = price(points.map((p) => ({ ...p, observedAt: p.observedAt + old * HOUR_MS })));
    const width = (s: typeof b.ungraded) => {
      const c = s.meta.confidence as { low_minor: number; high_minor: number };
      return c.high_minor / c.low_minor;
    };
    expect(fresh.ungraded.price_minor).toBe(1000);
    expect(width(b.ungraded)).toBeGreaterThan(width(fresh.ungraded));
    // Nothing else of the card has data: the graded cells, estimates from stale data, stay withheld.
    expect(b.graded.PSA['10']).toMatchObject({
      price_minor: null,
      meta: { no_price_reason: 'stale_estimate' },
    });
    const e = computeEvidence({
      product: product(),
      points: [
        pt('ungraded', old + 10, 1000),
        pt('ungraded', old + 20, 1000),
        pt('ungraded', old + 30, 1000),
      ],
      params: params(),
      id: null,
    });
    // The estimate it would have been: the latest PRIOR_POINTS_PER_CONDITION points, in the last-known pass.
    expect(e.lastKnown).toBe(true);
    expect(e.own[0]!.included).toBe(PRIOR_POINTS_PER_CONDITION);
    expect(Math.exp(e.cells[0]!.estimate!.mean)).toBeCloseTo(1000, 6);
  });
});

describe('calibration (§7)', () => {
  it('recovers grade ratios and grader premiums from products with different levels', () => {
    const ratios: Record<string, number> = { ungraded: 0.2, psa10: 1, psa9: 0.5, bgs10: 1.4, cgc10: 0.6 };
    const products = Array.from({ length: 12 }, (_, i) => {
      const levels = new Float64Array(PRICED_CONDITIONS.length).fill(NaN);
      for (const [c, r] of Object.entries(ratios))
        levels[PRICED_CONDITIONS.indexOf(c)] = Math.log(1000 * (i + 1) * r);
      return { era: 'modern' as const, levels };
    });
    const fit = fitCalibration(products, AS_OF);
    for (const [c, r] of Object.entries(ratios)) {
      expect(fit.eras.modern.cells[c]!.logRatio).toBeCloseTo(Math.log(r), 9);
      expect(fit.eras.modern.cells[c]!.products).toBe(12);
    }
    // Ratios exactly constant across cards: no spread between them.
    expect(fit.eras.modern.pairs['ungraded|psa10']).toEqual({ dispersion: 0, products: 12 });
    expect(fit.eras.modern.cells.sgc10).toBeUndefined();
    expect(fit.eras.vintage).toEqual({ cells: {}, pairs: {} });
  });
});

describe('rounding (§12)', () => {
  it.each([
    [1234.4999, 1234],
    [1234.5, 1235],
    [0.2, 1],
    [1, 1],
  ])('rounds %d to %d cents, half up, at least 1', (x, cents) => {
    expect(roundCents(x)).toBe(cents);
  });
});
