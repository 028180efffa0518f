// @module-tag sqlite-only: the backtest's metrics and a seeded run on a SQLite file: the store's reads run on
// both in the store contract, and a second market run would cost the suite's time
/**
 * The backtest (docs/backtest.md, issue 9): its metrics and alternatives on hand-computed
 * inputs, and a small seeded run through the real ingest, store and service: determinism,
 * invariants, and the engine against the plain 24 h median on its market.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bandMedian7d,
  codaBlend,
  mean24,
  median24,
  sevenDayAt,
  sevenDayTrack,
  windowPrices,
} from '../../backtest/lib/alternatives.js';
import { runBacktest } from '../../backtest/lib/backtest.js';
import { loadMarket } from '../../backtest/lib/load.js';
import {
  buildMarket,
  SOURCE,
  truthAt,
  type Market,
  type ProductMarket,
  type Series,
} from '../../backtest/lib/market.js';
import {
  absoluteError,
  coverage,
  hoursToFollow,
  intervalCoverage,
  offAfterJump,
  relativeError,
  shareOffAfterJumps,
  summarizeErrors,
  summarizeFollow,
} from '../../backtest/lib/metrics.js';
import { CELLS, HOUR, SCORED_START, START } from '../../backtest/lib/model.js';
import { aggregate } from '../../backtest/lib/report.js';
import { BASES, basisOf, METHODS, UNPRICED, type Scores } from '../../backtest/lib/score.js';
import type { Slot } from '../../src/domain/bundle.js';
import type { Store } from '../../src/store/store.js';
import { ROOT, tempDir } from '../_setup.js';

const run = promisify(execFile);

/** A series from [hours after START, price] pairs (in time order). */
function series(points: [number, number][]): Series {
  return {
    t: Float64Array.from(points, ([h]) => START + h * HOUR),
    price: Float64Array.from(points, ([, p]) => p),
    source: new Uint8Array(points.length),
  };
}

describe('metrics', () => {
  it('summarises errors as type-7 percentiles of their size, the share above 25 % and the median signed error', () => {
    const s = summarizeErrors([0.5, -0.1, -0.3, 0.2, 0.4]);
    expect(s.n).toBe(5);
    expect(s.mdape).toBeCloseTo(30, 10);
    // h = 4 x 0.9 = 3.6: 0.4 + 0.6 x (0.5 - 0.4)
    expect(s.p90).toBeCloseTo(46, 10);
    expect(s.p99).toBeCloseTo(49.6, 10);
    expect(s.over25).toBeCloseTo(60, 10);
    // Signed, sorted: -0.3, -0.1, 0.2, 0.4, 0.5.
    expect(s.bias).toBeCloseTo(20, 10);
    expect(summarizeErrors([])).toEqual({
      n: 0,
      mdape: null,
      p90: null,
      p99: null,
      over25: null,
      bias: null,
    });
    expect(absoluteError(90, 100)).toBeCloseTo(0.1, 12);
    expect(relativeError(90, 100)).toBeCloseTo(-0.1, 12);
  });

  it('counts coverage and interval coverage', () => {
    expect(coverage(3, 4)).toBe(75);
    expect(coverage(0, 0)).toBeNull();
    expect(
      intervalCoverage([
        { low: 90, high: 110, truth: 100 },
        { low: 90, high: 95, truth: 100 },
        { low: 100, high: 100, truth: 100 },
      ]),
    ).toBeCloseTo(200 / 3, 10);
    expect(intervalCoverage([])).toBeNull();
  });

  it('follows a jump from the first hour that stays within 10 % for 6 hours', () => {
    const far = { price: 150, truth: 100 };
    const near = { price: 105, truth: 100 };
    const unpriced = { price: null, truth: 100 };
    expect(hoursToFollow([far, far, near, near, near, near, near, near, near])).toBe(3);
    // A dip at hour 5 restarts the count: followed from hour 6.
    expect(hoursToFollow([far, far, near, near, far, near, near, near, near, near, near])).toBe(6);
    expect(hoursToFollow([near, unpriced, near, near, near, near, near, near])).toBe(3);
    expect(hoursToFollow([far, far, far])).toBeNull();
    // The 6 hours must all lie inside the horizon.
    expect(hoursToFollow([far, far, near, near, near, near, near])).toBeNull();
    expect(hoursToFollow([far, near, near, near, near, near, near])).toBe(2);
    // The first 24 hourly instants after a jump: 2 unpriced, 22 priced of which 5 off by > 25 %
    // (hours 25 and 26 are not counted).
    const first = [unpriced, unpriced, ...Array(5).fill(far), ...Array(17).fill(near), far, far];
    expect(offAfterJump(first)).toEqual({ priced: 22, off: 5 });
    expect(
      shareOffAfterJumps([
        { priced: 20, off: 5 },
        { priced: 4, off: 1 },
      ]),
    ).toBe(25);
    expect(shareOffAfterJumps([{ priced: 0, off: 0 }])).toBeNull();
    const summary = summarizeFollow([3, null, 10, 30]);
    expect(summary).toEqual({ events: 4, medianHours: 10, p90Hours: null, within24h: 50, notFollowed: 1 });
  });
});

describe('alternatives', () => {
  const t = START + 30 * HOUR;

  it('mean and median read [t - 24 h, t)', () => {
    const s = series([
      [5, 1000], // t - 25 h: outside
      [6, 100], // t - 24 h: inside
      [20, 200],
      [29, 400],
      [30, 5000], // at t: outside
    ]);
    expect(mean24(s, t)).toBeCloseTo(700 / 3, 10);
    expect(median24(s, t)).toBe(200);
    expect(mean24(s, START + 60 * HOUR)).toBeNull();
    expect(median24(s, START)).toBeNull();
  });

  it('mean±2sd blend: filter, then (TWAP + median) / 2 floored at q20', () => {
    // Kept (n = 3, all within 2 sd): TWAP (100 x 8 + 110 + 120) / 10 = 103, median 110, q20 104.
    expect(
      codaBlend(
        series([
          [20, 100],
          [28, 110],
          [29, 120],
        ]),
        t,
      ),
    ).toBeCloseTo(106.5, 10);
    // 5 x 100 and one 1000 (z = sqrt(5) > 2): the 1000 is dropped.
    expect(
      codaBlend(
        series([
          [10, 100],
          [12, 100],
          [14, 100],
          [16, 100],
          [18, 100],
          [20, 1000],
        ]),
        t,
      ),
    ).toBe(100);
    // The floor binds: TWAP (30 x 20 + 40 + 40 x 0.5 + 50 x 0.5 + 50) / 23, median 40, q20 38.
    const floored = series([
      [7, 30],
      [27, 40],
      [28, 40],
      [28.5, 50],
      [29, 50],
    ]);
    expect((30 * 20 + 40 + 40 * 0.5 + 50 * 0.5 + 50) / 23 / 2 + 20).toBeLessThan(38);
    expect(codaBlend(floored, t)).toBeCloseTo(38, 10);
    expect(codaBlend(series([]), t)).toBeNull();
  });

  it('7-day median: drops points beyond 10x the median, republishes only on a move over 10 %', () => {
    expect(
      bandMedian7d(
        series([
          [1, 100],
          [2, 105],
          [3, 110],
          [4, 2000],
        ]),
        START + 5 * HOUR,
      ),
    ).toBe(105);
    const s = series([
      [1, 100],
      [3, 104],
      [5, 130],
      [6, 140],
    ]);
    const track = sevenDayTrack(s);
    expect(sevenDayAt(track, START + 1 * HOUR)).toBeNull();
    expect(sevenDayAt(track, START + 2 * HOUR)).toBe(100);
    expect(sevenDayAt(track, START + 4 * HOUR)).toBe(100); // median 102: within 10 %, not republished
    expect(sevenDayAt(track, START + 6 * HOUR)).toBe(100); // median 104: +4 %
    expect(sevenDayAt(track, START + 7 * HOUR)).toBe(117); // median 117: +17 %, republished
    expect(sevenDayAt(track, START + 169 * HOUR)).toBe(117);
    expect(sevenDayAt(track, START + 170 * HOUR)).toBe(130); // 100 left the window: median 130, +11 %
    expect(sevenDayAt(track, START + 172 * HOUR)).toBe(130); // median 135: +3.8 %
    expect(sevenDayAt(track, START + 174 * HOUR)).toBe(130); // median 140: +7.7 %
    expect(sevenDayAt(track, START + 175 * HOUR)).toBeNull(); // nothing in 7 days
    expect(() => sevenDayAt(track, START + 90 * 60_000)).toThrow(/on the hour/);
  });
});

describe('aggregation', () => {
  it('scores every method on the same pairs: common share, coverage, errors and intervals', () => {
    // One product, four scored pairs of its ungraded cell, truth 100 each.
    const nan = Number.NaN;
    const prices = [
      [110, 90, 100, 150], // ours
      [100, 100, nan, nan], // mean 24 h
      [100, 100, 100, nan],
      [100, 100, 100, nan],
      [100, 100, 100, nan],
    ];
    const scores = {
      instants: [START],
      rows: {
        length: 4,
        product: new Int32Array(4),
        instant: Int32Array.from([0, 1, 2, 3]),
        cell: new Uint8Array(4),
        own: Uint8Array.from([1, 1, 1, 0]),
        basis: Uint8Array.from([0, 1, 0, 1]), // own, estimated, own, estimated
        truth: Float64Array.from([100, 100, 100, 100]),
        price: prices.map((p) => Float64Array.from(p)),
        low: Float64Array.from([100, 91, nan, 100]),
        high: Float64Array.from([120, 99, nan, 200]),
        next: Float64Array.from([130, 95, 100, nan]),
      },
      jumps: [],
      sealedGraded: { slots: 0, priced: 0, examples: [] },
      bundles: 4,
      basisFrom: { meta: 2, derived: 2 },
    } satisfies Scores;
    const market = {
      seed: '0',
      scale: 'small',
      products: [{ plan: { scenario: 'baseline' } }],
    } as unknown as Market;
    const { segments, scenarios, scenarioCells, bases, scenarioBases } = aggregate(market, scores);
    const all = segments.find((s) => s.id === 'all')!;
    expect(all.scored).toBe(4);
    // Common pairs: the first two, the only ones every method prices.
    expect(all.views.common.map((r) => [r.errors.n, r.coverage])).toEqual(METHODS.map(() => [2, 50]));
    expect(all.views.common[0]!.errors.mdape).toBeCloseTo(10, 10);
    expect(all.views.all.map((r) => r.coverage)).toEqual([100, 50, 75, 75, 75]);
    const ours = all.views.all[0]!;
    expect(ours.errors).toMatchObject({ n: 4, over25: 25 });
    expect(ours.errors.mdape).toBeCloseTo(10, 10);
    expect(ours.errors.bias).toBeCloseTo(5, 10); // signed: -0.1, 0, 0.1, 0.5
    // Intervals on three pairs, two holding the truth (91-99 misses 100).
    expect([ours.intervals, ours.interval]).toEqual([3, (100 * 2) / 3]);
    // The next sale: 130 outside 100-120, 95 inside 91-99; the last pair has none.
    expect(ours.nextInterval).toBe(50);
    expect(all.views.all[1]!.interval).toBeNull();
    expect(segments.find((s) => s.id === 'graded')!.scored).toBe(0);
    expect(scenarios.map((s) => [s.id, s.scored])).toEqual([['baseline', 4]]);
    expect(scenarioCells.map((s) => [s.id, s.scored])).toEqual([
      ['baseline ungraded', 4],
      ['baseline graded', 0],
    ]);
    // Each basis apart: own holds 110 and 100 (one interval, holding the truth), estimated 90
    // and 150 (two intervals, one holding it).
    const basis = (id: string) => bases.find((s) => s.id === id)!.views.all[0]!;
    expect([
      basis('own, all cells').errors.n,
      basis('own, all cells').errors.mdape,
      basis('own, all cells').interval,
    ]).toEqual([2, 5, 100]);
    expect([basis('estimated, all cells').errors.n, basis('estimated, all cells').interval]).toEqual([2, 50]);
    expect(basis('estimated, all cells').errors.mdape).toBeCloseTo(30, 10);
    expect(basis('own, graded').errors.n).toBe(0);
    expect(scenarioBases.map((s) => [s.id, s.scored])).toEqual([
      ['baseline own', 2],
      ['baseline estimated', 2],
    ]);
  });

  it("takes a slot's basis from meta.basis, else derives it from its own points and fallback tier", () => {
    const slot = (included: number, meta: Record<string, unknown>, price: number | null = 100): Slot => ({
      price_minor: price,
      currency: 'USD',
      condition_key: 'psa10',
      methodology: 'test',
      window_start: '2026-05-01T00:00:00Z',
      window_end: '2026-05-02T00:00:00Z',
      included_points: included,
      excluded_points: 0,
      error: price === null ? 'no_observations' : null,
      meta,
    });
    expect(basisOf(slot(3, { basis: 'estimated' }))).toEqual({
      basis: BASES.indexOf('estimated'),
      fromMeta: true,
    });
    expect(basisOf(slot(0, { basis: 'own' }))).toEqual({ basis: BASES.indexOf('own'), fromMeta: true });
    expect(basisOf(slot(3, {}))).toEqual({ basis: BASES.indexOf('own'), fromMeta: false });
    expect(basisOf(slot(0, {}))).toEqual({ basis: BASES.indexOf('estimated'), fromMeta: false });
    expect(basisOf(slot(2, { oracle_fallback_tier: 'cross_check' }))).toEqual({
      basis: BASES.indexOf('estimated'),
      fromMeta: false,
    });
    expect(basisOf(slot(0, {}, null))).toEqual({ basis: UNPRICED, fromMeta: false });
  });
});

describe('loading', () => {
  it("runs the operator's preparation with only the warm-up in the database, then loads the rest", async () => {
    const market = buildMarket('3', 'small', 'crash');
    const seen: { asOf: number; counts: number[] }[] = [];
    const countOf = async (store: Store) => (await store.products.catalog()).map((e) => e.observation_count);
    const { store } = await loadMarket(market, tempDir('oracle-backtest-load-'), async (s, asOf) => {
      seen.push({ asOf, counts: await countOf(s) });
    });
    try {
      const before = (p: ProductMarket, to: number) =>
        [...p.cells, ...p.pooled].reduce((n, s) => n + s.t.filter((t) => t < to).length, 0);
      const keys = (await store.products.catalog()).map((e) => e.product_key);
      const byKey = (key: string) => market.products.find((p) => p.plan.key === key)!;
      expect(seen).toEqual([{ asOf: SCORED_START, counts: keys.map((k) => before(byKey(k), SCORED_START)) }]);
      expect(await countOf(store)).toEqual(keys.map((k) => before(byKey(k), Number.POSITIVE_INFINITY)));
    } finally {
      await store.close();
    }
  });
});

describe('a small seeded run', () => {
  let first: Awaited<ReturnType<typeof runBacktest>>;
  let crashOnly: Awaited<ReturnType<typeof runBacktest>>;
  let crashAgain: Awaited<ReturnType<typeof runBacktest>>;
  beforeAll(async () => {
    first = await runBacktest({ seed: '1', scale: 'small', scenario: null });
    crashOnly = await runBacktest({ seed: '1', scale: 'small', scenario: 'crash' });
    crashAgain = await runBacktest({ seed: '1', scale: 'small', scenario: 'crash' });
  }, 120_000);

  it('the same run twice gives identical scores, ours included', () => {
    const a = crashOnly.scores;
    const b = crashAgain.scores;
    expect(b.rows.length).toBeGreaterThan(0);
    expect(b.rows).toEqual(a.rows);
    expect(b.jumps).toEqual(a.jumps);
    expect(crashAgain.summary.results).toEqual(crashOnly.summary.results);
    expect(crashAgain.worst).toEqual(crashOnly.worst);
  });

  it('the same seed makes the same market; another seed another', () => {
    const again = buildMarket('1', 'small');
    expect(again.products.map((p) => p.plan)).toEqual(first.market.products.map((p) => p.plan));
    again.products.forEach((p, i) => {
      const before = first.market.products[i]!;
      expect(p.logTruth).toEqual(before.logTruth);
      expect(p.cells).toEqual(before.cells);
      expect(p.pooled).toEqual(before.pooled);
    });
    // Some scenarios alone: the same products, drawn the same.
    const some = buildMarket('1', 'small', 'crash,sealed');
    expect(some.products.map((p) => p.plan)).toEqual(
      first.market.products.filter((p) => ['crash', 'sealed'].includes(p.plan.scenario)).map((p) => p.plan),
    );
    const other = buildMarket('2', 'small');
    expect(other.products[0]!.logTruth).not.toEqual(first.market.products[0]!.logTruth);
  });

  it('the same seed gives the same scores (a scenario run alone scores its products identically)', () => {
    // The engine prices with a calibration fitted on every product loaded (prepareStore), so a
    // scenario run alone gives it another calibration: the alternatives, which read one cell
    // each, must match exactly; the engine's determinism is the run-twice test above.
    const keys = first.market.products.map((p) => p.plan.key);
    const { rows } = first.scores;
    const crash = crashOnly.scores.rows;
    const crashKeys = crashOnly.market.products.map((p) => p.plan.key);
    expect(crashKeys.length).toBeGreaterThan(0);
    const picked: number[] = [];
    for (let r = 0; r < rows.length; r++) if (crashKeys.includes(keys[rows.product[r]!]!)) picked.push(r);
    expect(picked.length).toBe(crash.length);
    picked.forEach((r, i) => {
      expect(rows.truth[r]).toBe(crash.truth[i]);
      expect(rows.cell[r]).toBe(crash.cell[i]);
      for (let m = 1; m < METHODS.length; m++) expect(rows.price[m]![r]).toEqual(crash.price[m]![i]);
    });
    expect(crashOnly.scores.jumps).toEqual(first.scores.jumps.filter((e) => e.scenario === 'crash'));
  });

  it('scores every method on the same instants and cells, against positive truths', () => {
    const { rows, instants } = first.scores;
    const sealed = first.market.products.filter((p) => p.plan.productType === 'booster_box').length;
    const cards = first.market.products.length - sealed;
    expect(sealed).toBeGreaterThan(0);
    expect(rows.length).toBe(instants.length * (cards * CELLS.length + sealed));
    for (let r = 0; r < rows.length; r++) {
      if (!(rows.truth[r]! > 0) || !Number.isFinite(rows.truth[r]!))
        throw new Error(`row ${r}: truth ${rows.truth[r]}`);
    }
    // Each (product, instant) is scored once per cell for every method, and instants are 6 h apart.
    const pairs = new Set<string>();
    for (let r = 0; r < rows.length; r++) pairs.add(`${rows.product[r]}/${rows.instant[r]}/${rows.cell[r]}`);
    expect(pairs.size).toBe(rows.length);
    expect(instants.every((t, i) => i === 0 || t - instants[i - 1]! === 6 * HOUR)).toBe(true);
    expect(first.scores.rows.price).toHaveLength(METHODS.length);
    const all = first.summary.results.segments[0]!;
    expect(new Set(all.views.common.map((r) => r.errors.n)).size).toBe(1);
    expect(all.views.all[0]!.errors.n).toBeGreaterThan(all.views.common[0]!.errors.n);
    expect(first.scores.jumps.length).toBeGreaterThan(0);
  });

  it('the market holds every contamination its scenarios promise', () => {
    const product = (scenario: string) => first.market.products.find((p) => p.plan.scenario === scenario)!;
    /** Per scored instant: how many observations the 24 h window of a cell holds, and how many are above 5x the truth. */
    const windows = (p: ProductMarket, cell: number) =>
      first.scores.instants.map((t) => {
        const prices = Array.from(windowPrices(p.cells[cell]!, t - 24 * HOUR, t));
        return `${prices.length}:${prices.filter((x) => x > 5 * truthAt(p, cell, t)).length}`;
      });
    // A x10 among only three observations in a window; two x10 among five.
    expect(windows(product('typo_x10_of_3'), 0)).toContain('3:1');
    expect(windows(product('typo_2x10_of_5'), 0)).toContain('5:2');
    // One CGC 10 sale at 10x in a thin grader cell.
    const thinGrader = product('thin_grader_typo');
    const cgc10 = CELLS.find((c) => c.key === 'cgc10')!.index;
    expect(windows(thinGrader, cgc10)).toContain('1:1');
    // Shill bursts: some hour holds more sales at about 2x (1.8x or more) than below it.
    const shill = product('shill');
    const hourly = new Map<number, [number, number]>();
    shill.cells[0]!.t.forEach((t, i) => {
      const h = Math.floor((t - START) / HOUR);
      const counts = hourly.get(h) ?? [0, 0];
      counts[shill.cells[0]!.price[i]! >= 1.8 * truthAt(shill, 0, START + (h + 1) * HOUR) ? 1 : 0]++;
      hourly.set(h, counts);
    });
    expect([...hourly.values()].some(([real, high]) => high > real + 1)).toBe(true);
    // A -43 % crash with sales on both sides of it.
    const crash = product('crash');
    const at = crash.plan.jumps[0]!.hour;
    expect(crash.plan.jumps.map((j) => j.factor)).toEqual([0.57]);
    const sold = (from: number, to: number) =>
      crash.cells[0]!.t.filter((t) => t >= START + from * HOUR && t < START + to * HOUR).length;
    expect(sold(at - 24, at)).toBeGreaterThan(0);
    expect(sold(at, at + 24)).toBeGreaterThan(sold(at - 24, at) / 2);
    // Hundreds of sales a day on a hot card; a sale every few days on a thin one.
    const salesPerDay = (p: ProductMarket) => p.cells[0]!.source.filter((s) => s === SOURCE.sale).length / 60;
    expect(salesPerDay(product('hot'))).toBeGreaterThan(100);
    expect(salesPerDay(product('thin'))).toBeLessThan(1);
    // Graded-only products have no ungraded observation; dead ones none after their death;
    // booster boxes no graded one.
    expect(product('graded_only').cells[0]!.t.length).toBe(0);
    const dead = product('dead');
    const deadAt = START + dead.plan.deadFrom! * HOUR;
    expect([...dead.cells, ...dead.pooled].every((s) => s.t.every((t) => t < deadAt))).toBe(true);
    const sealed = product('sealed');
    expect([...sealed.cells.slice(1), ...sealed.pooled].every((s) => s.t.length === 0)).toBe(true);
    // Price guides quote the pooled ANY grades.
    expect(first.market.products.some((p) => p.pooled[2]!.t.length > 0)).toBe(true);
  });

  it('booster boxes get no graded price from the engine', () => {
    expect(first.scores.sealedGraded.slots).toBeGreaterThan(0);
    expect(first.scores.sealedGraded.priced).toBe(0);
  });

  it('scores the quote scenarios a second time on their sales alone', () => {
    const { quotes } = first.summary;
    expect(quotes.map((g) => `${g.scenario} ${g.cells}`)).toEqual([
      'guides all cells',
      'guides ungraded',
      'quotes_lowball all cells',
      'quotes_lowball ungraded',
    ]);
    for (const g of quotes) {
      const [withQuotes, alone, median, medianAlone] = g.methods;
      // The same pairs scored both times; without the quotes the plain median has fewer points to price from.
      expect(withQuotes!.errors.n).toBeGreaterThan(0);
      expect(alone!.errors.n).toBeGreaterThan(0);
      expect(medianAlone!.coverage!).toBeLessThanOrEqual(median!.coverage!);
    }
    // Thin sales (guides): daily quotes give the plain median a point where sales alone do not.
    const guides = quotes[0]!.methods;
    expect(guides[3]!.coverage!).toBeLessThan(guides[2]!.coverage!);
    // The quotes reach our prices: with and without them, they differ.
    expect(guides[0]!.errors).not.toEqual(guides[1]!.errors);
    expect(first.markdown).toContain('### Quotes as evidence');
    expect(first.markdown).toContain('### By basis (ours), all instants');
  });

  it('the engine beats the plain 24 h median where every method prices (MdAPE)', () => {
    const common = first.summary.results.segments[0]!.views.common;
    const ours = common[0]!.errors.mdape!;
    const median = common.find((r) => r.id === 'median24')!.errors.mdape!;
    expect(ours).toBeLessThan(median);
  });
});

describe('npm run backtest', () => {
  it('runs one scenario and writes results.json', async () => {
    const out = tempDir('oracle-backtest-out-');
    const { stdout } = await run(process.execPath, [
      join(ROOT, 'backtest', 'run.js'),
      '--scale',
      'small',
      '--scenario',
      'sealed',
      '--out',
      out,
    ]);
    expect(stdout).toContain('### Targets (issue 9)');
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results).toMatchObject({ seed: '1', scale: 'small', scenario: 'sealed', counts: { products: 2 } });
    expect(results.results.scenarios.map((s: { id: string }) => s.id)).toEqual(['sealed']);
    const worst = readFileSync(join(out, 'worst.csv'), 'utf8').split('\n');
    expect(worst[0]).toBe(
      'product,scenario,cell,at,own_in_window,truth_minor,error_pct,engine_minor,mean24_minor,median24_minor,coda_minor,median7d_minor',
    );
    expect(worst[1]).toMatch(/^bt-sealed-00[12],sealed,ungraded,2026-/);
    // stdout is the same Markdown, printed with a closing newline.
    expect(`${readFileSync(join(out, 'results.md'), 'utf8')}\n`).toBe(stdout);
  }, 60_000);

  it('rejects an unknown scale, scenario or flag with exit 2', async () => {
    const bad = run(process.execPath, [join(ROOT, 'backtest', 'run.js'), '--scale', 'huge']);
    await expect(bad).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown scale "huge"'),
    });
    const none = run(process.execPath, [join(ROOT, 'backtest', 'run.js'), '--scenario', 'crash,nope']);
    await expect(none).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown scenario "nope"'),
    });
    const flag = run(process.execPath, [join(ROOT, 'backtest', 'run.js'), '--scal', 'small']);
    await expect(flag).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^backtest: Unknown option '--scal'/),
    });
  });
});
