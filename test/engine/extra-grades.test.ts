// @module-tag sqlite-only: the pure engine: no store
/** Extra grades (CONTRACT.md additions 6, docs/methodology.md §15): own points only, absent without data, the matrix unchanged. */
import { describe, expect, it } from 'vitest';
import { computeBundle, explainSlot } from '../../src/engine/index.js';
import { isExtraCondition, parseCondition } from '../../src/domain/conditions.js';
import { params, product, pt } from './fixtures.js';

const matrix = [
  ...Array.from({ length: 8 }, (_, i) => pt('psa10', 2 + i * 2, 100_000 + i * 100)),
  ...Array.from({ length: 8 }, (_, i) => pt('ungraded', 3 + i * 2, 5_000 + i * 10)),
];
const bgs95 = [
  pt('bgs9.5', 5, 60_000),
  pt('bgs9.5', 9, 61_000),
  pt('bgs9.5', 30, 59_000),
  pt('bgs9.5', 50, 900_000),
];
const extra = [
  ...bgs95,
  pt('tag10', 10, 30_000),
  pt('cgc-pristine10', 100, 250_000),
  pt('raw-lp', 4, 2_000),
  pt('any9.5', 12, 80_000),
];

describe('extra grades', () => {
  it('prices a BGS 9.5 from its own points only: the outlier dropped, the matrix not consulted', () => {
    const b = computeBundle({
      product: product(),
      points: matrix,
      params: params(),
      id: null,
      extraPoints: extra,
    });
    const slot = b.extra_grades!.BGS!['9.5']!;
    expect(slot.company).toBe('BGS');
    expect(slot.grade).toBe(9.5);
    expect(slot.condition_key).toBe('bgs9.5');
    expect(slot.included_points).toBe(3);
    expect(slot.excluded_points).toBe(1);
    expect(slot.price_minor).toBeGreaterThanOrEqual(59_000);
    expect(slot.price_minor).toBeLessThanOrEqual(61_000);
    expect(slot.meta.oracle_fallback_tier).toBeUndefined();
    expect(slot.meta.confidence).toMatchObject({ level: 0.8 });
    expect(slot.meta.newest_observation_at).toBe('2026-02-28T19:00:00Z');
    // The same BGS 9.5 points with no matrix data at all: the same price.
    const alone = computeBundle({
      product: product(),
      points: [],
      params: params(),
      id: null,
      extraPoints: bgs95,
    });
    expect(alone.extra_grades!.BGS!['9.5']!.price_minor).toBe(slot.price_minor);
  });

  it('lists the other graders, the tiers and the pooled 9.5; played raw cards are no grade', () => {
    const b = computeBundle({
      product: product(),
      points: matrix,
      params: params(),
      id: null,
      extraPoints: extra,
    });
    expect(Object.keys(b.extra_grades!)).toEqual(['BGS', 'ANY', 'CGC-PRISTINE', 'TAG']);
    expect(b.extra_grades!.TAG!['10']!.price_minor).toBe(30_000);
    expect(b.extra_grades!['CGC-PRISTINE']!['10']!.price_minor).toBe(250_000);
    expect(b.extra_grades!.ANY!['9.5']!.price_minor).toBe(80_000);
    expect(b.extra_grades!['RAW-LP']).toBeUndefined();
  });

  it('is absent without a point in the 30 days: nothing is invented', () => {
    const old = [pt('bgs9.5', 31 * 24, 60_000)];
    const b = computeBundle({
      product: product(),
      points: matrix,
      params: params(),
      id: null,
      extraPoints: old,
    });
    expect(b.extra_grades).toEqual({});
    const e = explainSlot(
      { product: product(), points: matrix, params: params(), id: null, extraPoints: old },
      'bgs9.5',
    );
    expect(e.price_minor).toBeNull();
    expect(e.steps.map((s) => s.name)).toEqual(['tier']);
  });

  it('leaves the matrix and the rest of the bundle unchanged, and adds no key unless asked', () => {
    const without = computeBundle({ product: product(), points: matrix, params: params(), id: null });
    const withExtra = computeBundle({
      product: product(),
      points: [...matrix, ...extra],
      params: params(),
      id: null,
      extraPoints: extra,
    });
    expect('extra_grades' in without).toBe(false);
    const { extra_grades: _, ...rest } = withExtra;
    expect(rest).toEqual(without);
  });

  it('explains an extra grade by its own points and steps', () => {
    const e = explainSlot(
      { product: product(), points: matrix, params: params(), id: null, extraPoints: extra },
      'bgs9.5',
    );
    const b = computeBundle({
      product: product(),
      points: matrix,
      params: params(),
      id: null,
      extraPoints: extra,
    });
    expect(e.price_minor).toBe(b.extra_grades!.BGS!['9.5']!.price_minor);
    expect(new Set(e.points.map((p) => p.condition))).toEqual(new Set(['bgs9.5']));
    expect(e.points.filter((p) => p.kept)).toHaveLength(3);
    expect(e.steps.map((s) => s.name)).toEqual([
      'reference_set',
      'filter',
      'own_estimate',
      'rounding',
      'tier',
      'interval',
      'freshness',
    ]);
  });
});

describe('conditions as people write them', () => {
  it.each([
    ['BGS 9.5', 'bgs9.5'],
    ['bgs9.5', 'bgs9.5'],
    ['PSA 10', 'psa10'],
    ['psa10', 'psa10'],
    ['PSA10', 'psa10'],
    [' Psa 10 ', 'psa10'],
    ['CGC Pristine 10', 'cgc-pristine10'],
    ['CGC 10 Pristine', 'cgc-pristine10'],
    ['SGC Pristine 10', 'sgc-pristine10'],
    ['BGS Black Label 10', 'bgs-black10'],
    ['BGS 10 Black Label', 'bgs-black10'],
    ['CGC Perfect 10', 'cgc-perfect10'],
    ['TAG 10', 'tag10'],
    ['ARS 10', 'ars10'],
    ['PCG 7.5', 'pcg7.5'],
    ['Beckett 9.5', 'bgs9.5'],
    ['PSA 10 Gem Mint', 'psa10'],
    ['ungraded', 'ungraded'],
    ['UNGRADED', 'ungraded'],
    ['raw', 'ungraded'],
    ['cgc-pristine10', 'cgc-pristine10'],
  ])('%s -> %s', (text, key) => expect(parseCondition(text)).toBe(key));

  it.each(['', 'psa 11', 'psa11', 'PSA 9 Pristine', 'BGS 0.5', 'mint', 'PSA 9.3'])('refuses %j', (text) =>
    expect(parseCondition(text)).toBeNull(),
  );

  it('tells extra grades from the matrix', () => {
    expect(['bgs9.5', 'tag10', 'cgc-pristine10', 'any9.5', 'psa6'].every(isExtraCondition)).toBe(true);
    expect(['psa10', 'any9', 'ungraded', 'raw-lp'].some(isExtraCondition)).toBe(false);
  });
});
