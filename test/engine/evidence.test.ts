// @module-tag sqlite-only: the pure engine: no store
/**
 * `explainSlot`: the evidence of a slot must be enough to redo its price by hand. The property
 * test recomputes every slot's published price from the evidence alone (kept points, their
 * weights, the prediction's pieces, the blend weight, the clamp's ceiling) with the formulas
 * of docs/methodology.md written out again here, and compares it with the bundle to the cent.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PricingBundle, Slot } from '../../src/domain/bundle.js';
import type { EvidenceBody, EvidenceStep } from '../../src/domain/evidence.js';
import { SLOT_KEYS } from '../../src/domain/history.js';
import type { PricePoint } from '../../src/domain/observation.js';
import type { Product } from '../../src/domain/product.js';
import { computeBundle, explainSlot } from '../../src/engine/index.js';
import { ROOT } from '../_setup.js';
import { AS_OF, params, product, pt, WORKED_EXAMPLE_POINTS } from './fixtures.js';

const CONDITIONS = [
  'ungraded',
  'psa10',
  'psa9',
  'psa8',
  'psa7',
  'bgs10',
  'bgs9',
  'cgc10',
  'sgc9',
  'any10',
  'any8',
];
/** Rough price of each condition relative to the card's level, so the card model has something to tie. */
const LEVEL: Record<string, number> = {
  ungraded: 0.15,
  psa10: 1,
  psa9: 0.45,
  psa8: 0.3,
  psa7: 0.2,
  bgs10: 1.1,
  bgs9: 0.45,
  cgc10: 0.6,
  sgc9: 0.45,
  any10: 1,
  any8: 0.3,
};

/** The card's market: its PSA 10 level in cents, and a move by `jump` for sales newer than `jumpHours`. */
interface Market {
  level: number;
  jump: number;
  jumpHours: number;
}

/**
 * A point of the card: mostly the last 3 days (dense windows, regime changes), else up to 40 days
 * back (top-ups, last known prices); sale noise, wide enough to break the grade order now and
 * then (clamps); now and then a x10 or x0.1 typo (outliers, the cross-check).
 */
function pointArb(m: Market): fc.Arbitrary<PricePoint> {
  return fc
    .record({
      condition: fc.constantFrom(...CONDITIONS, 'ungraded', 'psa10', 'psa9'),
      source: fc.constantFrom('ebay', 'tcgplayer', 'pricecharting'),
      minutes: fc.oneof(fc.integer({ min: 1, max: 72 * 60 }), fc.integer({ min: 1, max: 24 * 60 * 40 })),
      noise: fc.double({ min: -0.5, max: 0.5, noNaN: true }),
      typo: fc.constantFrom(1, 1, 1, 1, 1, 1, 1, 1, 10, 0.1),
    })
    .map(({ condition, source, minutes, noise, typo }) => ({
      condition,
      source,
      observedAt: AS_OF - minutes * 60_000,
      priceMinor: Math.max(
        1,
        Math.round(
          m.level * LEVEL[condition]! * (minutes < m.jumpHours * 60 ? m.jump : 1) * Math.exp(noise) * typo,
        ),
      ),
    }));
}

/** An ungraded sale of the last 24 hours (a busy condition: the carried move's reference). */
function densePointArb(m: Market): fc.Arbitrary<PricePoint> {
  return fc
    .record({
      minutes: fc.integer({ min: 1, max: 24 * 60 }),
      noise: fc.double({ min: -0.1, max: 0.1, noNaN: true }),
    })
    .map(({ minutes, noise }) => ({
      condition: 'ungraded',
      source: 'ebay',
      observedAt: AS_OF - minutes * 60_000,
      priceMinor: Math.max(
        1,
        Math.round(m.level * LEVEL.ungraded! * (minutes < m.jumpHours * 60 ? m.jump : 1) * Math.exp(noise)),
      ),
    }));
}

const bundleArb = fc
  .record({
    level: fc.integer({ min: 200, max: 5_000_000 }),
    jump: fc.constantFrom(1, 1, 0.5, 1.6),
    jumpHours: fc.integer({ min: 1, max: 72 }),
    sealed: fc.boolean(),
    era: fc.constantFrom('modern' as const, 'vintage' as const),
  })
  .chain(({ sealed, era, ...market }) =>
    fc.record({
      product: fc.constant<Product>({ ...product(era), productType: sealed ? 'booster_box' : 'single_card' }),
      // Thin cards and busy ones: fast-check keeps arrays short unless told otherwise.
      // Thin cards, busy ones, and busy ones whose ungraded sells every half hour or so, so the
      // market's move is carried into the thin conditions (§6.1).
      points: fc.oneof(
        fc.array(pointArb(market), { maxLength: 12 }),
        fc.array(pointArb(market), { minLength: 40, maxLength: 160, size: 'max' }),
        fc
          .tuple(
            fc.array(pointArb(market), { minLength: 20, maxLength: 60 }),
            fc.array(densePointArb(market), { minLength: 30, maxLength: 80, size: 'max' }),
          )
          .map(([some, dense]) => [...some, ...dense]),
      ),
      windowHours: fc.integer({ min: 1, max: 72 }),
      outlierStddevs: fc.integer({ min: 1, max: 4 }),
    }),
  );

function publishedPrice(b: PricingBundle, slot: string): Slot {
  if (slot === 'ungraded') return b.ungraded;
  const m = /^([a-z]+)(\d+)$/.exec(slot)!;
  return b.graded[m[1]!.toUpperCase() as 'PSA'][m[2] as '10'];
}

function stepOf(ev: EvidenceBody, name: string): EvidenceStep | undefined {
  return ev.steps.find((s) => s.name === name && s.condition === undefined);
}

interface Piece {
  condition: string;
  log_ratio: number;
  weight: number;
}

/**
 * The slot's price redone from its evidence alone: each condition's estimate is Σ weight · ln price
 * over its kept points (§4), the prediction the weighted mean of its pieces ŷ_j - ln r_j + ln r_c
 * (§6.3), the blend w · own + (1 - w) · prediction (§6.4), the clamp min(price, ceiling); unrounded
 * (expectSameCents rounds it as §12 does).
 */
function recompute(ev: EvidenceBody): number | null {
  const blend = stepOf(ev, 'blend');
  if (blend === undefined) return null;
  const estimate = new Map<string, number>();
  for (const p of ev.points)
    if (p.kept)
      estimate.set(p.condition, (estimate.get(p.condition) ?? 0) + p.weight * Math.log(p.price_minor));
  // §6.1: a carried condition moves by the busiest condition's level now (the nearer to its
  // level then of its estimate and its level 6 h back) minus its level then, the median of the
  // points listed.
  for (const carry of ev.steps.filter((s) => s.name === 'carry')) {
    const inputs = carry.inputs as {
      reference_points: { price_minor: number }[];
      then_ln: number;
      current_ln: number;
      held_ln: number;
      now_ln: number;
      move: number;
    };
    const logs = inputs.reference_points.map((p) => Math.log(p.price_minor)).sort((a, b) => a - b);
    const mid = logs.length >> 1;
    expect(inputs.then_ln).toBeCloseTo(
      logs.length % 2 === 1 ? logs[mid]! : (logs[mid - 1]! + logs[mid]!) / 2,
      12,
    );
    expect(inputs.now_ln).toBe(
      Math.abs(inputs.held_ln - inputs.then_ln) < Math.abs(inputs.current_ln - inputs.then_ln)
        ? inputs.held_ln
        : inputs.current_ln,
    );
    expect(inputs.move).toBeCloseTo(inputs.now_ln - inputs.then_ln, 12);
    estimate.set(carry.condition!, estimate.get(carry.condition!)! + inputs.move);
  }
  const prediction = stepOf(ev, 'prediction');
  let predicted: number | null = null;
  if (prediction !== undefined) {
    const inputs = prediction.inputs as {
      target_log_ratio: number;
      pieces: Piece[];
      shared_variance: number;
      variance: number;
    };
    let sum = 0;
    let total = 0;
    for (const piece of inputs.pieces) {
      sum += piece.weight * (estimate.get(piece.condition)! - piece.log_ratio + inputs.target_log_ratio);
      total += piece.weight;
    }
    predicted = sum / total;
    // §6.3: the pool's variance is the pieces' shared part plus 1 / the sum of their weights.
    expect(inputs.variance).toBeCloseTo(inputs.shared_variance + 1 / total, 12);
  }
  const w = (blend.inputs as { own_weight: number }).own_weight;
  const own = estimate.get(ev.slot);
  if (w > 0) expect(own).toBeDefined();
  let y = predicted === null ? own! : w === 0 ? predicted : w * own! + (1 - w) * predicted;
  // §6.6: held within the own kept window points' range (carried with the card's move).
  const range = stepOf(ev, 'own_range')?.inputs as { low_ln?: number; high_ln?: number } | undefined;
  if (range?.low_ln !== undefined) y = Math.min(Math.max(y, range.low_ln), range.high_ln!);
  let x = Math.exp(y);
  const ceiling =
    (stepOf(ev, 'clamp')?.inputs as { ceiling_minor: number | null } | undefined)?.ceiling_minor ?? null;
  if (ceiling !== null) x = Math.min(x, ceiling);
  return x;
}

/**
 * The recomputed price in cents must be the published one. Sums taken in another order differ
 * in the last bits, so only a value a hair from a half cent (the generator's prices are exact
 * multiples of the prior ratios, so x.5 cents does occur) may round to the neighbouring cent.
 */
function expectSameCents(unrounded: number | null, published: number | null): void {
  if (unrounded === null || published === null) return expect(unrounded).toBe(published);
  const cents = Math.max(1, Math.floor(unrounded + 0.5));
  const atHalf = Math.abs(unrounded - Math.floor(unrounded) - 0.5) <= 1e-9 * Math.max(1, unrounded);
  if (atHalf) expect(Math.abs(cents - published)).toBeLessThanOrEqual(1);
  else expect(cents).toBe(published);
}

describe('explainSlot', () => {
  it('recomputes every slot of random bundles from its evidence to the cent', () => {
    fc.assert(
      fc.property(bundleArb, ({ product: p, points, windowHours, outlierStddevs }) => {
        const input = { product: p, points, params: params({ windowHours, outlierStddevs }), id: null };
        const bundle = computeBundle(input);
        // Each slot explained once: the clamp's check below reads the evidence of the slot above.
        const evidence = new Map<string, EvidenceBody>(
          SLOT_KEYS.map((slot) => [slot, explainSlot(input, slot)]),
        );
        for (const slot of SLOT_KEYS) {
          const ev = evidence.get(slot)!;
          const published = publishedPrice(bundle, slot);
          expect(ev.price_minor).toBe(published.price_minor);
          expect(ev.methodology).toBe(published.methodology);
          const noPrice = stepOf(ev, 'no_price');
          if (noPrice === undefined) expectSameCents(recompute(ev), published.price_minor);
          else {
            // §9.1: the estimate recomputed is the one withheld, for the reason the slot gives.
            expect(published).toMatchObject({
              price_minor: null,
              meta: { no_price_reason: (noPrice.inputs as { no_price_reason: string }).no_price_reason },
            });
            expect(recompute(ev)! / noPrice.value_minor!).toBeCloseTo(1, 9);
          }
          // Weights of each condition's kept points sum to 1; nothing left out carries weight.
          const sums = new Map<string, number>();
          for (const pt of ev.points) {
            if (!pt.kept) expect([pt.weight, typeof pt.reason]).toEqual([0, 'string']);
            else sums.set(pt.condition, (sums.get(pt.condition) ?? 0) + pt.weight);
            if (pt.reason?.startsWith('outlier')) expect(Math.abs(pt.z!)).toBeGreaterThan(outlierStddevs);
            if (pt.kept) expect(Math.abs(pt.z!)).toBeLessThanOrEqual(outlierStddevs + 1e-9);
          }
          for (const sum of sums.values()) expect(sum).toBeCloseTo(1, 12);
          // The kept points of the slot's own condition are the slot's included points.
          const ownKept = ev.points.filter((pt) => pt.kept && pt.condition === slot).length;
          expect(ownKept).toBe(noPrice === undefined ? published.included_points : ownKept);
          if (noPrice !== undefined) expect(published.included_points).toBe(0);
          // The clamp's ceiling is the grade above's price before rounding, as its own evidence gives it.
          const clamp = stepOf(ev, 'clamp')?.inputs as
            { ceiling_minor: number | null; ceiling_slot: string | null } | undefined;
          if (clamp?.ceiling_slot) {
            const above = evidence.get(clamp.ceiling_slot)!;
            expect(stepOf(above, 'clamp')!.value_minor).toBe(clamp.ceiling_minor);
          }
        }
      }),
      { numRuns: 120 },
    );
  });

  it('shows the worked example of docs/methodology.md §13: the x10 sale out with its z, the weights of §13 step 3', () => {
    const ev = explainSlot(
      { product: product('modern'), points: WORKED_EXAMPLE_POINTS, params: params(), id: null },
      'ungraded',
    );
    expect(ev.price_minor).toBe(4635);
    const own = ev.points.filter((p) => p.condition === 'ungraded');
    expect(own.map((p) => [p.price_minor, p.kept])).toEqual([
      [46000, false],
      [4650, true],
      [4500, true],
      [4800, true],
      [4600, true],
    ]);
    // §13 step 2: m = ln 4650 (8.4446), σ = 0.1: z of 46000 = (10.7364 - 8.4446) / 0.1.
    expect(own[0]!.z).toBeCloseTo((Math.log(46000) - Math.log(4650)) / 0.1, 9);
    expect(own[0]!.reason).toMatch(/^outlier: robust z \+22\.92 beyond the threshold ±2/);
    // §13 step 3: w = 2^(-age / 20 h), ages 4, 8, 12, 20 h, over their sum.
    const w = [4, 8, 12, 20].map((age) => 2 ** (-age / 20));
    const total = w.reduce((a, b) => a + b);
    own.slice(1).forEach((p, i) => expect(p.weight).toBeCloseTo(w[i]! / total, 12));
    // The card model entered the price: PSA 10 and PSA 9 are pieces, CGC 10 (one x6 sale) was set aside.
    const prediction = ev.steps.find((s) => s.name === 'prediction')!;
    expect((prediction.inputs!.pieces as Piece[]).map((p) => p.condition)).toEqual(['psa9', 'psa10']);
    expect(prediction.value_minor).toBeCloseTo(4663.29, 2);
    expect(ev.points.filter((p) => p.condition === 'cgc10').map((p) => p.reason)).toEqual([
      expect.stringMatching(/^cross_check/),
    ]);
    expect(ev.steps.filter((s) => s.condition === undefined).map((s) => s.name)).toEqual([
      'cross_check',
      'prediction',
      'blend',
      'own_range',
      'cross_source',
      'rounding',
      'tier',
      'interval',
      'freshness',
    ]);
    expect(ev.steps.find((s) => s.name === 'interval')!.inputs).toMatchObject({
      low_minor: 4224,
      high_minor: 5086,
      quantile: 0.82,
    });
    // §6.6: the blend (4634.81) lies within the 4 kept window sales (4500-4800): own, not held; the pooling moved the own 4634.50 by +0.01 %.
    expect(ev.steps.find((s) => s.name === 'own_range')!.inputs).toMatchObject({
      held: false,
      basis: 'own',
      basis_reason: null,
    });
    expect(ev.steps.find((s) => s.name === 'blend')!.text).toContain('4634.50 cents by +0.01 %');
  });

  it('links every step to a section heading that exists in docs/methodology.md', () => {
    const doc = readFileSync(`${ROOT}/docs/methodology.md`, 'utf8');
    // GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens.
    const anchors = new Set(
      [...doc.matchAll(/^#{2,3} (.+)$/gm)].map((m) =>
        m[1]!
          .toLowerCase()
          .replace(/[^\p{L}\p{N} -]/gu, '')
          .replace(/ /g, '-'),
      ),
    );
    const points = [
      pt('ungraded', 2, 4600),
      pt('psa10', 3, 30000),
      pt('psa9', 50, 40000),
      pt('psa9', 40 * 24, 1000),
      pt('bgs10', 1, 1),
    ];
    const sealed: Product = { ...product(), productType: 'booster_box' };
    const docs = new Set<string>();
    for (const p of [product(), sealed]) {
      for (const slot of SLOT_KEYS)
        for (const s of explainSlot({ product: p, points, params: params(), id: null }, slot).steps)
          docs.add(s.doc);
    }
    expect(docs.size).toBeGreaterThan(8);
    for (const link of docs) expect(anchors, link).toContain(link.replace('docs/methodology.md#', ''));
  });
});
