// @module-tag sqlite-only: the pure engine: no store
/** Invariants of the engine, checked with fast-check over generated observations. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GRADERS, PRICED_CONDITIONS } from '../../src/domain/conditions.js';
import type { PricingBundle } from '../../src/domain/bundle.js';
import type { ConditionPoints, PricePoint } from '../../src/domain/observation.js';
import { HOUR_MS } from '../../src/domain/time.js';
import { computeBundle, pointsRequest, timelineOfColumns } from '../../src/engine/index.js';
import { robustBounds, shrinkingBounds } from '../../src/engine/robust-filter.js';
import { buildSeries } from '../../src/engine/series.js';
import { AS_OF, params, product } from './fixtures.js';

const RUNS = { numRuns: 150 };
const SOURCES = ['ebay', 'tcgplayer', 'pricecharting'];

/** Prices spread log-uniformly from 1 cent to 100,000 USD. */
const priceArb = fc
  .double({ min: 0, max: Math.log(1e7), noNaN: true })
  .map((x) => Math.max(1, Math.round(Math.exp(x))));

/** A point up to 40 days before as_of (some older than the lookback) or a little after it. */
function pointArb(
  conditions: readonly string[] = PRICED_CONDITIONS,
  price = priceArb,
  maxHours = 24 * 40,
): fc.Arbitrary<PricePoint> {
  return fc.record({
    condition: fc.constantFrom(...conditions),
    source: fc.constantFrom(...SOURCES),
    observedAt: fc.integer({ min: -5 * 60, max: maxHours * 60 }).map((minutes) => AS_OF - minutes * 60_000),
    priceMinor: price,
  });
}

const paramsArb = fc.record({
  windowHours: fc.integer({ min: 1, max: 72 }),
  outlierStddevs: fc.integer({ min: 1, max: 10 }),
});

function bundleOf(
  points: readonly PricePoint[],
  p: { windowHours?: number; outlierStddevs?: number; asOf?: number } = {},
): PricingBundle {
  return computeBundle({ product: product(), points, params: params(p), id: null });
}

function allSlots(b: PricingBundle) {
  return [b.ungraded, ...GRADERS.flatMap((g) => Object.values(b.graded[g]))];
}

describe('engine invariants', () => {
  it('every bundle is monotone per grader after rounding: 7 <= 8 <= 9 <= 10', () => {
    fc.assert(
      fc.property(fc.array(pointArb(), { maxLength: 60 }), paramsArb, (points, p) => {
        const b = bundleOf(points, p);
        for (const g of GRADERS) {
          const c = b.graded[g];
          // A withheld estimate (§9.1) leaves a gap; the priced grades keep their order across it.
          const slots = [c['7'], c['8'], c['9'], c['10']];
          const prices = slots.filter((s) => s.price_minor !== null).map((s) => s.price_minor!);
          for (let i = 1; i < prices.length; i++) expect(prices[i - 1]!).toBeLessThanOrEqual(prices[i]!);
          if (prices.length < 4 && points.some((pt) => pt.observedAt < AS_OF)) {
            for (const s of slots) if (s.price_minor === null) expect(s.meta.no_price_reason).toBeDefined();
          }
        }
      }),
      RUNS,
    );
  });

  it('every price is an integer of at least 1 cent, and a product with any point before as_of prices every slot or says why not', () => {
    fc.assert(
      fc.property(fc.array(pointArb(), { maxLength: 60 }), paramsArb, (points, p) => {
        const slots = allSlots(bundleOf(points, p));
        const anyData = points.some((pt) => pt.observedAt < AS_OF);
        for (const s of slots) {
          if (anyData && s.meta.no_price_reason === undefined) {
            expect(Number.isInteger(s.price_minor)).toBe(true);
            expect(s.price_minor!).toBeGreaterThanOrEqual(1);
            expect(s.error).toBeNull();
            expect(s.meta.basis).toBeDefined();
          } else if (anyData) {
            // An estimate withheld (§9.1), or sources out of line (§18): no price, never one of the cell's own basis.
            expect(s).toMatchObject({ price_minor: null, error: 'no_observations', included_points: 0 });
            expect(['stale_estimate', 'wide_estimate', 'sources_disagree']).toContain(s.meta.no_price_reason);
          } else expect(s).toMatchObject({ price_minor: null, error: 'no_observations' });
        }
      }),
      RUNS,
    );
  });

  it('multiplying every price by a factor multiplies every price, interval bound and none else (up to rounding)', () => {
    // The method works in ln(price): a common factor shifts every ln price by the same amount.
    fc.assert(
      fc.property(
        fc.array(pointArb(PRICED_CONDITIONS, fc.integer({ min: 100, max: 100_000 })), { maxLength: 60 }),
        fc.constantFrom(10, 100),
        paramsArb,
        (points, f, p) => {
          const base = allSlots(bundleOf(points, p));
          const scaled = allSlots(
            bundleOf(
              points.map((pt) => ({ ...pt, priceMinor: pt.priceMinor * f })),
              p,
            ),
          );
          base.forEach((s, i) => {
            const t = scaled[i]!;
            if (s.price_minor === null) return expect(t.price_minor).toBeNull();
            // Each side rounds once to the cent: the scaled price is within f/2 + 1/2 cents of f times the base.
            expect(Math.abs(t.price_minor! - f * s.price_minor)).toBeLessThanOrEqual(f / 2 + 0.5);
            expect(t.included_points).toBe(s.included_points);
            expect(t.meta.oracle_fallback_tier).toBe(s.meta.oracle_fallback_tier);
          });
        },
      ),
      RUNS,
    );
  });

  it('every priced slot carries an 80 % interval around its price and the age of its newest observation', () => {
    fc.assert(
      fc.property(fc.array(pointArb(), { maxLength: 60 }), paramsArb, (points, p) => {
        for (const s of allSlots(bundleOf(points, p))) {
          if (s.price_minor === null) {
            expect(s.meta).not.toHaveProperty('confidence');
            continue;
          }
          const c = s.meta.confidence as { level: number; low_minor: number; high_minor: number };
          expect(c.level).toBe(0.8);
          expect(Number.isInteger(c.low_minor) && Number.isInteger(c.high_minor)).toBe(true);
          expect(c.low_minor).toBeLessThanOrEqual(s.price_minor);
          expect(c.high_minor).toBeGreaterThanOrEqual(s.price_minor);
          const newest = Date.parse(s.meta.newest_observation_at as string);
          expect(points.some((pt) => pt.observedAt === newest)).toBe(true);
          expect(newest).toBeLessThan(AS_OF);
          expect(s.meta.stale).toBe(AS_OF - newest > 7 * 24 * HOUR_MS);
        }
      }),
      RUNS,
    );
  });

  it('constant prices of one condition give exactly that price in its slot', () => {
    fc.assert(
      fc.property(
        priceArb,
        fc.array(pointArb(['ungraded'], fc.constant(1)), { minLength: 1, maxLength: 30 }),
        paramsArb,
        (c, points, p) => {
          const b = bundleOf(
            points.map((pt) => ({ ...pt, priceMinor: c })),
            p,
          );
          // The cell's own points price it whatever their age (§9.1): those of the 30 days, else its last known ones.
          if (points.some((pt) => pt.observedAt < AS_OF)) expect(b.ungraded.price_minor).toBe(c);
        },
      ),
      RUNS,
    );
  });

  it('input order never matters: the bundle is byte-identical for any permutation', () => {
    fc.assert(
      fc.property(
        fc
          .array(pointArb(), { maxLength: 80 })
          .chain((pts) => fc.tuple(fc.constant(pts), fc.shuffledSubarray(pts, { minLength: pts.length }))),
        paramsArb,
        ([points, shuffled], p) => {
          expect(JSON.stringify(bundleOf(shuffled, p))).toBe(JSON.stringify(bundleOf(points, p)));
        },
      ),
      RUNS,
    );
  });

  it('extra history older than the 3 latest prior points per condition never changes a price', () => {
    fc.assert(
      fc.property(
        fc.array(pointArb(), { maxLength: 60 }),
        fc.array(priceArb, { minLength: 63, maxLength: 63 }),
        paramsArb,
        (points, priorPrices, p) => {
          // Three points 31-33 days old for every condition, so each condition's 3 latest prior points
          // are newer than the extra 400-day-old ones, which must then be ignored.
          const prior = PRICED_CONDITIONS.flatMap((condition, i) =>
            [31, 32, 33].map((days, j) => ({
              condition,
              source: 'ebay',
              observedAt: AS_OF - days * 24 * HOUR_MS,
              priceMinor: priorPrices[i * 3 + j]!,
            })),
          );
          const ancient = PRICED_CONDITIONS.map((condition) => ({
            condition,
            source: 'ebay',
            observedAt: AS_OF - 400 * 24 * HOUR_MS,
            priceMinor: 7,
          }));
          const recent = points.filter((pt) => pt.observedAt >= AS_OF - 30 * 24 * HOUR_MS);
          const expected = JSON.stringify(bundleOf([...recent, ...prior], p));
          expect(JSON.stringify(bundleOf([...recent, ...prior, ...ancient], p))).toBe(expected);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('points beyond what pointsRequest asks for never change the bundle', () => {
    // Dense history over a few conditions (a band's members among them), on whole hours so
    // instants repeat: well over the 32-point cap in the 30 days before most windows.
    const dense = fc.array(
      fc.record({
        condition: fc.constantFrom('ungraded', 'psa9', 'bgs9', 'any9', 'psa10'),
        source: fc.constantFrom(...SOURCES),
        observedAt: fc.integer({ min: -2, max: 24 * 40 }).map((hours) => AS_OF - hours * HOUR_MS),
        priceMinor: fc.integer({ min: 900, max: 1300 }),
      }),
      { minLength: 100, maxLength: 400, size: 'max' },
    );
    fc.assert(
      fc.property(dense, paramsArb, (points, p) => {
        const req = pointsRequest(params(p));
        // What the store returns: per condition, the window, then the latest few of the lookback and
        // older, "latest" in the engine's full order (time, price, source).
        const order = (a: PricePoint, b: PricePoint) =>
          a.observedAt - b.observedAt ||
          a.priceMinor - b.priceMinor ||
          (a.source < b.source ? -1 : a.source > b.source ? 1 : 0);
        const subset = PRICED_CONDITIONS.flatMap((condition) => {
          const mine = points.filter((pt) => pt.condition === condition).sort(order);
          const inRange = (lo: number, hi: number) =>
            mine.filter((pt) => pt.observedAt >= lo && pt.observedAt < hi);
          return [
            ...inRange(-Infinity, req.lookbackStart).slice(-req.priorPerCondition),
            ...inRange(req.lookbackStart, req.windowStart).slice(-req.depthPerCondition),
            ...inRange(req.windowStart, req.asOf),
          ];
        });
        expect(JSON.stringify(bundleOf(subset, p))).toBe(JSON.stringify(bundleOf(points, p)));
      }),
      { numRuns: 60 },
    );
  });

  it('a timeline of the points given condition by condition prices every instant as the points do', () => {
    // Columns in any order (a condition may come in several pieces), with points the engine
    // ignores among them: conditions it does not price, prices that are not positive.
    const pieceArb = fc.record({
      condition: fc.constantFrom('ungraded', 'psa10', 'psa9', 'bgs9', 'any9', 'tag10', 'psa9.5'),
      points: fc.array(
        fc.record({
          source: fc.constantFrom(...SOURCES),
          observedAt: fc
            .integer({ min: -24 * 60, max: 24 * 60 * 40 })
            .map((minutes) => AS_OF - minutes * 60_000),
          priceMinor: fc.oneof(
            { weight: 20, arbitrary: priceArb },
            { weight: 1, arbitrary: fc.constantFrom(0, -100, Infinity) },
          ),
        }),
        { maxLength: 40 },
      ),
    });
    const instantsArb = fc.array(
      fc.integer({ min: -2 * 24, max: 24 * 42 }).map((hours) => AS_OF - hours * HOUR_MS),
      { minLength: 1, maxLength: 8 },
    );
    fc.assert(
      fc.property(fc.array(pieceArb, { maxLength: 10 }), instantsArb, paramsArb, (pieces, instants, p) => {
        const groups: ConditionPoints[] = pieces.map(({ condition, points }) => ({
          condition,
          observedAt: points.map((pt) => pt.observedAt),
          priceMinor: points.map((pt) => pt.priceMinor),
          source: points.map((pt) => pt.source),
        }));
        const points: PricePoint[] = pieces.flatMap(({ condition, points }) =>
          points.map((pt) => ({ condition, ...pt })),
        );
        const timeline = timelineOfColumns(groups);
        for (const asOf of instants) {
          const input = { product: product(), params: params({ ...p, asOf }), id: null };
          expect(JSON.stringify(computeBundle({ ...input, points: timeline }))).toBe(
            JSON.stringify(computeBundle({ ...input, points })),
          );
        }
      }),
      RUNS,
    );
  });

  it('as_of before all data gives no_observations in every slot', () => {
    fc.assert(
      fc.property(
        fc.array(pointArb(), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 1000 }),
        paramsArb,
        (points, back, p) => {
          const first = Math.min(...points.map((pt) => pt.observedAt));
          for (const s of allSlots(bundleOf(points, { ...p, asOf: first - back * 60_000 }))) {
            expect(s).toMatchObject({
              price_minor: null,
              error: 'no_observations',
              included_points: 0,
              excluded_points: 0,
            });
          }
        },
      ),
      RUNS,
    );
  });
});

describe('robust bounds of shrinking ranges', () => {
  it('gives exactly the numbers of robustBounds for every older part the regime rule tries', () => {
    // Few distinct prices (ties, equal deviations either side of the centre) as well as many.
    const priceSetArb = fc.oneof(
      fc.array(priceArb, { minLength: 1, maxLength: 4 }),
      fc.array(priceArb, { minLength: 1, maxLength: 200 }),
    );
    fc.assert(
      fc.property(
        priceSetArb.chain((set) => fc.array(fc.constantFrom(...set), { minLength: 1, maxLength: 120 })),
        fc.integer({ min: 1, max: 10 }),
        fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 30 }),
        (prices, k, steps) => {
          const points = prices.map((priceMinor, i) => ({
            condition: 'ungraded',
            source: 'ebay',
            observedAt: AS_OF - (i + 1) * 60_000,
            priceMinor,
          }));
          const s = buildSeries(points, AS_OF, AS_OF - 24 * HOUR_MS).conditions[0]!.current;
          const shrinking = shrinkingBounds(
            s,
            s.lo,
            s.hi,
            k,
            new Float64Array(s.hi - s.lo),
            new Float64Array(s.hi - s.lo),
          );
          let j = s.hi;
          for (const step of [0, ...steps]) {
            j -= step;
            if (j <= s.lo) break;
            expect(shrinking.before(j)).toEqual(robustBounds(s, s.lo, j, k, new Float64Array(s.hi - s.lo)));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('one far outlier', () => {
  // Three or more base sales in the window, spread by at most 30 % (ln 1.3 = 0.262), plus one sale at
  // 100x (or 0.01x) their median. Exclusion, for every k in 1..10: the overall median m lies within the
  // base range and at least half of the deviations are base deviations <= 0.262, so MAD <= 0.262 and
  // σ = max(1.4826·MAD, 0.1) <= 0.389; the outlier is >= ln 100 - 0.262 = 4.34 from m > 10·σ = 3.89.
  const baseArb = fc
    .tuple(
      fc.integer({ min: 100, max: 1_000_000 }),
      fc.array(
        fc.tuple(
          fc.double({ min: 0, max: 0.3, noNaN: true }),
          fc.integer({ min: 1, max: 24 * 60 - 1 }),
          fc.constantFrom(...SOURCES),
        ),
        { minLength: 3, maxLength: 12 },
      ),
    )
    .map(([p, rows]) =>
      rows.map(([f, minutes, source]) => ({
        condition: 'ungraded',
        source,
        observedAt: AS_OF - minutes * 60_000,
        priceMinor: Math.floor(p * (1 + f)),
      })),
    );
  const outlierArb = fc.tuple(fc.constantFrom(100, 0.01), fc.integer({ min: 1, max: 24 * 60 - 1 }));

  function withOutlier(base: PricePoint[], [factor, minutes]: [number, number]): PricePoint[] {
    const prices = base.map((b) => b.priceMinor).sort((a, b) => a - b);
    const n = prices.length;
    const med = n % 2 ? prices[(n - 1) / 2]! : (prices[n / 2 - 1]! + prices[n / 2]!) / 2;
    return [
      ...base,
      {
        condition: 'ungraded',
        source: 'ebay',
        observedAt: AS_OF - minutes * 60_000,
        priceMinor: Math.max(1, Math.round(med * factor)),
      },
    ];
  }

  it('lies outside the robust filter bounds for every outlier_stddevs from 1 to 10', () => {
    fc.assert(
      fc.property(baseArb, outlierArb, fc.integer({ min: 1, max: 10 }), (base, outlier, k) => {
        const points = withOutlier(base, outlier);
        const s = buildSeries(points, AS_OF, AS_OF - 24 * HOUR_MS).conditions[0]!.current;
        const bounds = robustBounds(s, s.lo, s.hi, k, new Float64Array(s.hi - s.lo));
        const y = Math.log(points.at(-1)!.priceMinor);
        expect(y < bounds.lo || y > bounds.hi).toBe(true);
      }),
      RUNS,
    );
  });

  it('is excluded from the bundle and moves the price by no more than the base price range', () => {
    // Bound: with the outlier excluded, both prices come from base sales only, and every step (TWAP,
    // median, quantile, blends, caps) stays within [min, max] of the kept base prices; rounding half up
    // maps [min, max] (integers) into itself. So both prices lie in [min, max] and differ by at most
    // max - min (<= 30 % of the base price).
    fc.assert(
      fc.property(baseArb, outlierArb, paramsArb, (base, outlier, p) => {
        const params24 = { ...p, windowHours: 24 };
        const without = bundleOf(base, params24).ungraded;
        const withIt = bundleOf(withOutlier(base, outlier), params24).ungraded;
        const min = Math.min(...base.map((b) => b.priceMinor));
        const max = Math.max(...base.map((b) => b.priceMinor));
        expect(withIt.excluded_points).toBeGreaterThanOrEqual(1);
        expect(withIt.included_points).toBeLessThanOrEqual(base.length);
        expect(withIt.price_minor!).toBeGreaterThanOrEqual(min);
        expect(withIt.price_minor!).toBeLessThanOrEqual(max);
        expect(Math.abs(withIt.price_minor! - without.price_minor!)).toBeLessThanOrEqual(max - min);
      }),
      RUNS,
    );
  });
});
