// @module-tag sqlite-only: the pure engine: no store
/**
 * Own evidence first (issue 22, docs/methodology.md §6.4 and §6.6): the cases the issue
 * reported, each with the other conditions that used to pull the cell away from its own sales.
 */
import { describe, expect, it } from 'vitest';
import type { PricePoint } from '../../src/domain/observation.js';
import { PRICED_CONDITIONS } from '../../src/domain/conditions.js';
import { computeBundle, computeEvidence } from '../../src/engine/index.js';
import { AS_OF, params, product, pt } from './fixtures.js';

function bundle(points: PricePoint[], era: 'modern' | 'vintage' = 'modern') {
  return computeBundle({ product: product(era), points, params: params(), id: null });
}

/** A price-guide quote `hoursBefore` hours before AS_OF. */
function quote(
  condition: string,
  hoursBefore: number,
  priceMinor: number,
  salesVolume: number | null = 120,
): PricePoint {
  return { ...pt(condition, hoursBefore, priceMinor, 'pricecharting'), salesVolume };
}

describe('own evidence first', () => {
  it('prices 8 PSA 10 sales at exactly $500.00 within 16 h at $500.00, whatever the other conditions say', () => {
    const points = [
      ...[16, 14, 12, 10, 8, 6, 4, 2].map((h) => pt('psa10', h, 50000)),
      // Ungraded at 0.2 of PSA 10 and a PSA 9 sale predict PSA 10 above $500.
      ...[20, 10, 3].map((h) => pt('ungraded', h, 10000 + h)),
      pt('psa9', 5, 30000),
    ];
    const b = bundle(points);
    expect(b.graded.PSA['10'].price_minor).toBe(50000);
    expect(b.graded.PSA['10'].meta.basis).toBe('own');
    expect(b.graded.PSA['10'].included_points).toBe(8);
  });

  it('prices 3 units of one SGC 10 listing at $640.00 at $640.00', () => {
    const points = [
      ...[0, 0, 0].map(() => pt('sgc10', 7, 64000)),
      ...[22, 15, 9, 2].map((h) => pt('psa10', h, 100000)),
      pt('bgs10', 11, 90000),
    ];
    const b = bundle(points);
    expect(b.graded.SGC['10'].price_minor).toBe(64000);
    expect(b.graded.SGC['10'].meta.basis).toBe('own');
  });

  it('keeps a cell with a few consistent sales within their range when the card model disagrees', () => {
    const points = [
      pt('psa9', 20, 41000),
      pt('psa9', 9, 40000),
      pt('psa9', 3, 42000),
      ...[23, 18, 12, 6, 1].map((h) => pt('psa10', h, 200000)),
    ];
    const slot = bundle(points).graded.PSA['9'];
    expect(slot.price_minor).toBeGreaterThanOrEqual(40000);
    expect(slot.price_minor).toBeLessThanOrEqual(42000);
  });

  it('prices a lone PriceCharting row with nothing else in 30 days at its quotes, and estimates the rest', () => {
    const points = [
      quote('ungraded', 30, 74875),
      quote('psa10', 30, 232500),
      quote('bgs10', 30, 302300),
      quote('sgc10', 30, 42501),
    ];
    const b = bundle(points);
    expect(b.ungraded.price_minor).toBe(74875);
    expect(b.graded.PSA['10'].price_minor).toBe(232500);
    expect(b.graded.BGS['10'].price_minor).toBe(302300);
    expect(b.graded.SGC['10'].price_minor).toBe(42501);
    for (const slot of [b.ungraded, b.graded.PSA['10'], b.graded.BGS['10'], b.graded.SGC['10']])
      expect(slot.meta.basis).toBe('own');
    const sgc = [b.graded.SGC['7'], b.graded.SGC['8'], b.graded.SGC['9']];
    for (const slot of sgc) {
      expect(slot.meta.basis).toBe('estimated');
      expect(slot.price_minor).toBeLessThan(42501);
    }
    expect(new Set(sgc.map((s) => s.price_minor)).size).toBe(3);
  });

  it('treats a lone quote without a sales volume as a quote too', () => {
    const b = bundle([quote('ungraded', 30, 74875, null), quote('psa10', 30, 232500, null)]);
    expect(b.ungraded.price_minor).toBe(74875);
    expect(b.graded.PSA['10'].price_minor).toBe(232500);
  });

  it('still pools a lone sale (thin own data) with the card model; mostly its own, it stays own', () => {
    const points = [pt('psa9', 5, 60000), ...[23, 18, 12, 6, 1].map((h) => pt('psa10', h, 100000))];
    const slot = bundle(points).graded.PSA['9'];
    expect(slot.price_minor).toBeLessThan(60000);
    expect(slot.price_minor).toBeGreaterThan(45000);
    expect(slot.meta.basis).toBe('own');
    expect(slot.meta.developer_band_blend_weights).toMatchObject({ grader: expect.closeTo(0.79, 1) });
  });

  it("weighs a cell's own sales older than 30 days, this card's own ratio, beside the card model", () => {
    // PSA 9 sold at 0.8 of PSA 10 40 days ago (the usual ratio is 0.45); PSA 10 trades now at the same level.
    const points = [
      pt('psa9', 40 * 24, 80000),
      pt('psa10', 41 * 24, 100000),
      ...[23, 18, 12, 6, 1].map((h) => pt('psa10', h, 100000)),
    ];
    const b = bundle(points);
    const psa9 = PRICED_CONDITIONS.indexOf('psa9');
    const cell = computeEvidence({ product: product('modern'), points, params: params(), id: null }).cells[
      psa9
    ]!;
    // The prediction alone would say 45000 (0.45 x 100000); the old sale pulls the estimate up.
    expect(cell.own!.old).toBe(true);
    expect(cell.ownWeight).toBeGreaterThan(0);
    expect(Math.exp(cell.estimate!.mean)).toBeGreaterThan(60000);
    // The two disagree (0.8 against 0.45): the blend's variance holds the gap (§6.4), so the
    // interval is wide; the cell has a sale of its own, so it is priced, not withheld (§9.1).
    const psa9Slot = b.graded.PSA['9'];
    const band = psa9Slot.meta.confidence as { low_minor: number; high_minor: number };
    expect(psa9Slot.price_minor).toBe(Math.round(Math.exp(cell.estimate!.mean)));
    expect(band.high_minor / band.low_minor).toBeGreaterThan(Math.exp(0.8));
    expect(psa9Slot.meta).toMatchObject({ basis: 'estimated', basis_reason: 'last_known' });
    expect(b.graded.PSA['10'].methodology).toBe('robust_recency_24h_v2');
    expect(b.graded.PSA['8'].meta.basis_reason).toBe('other_conditions');
  });

  it('says every slot of a product without observations is neither own nor estimated, and a derived one is estimated', () => {
    const empty = bundle([]);
    expect(empty.ungraded.meta.basis).toBeUndefined();
    const b = bundle([pt('psa10', 3, 5000)]);
    expect(b.graded.PSA['10'].meta.basis).toBe('own');
    expect(b.graded.PSA['9'].meta).toMatchObject({ basis: 'estimated', basis_reason: 'other_conditions' });
    // An estimate through a ratio that spans too much between cards is withheld and has neither key (§9.1).
    expect(b.ungraded).toMatchObject({ price_minor: null, meta: { no_price_reason: 'wide_estimate' } });
    expect(b.ungraded.meta.basis).toBeUndefined();
    expect(AS_OF).toBeGreaterThan(0);
  });
});
