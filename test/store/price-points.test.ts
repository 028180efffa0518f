/**
 * The price point readers' contract, on every store (the vitest projects `sqlite` and
 * `postgres`, as contract.test.ts): what a bundle's read and a history's series read give the
 * engine. The SQLite statements' query plans are sqlite-store.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conditionKey } from '../../src/domain/conditions.js';
import type { PricePoint } from '../../src/domain/observation.js';
import type { Product } from '../../src/domain/product.js';
import { DAY_MS, HOUR_MS } from '../../src/domain/time.js';
import { computeBundle, pointsRequest, timelineOfColumns } from '../../src/engine/index.js';
import { openStore } from '../../src/store/open-store.js';
import type { ResolvedObservation, Store } from '../../src/store/store.js';
import { newTestDatabase, nextOrWithinASecond } from '../_pg.js';
import { tempDir } from '../_setup.js';
import { writeObservations, writeProducts } from '../_store.js';

const product = (key: string): Product => ({
  productKey: key,
  refsourceId: null,
  productName: `Name of ${key}`,
  subtitle: '',
  setName: 'Base Set',
  imageUrl: '',
  productType: 'single_card',
  era: 'modern',
  releaseDate: '1999-01-09',
  tcgplayerId: null,
});

const AS_OF = 40 * DAY_MS;
/** A 24 h window, 30 days of lookback, at most 2 points of the lookback and 1 older per condition. */
const SMALL_RANGE = {
  windowStart: AS_OF - DAY_MS,
  asOf: AS_OF,
  lookbackStart: AS_OF - 30 * DAY_MS,
  depthPerCondition: 2,
  priorPerCondition: 1,
};

describe('price point reader', () => {
  let store: Store;
  let location: string;
  let ids: { p: number; q: number };

  beforeEach(async () => {
    location = await newTestDatabase(tempDir('oracle-price-points-'));
    store = await openStore(location, { create: true });
    await writeProducts(store, [product('p'), product('q')]);
    ids = { p: (await store.products.findByKey('p'))!.id, q: (await store.products.findByKey('q'))!.id };
  });
  afterEach(async () => {
    await store.close();
  });

  let external = 0;
  function obs(
    key: 'p' | 'q',
    day: number,
    price: number,
    grader = 'ungraded',
    grade: number | null = null,
    source = 'ebay',
  ): ResolvedObservation {
    return {
      productId: ids[key],
      productKey: key,
      source,
      observedAt: day * DAY_MS,
      priceMinor: price,
      grader,
      grade,
      externalId: `x${external++}`,
    };
  }

  /** Days of each condition's points, in the order the reader returned them. */
  function daysByCondition(points: PricePoint[]): Record<string, number[]> {
    const out: Record<string, number[]> = {};
    for (const pt of points) (out[pt.condition] ??= []).push(pt.observedAt / DAY_MS);
    return out;
  }

  it('reads the window, the latest points of the lookback before it and the latest older ones, per priced condition, in time order', async () => {
    await writeObservations(store, [
      // ungraded: old 1-3, lookback 11-14, window 39.5 and 39.75, one at as_of (not read).
      ...[1, 2, 3, 11, 12, 13, 14, 39.75, 39.5, 40].map((day) => obs('p', day, 100 * day)),
      obs('p', 5, 5000, 'PSA', 10),
      obs('p', 20, 4000, 'PSA', 9),
      obs('p', 39.25, 4100, 'PSA', 9),
      // Not priced: TAG and half grades; another product.
      obs('p', 39.5, 9000, 'TAG', 10),
      obs('p', 39.5, 7000, 'PSA', 9.5),
      obs('q', 39.5, 1),
    ]);
    const points = await store.pricePoints.read(ids.p, SMALL_RANGE);
    expect(daysByCondition(points)).toEqual({
      ungraded: [3, 13, 14, 39.5, 39.75],
      psa10: [5],
      psa9: [20, 39.25],
    });
    expect(points.find((x) => x.observedAt === 39.5 * DAY_MS && x.condition === 'ungraded')).toEqual({
      condition: 'ungraded',
      source: 'ebay',
      observedAt: 39.5 * DAY_MS,
      priceMinor: 3950,
      salesVolume: null,
    });
  });

  it('reads the extra grades apart: every other graded condition of the 30 days, no played raw card, no priced condition', async () => {
    await writeObservations(store, [
      obs('p', 39.5, 100),
      obs('p', 39.5, 5000, 'PSA', 10),
      obs('p', 39.5, 9000, 'TAG', 10),
      obs('p', 20, 7000, 'PSA', 9.5),
      obs('p', 5, 7100, 'PSA', 9.5), // older than the 30 days
      obs('p', 39.5, 7200, 'BGS', 9.5),
      obs('p', 39, 30000, 'CGC-PRISTINE', 10),
      obs('p', 38, 8000, 'ANY', 9.5),
      obs('p', 39.5, 50, 'RAW-LP', null),
      obs('p', 40, 9100, 'TAG', 10), // at as_of: not read
      obs('q', 39.5, 9000, 'TAG', 10),
    ]);
    const points = await store.pricePoints.readExtra(ids.p, SMALL_RANGE);
    expect(daysByCondition(points)).toEqual({
      'any9.5': [38],
      'bgs9.5': [39.5],
      'cgc-pristine10': [39],
      'psa9.5': [20],
      tag10: [39.5],
    });
    expect(points.find((x) => x.condition === 'tag10')).toEqual({
      condition: 'tag10',
      source: 'ebay',
      observedAt: 39.5 * DAY_MS,
      priceMinor: 9000,
      salesVolume: null,
    });
  });

  it("reads a title match's matched_by with its own point only when asked (explain), not by its condition, source, time and price", async () => {
    const HOW = 'title: number 4/102 + name charizard + set base';
    // A keyed sale and a title-matched sale alike in condition, source, time and price; and a title-matched extra grade.
    const keyed = obs('p', 39.5, 5000, 'PSA', 10);
    const matched = { ...obs('p', 39.5, 5000, 'PSA', 10), matchedBy: HOW };
    const extra = { ...obs('p', 39.5, 9000, 'TAG', 10), matchedBy: HOW };
    await writeObservations(store, [keyed, matched, obs('p', 39.5, 9000, 'TAG', 10), extra]);
    /** How each point of a condition came, sorted: `keyed` for a record that named its product (matchedBy null). */
    const hows = (points: PricePoint[], condition: string) =>
      points
        .filter((x) => x.condition === condition)
        .map((x) => x.matchedBy ?? 'keyed')
        .sort();
    // Pricing's reads carry no matched_by.
    for (const x of [
      ...(await store.pricePoints.read(ids.p, SMALL_RANGE)),
      ...(await store.pricePoints.readExtra(ids.p, SMALL_RANGE)),
    ]) {
      expect(x).not.toHaveProperty('matchedBy');
    }
    expect(hows(await store.pricePoints.read(ids.p, SMALL_RANGE, { matchedBy: true }), 'psa10')).toEqual([
      'keyed',
      HOW,
    ]);
    expect(hows(await store.pricePoints.readExtra(ids.p, SMALL_RANGE, { matchedBy: true }), 'tag10')).toEqual(
      ['keyed', HOW],
    );
  });

  it('gives the engine what it needs: the bundle equals the one priced from the whole history', async () => {
    // 180 points per condition, three at one instant each day over 60 days: more than the cap
    // in the 30 days before every window, some older, and the cap boundary splits an instant.
    const conditions: Array<[string, number | null]> = [
      ['ungraded', null],
      ['PSA', 9],
      ['BGS', 9],
      ['ANY', 9],
      ['PSA', 10],
    ];
    const rows = conditions.flatMap(([grader, grade], c) =>
      Array.from({ length: 180 }, (_, i) =>
        obs(
          'p',
          40 - Math.floor(i / 3) - c / 8,
          1000 + ((i * 37 + c * 11) % 200),
          grader,
          grade,
          i % 3 ? 'ebay' : 'tcgplayer',
        ),
      ),
    );
    await writeObservations(store, rows);
    const all: PricePoint[] = await store.pricePoints.read(ids.p, {
      ...SMALL_RANGE,
      depthPerCondition: 1_000,
      priorPerCondition: 1_000,
    });
    expect(all).toHaveLength(rows.filter((r) => r.observedAt < AS_OF).length);
    for (const windowHours of [1, 24, 72]) {
      const params = { windowHours, outlierStddevs: 2, asOf: AS_OF - 5 * HOUR_MS };
      const read = await store.pricePoints.read(ids.p, pointsRequest(params));
      expect(read.length).toBeLessThan(all.length);
      // Each condition already in the engine's order (time, price, source), so it skips sorting.
      for (const [grader, grade] of conditions) {
        const mine = read.filter((x) => x.condition === conditionKey(grader, grade));
        const sorted = [...mine].sort(
          (a, b) =>
            a.observedAt - b.observedAt || a.priceMinor - b.priceMinor || a.source.localeCompare(b.source),
        );
        expect(mine).toEqual(sorted);
      }
      const bundle = (points: PricePoint[]) =>
        JSON.stringify(computeBundle({ product: product('p'), points, params, id: null }));
      expect(bundle(read)).toBe(bundle(all));
    }
  });

  it("reads the same points through the server's store (PostgreSQL: from memory), and another writer's commit on the next read", async () => {
    // Ties at every cap boundary (three points an instant), points before, in and after each range.
    const rows = [
      ['ungraded', null],
      ['PSA', 10],
      ['ANY', 9],
    ].flatMap(([grader, grade], c) =>
      Array.from({ length: 90 }, (_, i) =>
        obs(
          'p',
          40 - Math.floor(i / 3) / 2 - c / 8,
          1000 + ((i * 37) % 50),
          grader as string,
          grade as number | null,
          i % 2 ? 'ebay' : 'tcgplayer',
        ),
      ),
    );
    // Older ungraded points: before the server's tail (which starts a week before the first read's lookback) and in it.
    const older = [1, 2, 3, 4, 5].map((day) => obs('p', day, 500 + day));
    await writeObservations(store, [...rows, ...older, obs('p', 39.5, 9000, 'TAG', 10), obs('q', 39.5, 1)]);
    const server = await openStore(location, { readonly: true });
    try {
      // The first read (pricing's own) sets the tail.
      const ranges = [
        pointsRequest({ windowHours: 24, outlierStddevs: 2, asOf: AS_OF - 5 * HOUR_MS }),
        SMALL_RANGE,
        { ...SMALL_RANGE, depthPerCondition: 0, priorPerCondition: 0 },
        {
          ...SMALL_RANGE,
          lookbackStart: AS_OF - 10 * DAY_MS,
          depthPerCondition: 1_000,
          priorPerCondition: 4,
        },
        // The latest points before the lookback, from before the tail and in it (or more than it holds).
        {
          windowStart: AS_OF - 20 * DAY_MS,
          asOf: AS_OF,
          lookbackStart: 4 * DAY_MS,
          depthPerCondition: 2,
          priorPerCondition: 2,
        },
        {
          windowStart: AS_OF - 20 * DAY_MS,
          asOf: AS_OF,
          lookbackStart: 4 * DAY_MS,
          depthPerCondition: 2,
          priorPerCondition: 3,
        },
        {
          windowStart: 20 * DAY_MS,
          asOf: 26 * DAY_MS,
          lookbackStart: 0,
          depthPerCondition: 5,
          priorPerCondition: 5,
        },
        { ...SMALL_RANGE, asOf: DAY_MS, windowStart: 0, lookbackStart: -DAY_MS },
      ];
      for (const range of ranges) {
        const expected = await store.pricePoints.read(ids.p, range);
        expect(await server.pricePoints.read(ids.p, range)).toEqual(expected);
        expect(await server.pricePoints.read(ids.p, range)).toEqual(expected);
      }
      expect(await server.pricePoints.read(ids.q, SMALL_RANGE)).toEqual(
        await store.pricePoints.read(ids.q, SMALL_RANGE),
      );
      // A commit through another connection (another process's ingest) is read once it is heard of.
      await writeObservations(store, [obs('p', 39.9, 7777)]);
      const after = await nextOrWithinASecond(
        () => server.pricePoints.read(ids.p, SMALL_RANGE),
        (points) => points.some((x) => x.priceMinor === 7777),
      );
      expect(after).toEqual(await store.pricePoints.read(ids.p, SMALL_RANGE));
      expect(after.filter((x) => x.priceMinor === 7777)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('price point series reader', () => {
  let store: Store;
  let id: number;

  beforeEach(async () => {
    store = await openStore(await newTestDatabase(tempDir('oracle-price-series-')), { create: true });
    await writeProducts(store, [product('p')]);
    id = (await store.products.findByKey('p'))!.id;
    // Irregular trading over 120 days: busy stretches, quiet weeks, ties at one instant, several conditions.
    const conditions: Array<[string, number | null]> = [
      ['ungraded', null],
      ['PSA', 10],
      ['PSA', 9],
      ['ANY', 9],
      ['BGS', 8],
    ];
    let n = 0;
    const rows: ResolvedObservation[] = [];
    for (let day = 0; day < 120; day += 1) {
      conditions.forEach(([grader, grade], c) => {
        const count = (day * 7 + c * 3) % 11 < 4 ? 0 : ((day + c) % 5) + 1;
        for (let i = 0; i < count; i++) {
          const observedAt = day * DAY_MS + ((i * 5 + c) % 24) * HOUR_MS;
          rows.push({
            productId: id,
            productKey: 'p',
            source: i % 2 ? 'ebay' : 'tcgplayer',
            observedAt,
            priceMinor: 1_000 + ((n * 37) % 300),
            grader,
            grade,
            externalId: `s${n++}`,
          });
        }
      });
    }
    await writeObservations(store, rows);
  });
  afterEach(async () => {
    await store.close();
  });

  /** Every instant of `instants` priced from the series read (as history does) and from its own single read. */
  async function expectSeriesPricesAsSingles(instants: number[], windowHours: number) {
    const ranges = instants.map((asOf) => pointsRequest({ windowHours, outlierStddevs: 2, asOf }));
    const timeline = timelineOfColumns(await store.pricePointSeries.readSeries(id, ranges));
    for (const [i, asOf] of instants.entries()) {
      const input = { product: product('p'), params: { windowHours, outlierStddevs: 2, asOf }, id: null };
      const single = JSON.stringify(
        computeBundle({ ...input, points: await store.pricePoints.read(id, ranges[i]!) }),
      );
      expect(
        JSON.stringify(computeBundle({ ...input, points: timeline })),
        `${windowHours} h at day ${asOf / DAY_MS}`,
      ).toBe(single);
    }
  }

  it('prices every instant of a series as a single read prices it', async () => {
    for (const windowHours of [1, 24, 72]) {
      // From before the first sale to after the last, through quiet weeks and busy stretches.
      await expectSeriesPricesAsSingles(
        Array.from({ length: 90 }, (_, i) => -3 * DAY_MS + i * 37 * HOUR_MS),
        windowHours,
      );
    }
  });

  it('prices a series whose lookback starts after the first sales: the latest older points count', async () => {
    // The first instant's lookback starts at day 30: points before it enter as last known
    // prices only, and the series read takes them with its second statement.
    await expectSeriesPricesAsSingles(
      Array.from({ length: 40 }, (_, i) => 60 * DAY_MS + i * 13 * HOUR_MS),
      24,
    );
    // Sales stop at day 120: months later, every condition is priced from its latest points alone.
    await expectSeriesPricesAsSingles([200 * DAY_MS, 201 * DAY_MS, 260 * DAY_MS], 24);
  });

  it('gives nothing before the first sale: every slot without observations', async () => {
    const ranges = [-20, -10, -1].map((day) =>
      pointsRequest({ windowHours: 24, outlierStddevs: 2, asOf: day * DAY_MS }),
    );
    const timeline = timelineOfColumns(await store.pricePointSeries.readSeries(id, ranges));
    for (const range of ranges) {
      const bundle = computeBundle({
        product: product('p'),
        points: timeline,
        params: { windowHours: 24, outlierStddevs: 2, asOf: range.asOf },
        id: null,
      });
      expect(bundle.ungraded).toMatchObject({ price_minor: null, error: 'no_observations' });
    }
  });

  it('reads every point any instant needs, per condition in the engine order, and nothing older than the latest few', async () => {
    const instants = [5 * DAY_MS, 33 * DAY_MS + 3 * HOUR_MS, 90 * DAY_MS, 119 * DAY_MS];
    const ranges = instants.map((asOf) => pointsRequest({ windowHours: 24, outlierStddevs: 2, asOf }));
    const read = await store.pricePointSeries.readSeries(id, ranges);
    const conditions = read.map((c) => c.condition);
    expect(new Set(conditions).size).toBe(conditions.length);
    expect([...conditions].sort()).toEqual(['any9', 'bgs8', 'psa10', 'psa9', 'ungraded']);
    const key = (condition: string, observedAt: number, priceMinor: number, source: string) =>
      `${condition}|${observedAt}|${priceMinor}|${source}`;
    const held = new Set<string>();
    for (const c of read) {
      const rows = c.observedAt.map((t, i) => ({ t, p: c.priceMinor[i]!, s: c.source[i]! }));
      for (const r of rows) held.add(key(c.condition, r.t, r.p, r.s));
      // Already in the engine's order (time, price, source), so the engine only checks it.
      const sorted = [...rows].sort((a, b) => a.t - b.t || a.p - b.p || (a.s < b.s ? -1 : a.s > b.s ? 1 : 0));
      expect(rows).toEqual(sorted);
      // Older than the earliest lookback: only the latest `priorPerCondition`.
      expect(rows.filter((r) => r.t < ranges[0]!.lookbackStart).length).toBeLessThanOrEqual(
        ranges[0]!.priorPerCondition,
      );
      expect(rows.every((r) => r.t < ranges.at(-1)!.asOf)).toBe(true);
    }
    for (const range of ranges) {
      for (const pt of await store.pricePoints.read(id, range))
        expect(held.has(key(pt.condition, pt.observedAt, pt.priceMinor, pt.source))).toBe(true);
    }
  });
});
