/** The history route and `at` on the pricing and refsource routes, against a real server on port 0. */
import { describe, expect, it } from 'vitest';
import { historyResponse } from '../../src/http/schemas.js';
import { OUTLIER_STDDEVS, WINDOW_HOURS } from '../../src/domain/bundle.js';
import { parseHistoryRequest } from '../../src/domain/history.js';
import { toIsoUtc } from '../../src/domain/time.js';
import { BUNDLE_CACHE_DEFAULTS } from '../../src/http/bundle-cache.js';
import { DAY, getJson, HOUR, pricingPath, PRODUCTS, STORED_KEY, useSeededServer } from './_helpers.js';

// A whole hour, so instants print without milliseconds.
const NOW = Math.floor(Date.now() / HOUR) * HOUR;
const KEY = { 'x-api-key': STORED_KEY };
const seeded = useSeededServer(NOW);
const key = PRODUCTS.plain.productKey;
const get = (path: string) => fetch(seeded.server.url + path, { headers: KEY });

describe('GET /api/v1/developer/pricing/{product_key}/history', () => {
  it('gives each step the prices the pricing route gives with at= that instant', async () => {
    const to = toIsoUtc(NOW - HOUR);
    const from = toIsoUtc(NOW - 13 * HOUR);
    const res = await get(
      pricingPath(key, `/history?from=${from}&to=${to}&every=3h&slots=ungraded,psa10,bgs9`),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).not.toBeNull();
    const text = await res.text();
    const body = JSON.parse(text);
    expect(historyResponse.safeParse(body).success).toBe(true);
    // Written a point at a time, the body is the text of `oracle history --json`'s object, byte for byte.
    const request = parseHistoryRequest({ from, to, every: '3h', slots: 'ungraded,psa10,bgs9' }, NOW);
    const history = await seeded.server.oracle.history({
      ref: { productKey: key },
      params: { windowHours: WINDOW_HOURS.default, outlierStddevs: OUTLIER_STDDEVS.default },
      request,
    });
    expect(text).toBe(JSON.stringify(history.body));
    expect(body.product_key).toBe(key);
    expect(body.slots).toEqual(['ungraded', 'psa10', 'bgs9']);
    expect(body.every).toBe('3h');
    expect(body.points.map((p: { at: string }) => p.at)).toEqual(
      [13, 10, 7, 4, 1].map((h) => toIsoUtc(NOW - h * HOUR)),
    );
    for (const point of body.points) {
      const bundle = await getJson(seeded.server.url + pricingPath(key, `?at=${point.at}`), KEY);
      expect(bundle.ungraded.window_end).toBe(point.at);
      expect(point.ungraded).toEqual({
        price_minor: bundle.ungraded.price_minor,
        confidence: bundle.ungraded.meta.confidence ?? null,
      });
      expect(point.psa10.price_minor).toBe(bundle.graded.PSA['10'].price_minor);
      expect(point.bgs9.price_minor).toBe(bundle.graded.BGS['9'].price_minor);
    }
    // The seeded sales make the latest points priced.
    expect(body.points.at(-1).ungraded.price_minor).toEqual(expect.any(Number));
  });

  it('defaults to the ungraded and PSA 10 slots, daily over the last 90 days', async () => {
    const body = (await getJson(seeded.server.url + pricingPath(key, '/history'), KEY)) as any;
    expect(body.slots).toEqual(['ungraded', 'psa10']);
    expect(body.every).toBe('1d');
    expect(body.points).toHaveLength(91);
    const first = Date.parse(body.points[0].at);
    const last = Date.parse(body.points.at(-1).at);
    expect(last - first).toBe(90 * DAY);
  });

  it('answers 400 naming the limit beyond 1,000 points', async () => {
    const res = await get(
      pricingPath(key, `/history?from=${toIsoUtc(NOW - 1001 * HOUR)}&to=${toIsoUtc(NOW - HOUR)}&every=1h`),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/at most 1,000 points/);
    const exactly = await get(
      pricingPath(
        key,
        `/history?from=${toIsoUtc(NOW - 1000 * HOUR)}&to=${toIsoUtc(NOW - HOUR)}&every=1h&slots=ungraded`,
      ),
    );
    expect(exactly.status).toBe(200);
    expect(((await exactly.json()) as { points: unknown[] }).points).toHaveLength(1000);
  });

  it('answers 400 with a specific detail for each bad parameter', async () => {
    const cases: [string, RegExp][] = [
      ['every=1x', /^every must be a step like 1h, 1d or 1w/],
      ['every=0d', /^every must be a step/],
      ['slots=psa11', /^slots must be .*unknown: "psa11"/],
      ['slots=', /^slots must be/],
      ['from=yesterday', /^from /],
      ['to=2026-13-01T00:00:00Z', /^to /],
      ['from=2026-02-29T00:00:00Z', /^from .*February 2026 has 28 days/],
      [`to=${toIsoUtc(Date.now() + DAY)}`, /^to .*is in the future/],
      [`from=${toIsoUtc(NOW - HOUR)}&to=${toIsoUtc(NOW - 2 * HOUR)}`, /^from must not be later than to/],
      ['window_hours=0', /^window_hours must be an integer from 1 to 72/],
    ];
    for (const [query, detail] of cases) {
      const res = await get(pricingPath(key, `/history?${query}`));
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { detail: string }).detail, query).toMatch(detail);
    }
  });

  it('names close keys for an unknown product', async () => {
    const res = await get(pricingPath('base-set-charzard', '/history'));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/did you mean "base-set-charizard"/);
  });

  it('works for keys with a slash, spaces and non-ASCII characters', async () => {
    for (const p of [PRODUCTS.slashed, PRODUCTS.spaced, PRODUCTS.unicode]) {
      const res = await get(pricingPath(p.productKey, '/history?every=1w'));
      expect(res.status, p.productKey).toBe(200);
      expect(((await res.json()) as { product_key: string }).product_key).toBe(p.productKey);
    }
  });
});

describe('at= on the pricing and refsource routes', () => {
  it('prices as of the instant given', async () => {
    const at = toIsoUtc(NOW - 6 * HOUR);
    const byKey = await getJson(seeded.server.url + pricingPath(key, `?at=${at}`), KEY);
    expect(byKey.ungraded.window_end).toBe(at);
    expect(byKey.ungraded.window_start).toBe(toIsoUtc(NOW - 30 * HOUR));
    // Only the seeded sales before `at` count: 6 of the 12 are later.
    const now = await getJson(seeded.server.url + pricingPath(key), KEY);
    expect(byKey.ungraded.included_points + byKey.ungraded.excluded_points).toBeLessThan(
      now.ungraded.included_points + now.ungraded.excluded_points,
    );
    const byRefsource = await getJson(
      `${seeded.server.url}/api/v1/developer/refsource/${PRODUCTS.plain.refsourceId}?at=${at}`,
      KEY,
    );
    expect({ ...byRefsource, id: null }).toEqual(byKey);
  });

  it('answers as before without at: the window ends at the request time', async () => {
    const before = Date.now();
    const bundle = await getJson(seeded.server.url + pricingPath(key), KEY);
    const end = Date.parse(bundle.ungraded.window_end);
    // The server may answer from its bundle cache, computed up to one TTL before this request.
    expect(end).toBeGreaterThanOrEqual(Math.floor((before - BUNDLE_CACHE_DEFAULTS.ttlMs) / 1000) * 1000);
    expect(end).toBeLessThanOrEqual(Date.now());
  });

  it('takes at as people write it: a date alone is its close, a span is before now', async () => {
    const day = toIsoUtc(NOW - 2 * DAY).slice(0, 10);
    const byDate = await getJson(seeded.server.url + pricingPath(key, `?at=${day}`), KEY);
    expect(byDate.ungraded.window_end).toBe(`${day}T23:59:59Z`);
    const before = Date.now();
    const bySpan = await getJson(seeded.server.url + pricingPath(key, '?at=6h'), KEY);
    const end = Date.parse(bySpan.ungraded.window_end);
    expect(end).toBeGreaterThanOrEqual(Math.floor((before - 6 * HOUR) / 1000) * 1000);
    expect(end).toBeLessThanOrEqual(Date.now() - 6 * HOUR);
  });

  it('answers 400 naming at for a malformed instant', async () => {
    for (const bad of [
      'yesterday',
      '2026-02-30',
      '0999-11-01',
      '2026-11-01T00:00',
      '2026-02-30T00:00:00Z',
      toIsoUtc(Date.now() + DAY),
    ]) {
      const res = await get(pricingPath(key, `?at=${encodeURIComponent(bad)}`));
      expect(res.status, bad).toBe(400);
      expect(((await res.json()) as { detail: string }).detail, bad).toMatch(/^at /);
    }
  });
});
