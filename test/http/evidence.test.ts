/** The evidence route against a real server on port 0: the body of `oracle explain --json`, its errors, its bucket. */
import { describe, expect, it } from 'vitest';
import { evidenceResponse } from '../../src/http/schemas.js';
import { toIsoUtc } from '../../src/domain/time.js';
import { DAY, getJson, HOUR, pricingPath, PRODUCTS, STORED_KEY, useSeededServer } from './_helpers.js';

// A whole hour, so instants print without milliseconds.
const NOW = Math.floor(Date.now() / HOUR) * HOUR;
const KEY = { 'x-api-key': STORED_KEY };
const seeded = useSeededServer(NOW);
const key = PRODUCTS.plain.productKey;
const get = (path: string, headers: Record<string, string> = KEY) =>
  fetch(seeded.server.url + path, { headers });

describe('GET /api/v1/developer/pricing/{product_key}/evidence', () => {
  it("explains the pricing route's price of a slot with the seeded points, at= and the pricing parameters", async () => {
    const at = toIsoUtc(NOW - 2 * HOUR);
    const res = await get(
      pricingPath(key, `/evidence?slot=ungraded&at=${at}&window_hours=12&outlier_stddevs=3`),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).not.toBeNull();
    const body = (await res.json()) as any;
    expect(evidenceResponse.safeParse(body).success).toBe(true);
    const bundle = await getJson(
      seeded.server.url + pricingPath(key, `?at=${at}&window_hours=12&outlier_stddevs=3`),
      KEY,
    );
    expect(body).toMatchObject({
      product_key: key,
      slot: 'ungraded',
      as_of: at,
      window_hours: 12,
      outlier_stddevs: 3,
      id: null,
    });
    expect(body.price_minor).toBe(bundle.ungraded.price_minor);
    // The seed: 12 hourly points before NOW, prices 10,000 + 10 i, every third one PSA 10. At NOW - 2 h
    // the point of NOW - 1 h lies in the future and NOW - 2 h is the window's exclusive end.
    const ungraded = body.points.filter((p: { condition: string }) => p.condition === 'ungraded');
    const expected = Array.from({ length: 12 }, (_, i) => i)
      .filter((i) => i % 3 !== 0 && NOW - (i + 1) * HOUR < NOW - 2 * HOUR)
      .map((i) => ({
        observed_at: toIsoUtc(NOW - (i + 1) * HOUR),
        source: i % 2 ? 'ebay' : 'tcgplayer',
        price_minor: 10_000 + i * 10,
      }));
    expect(
      ungraded.map(({ observed_at, source, price_minor }: any) => ({ observed_at, source, price_minor })),
    ).toEqual(expected);
    expect(ungraded.filter((p: { kept: boolean }) => p.kept)).toHaveLength(bundle.ungraded.included_points);
    expect(body.steps.at(-4)).toMatchObject({
      name: 'rounding',
      section: '12',
      value_minor: bundle.ungraded.price_minor,
    });
    for (const s of body.steps) expect(s.doc).toMatch(/^docs\/methodology\.md#/);
  });

  it('defaults to now and the pricing defaults; a graded slot names its clamp', async () => {
    const body = (await getJson(seeded.server.url + pricingPath(key, '/evidence?slot=PSA9'), KEY)) as any;
    const bundle = await getJson(seeded.server.url + pricingPath(key), KEY);
    expect(body.slot).toBe('psa9');
    expect([body.window_hours, body.outlier_stddevs]).toEqual([24, 2]);
    expect(body.price_minor).toBe(bundle.graded.PSA['9'].price_minor);
    expect(body.steps.map((s: { name: string }) => s.name)).toContain('clamp');
  });

  it('answers 400 with a specific detail for each bad parameter', async () => {
    const cases: [string, RegExp][] = [
      ['', /^slot is required/],
      ['slot=psa11', /^slot must be ungraded, or a grader and a grade 1-10 .*got "psa11"/],
      ['slot=raw-lp', /^slot must be/],
      ['slot=ungraded&at=yesterday', /^at /],
      ['slot=ungraded&at=2026-02-29T00:00:00Z', /^at .*February 2026 has 28 days/],
      [`slot=ungraded&at=${toIsoUtc(Date.now() + DAY)}`, /^at .*is in the future/],
      ['slot=ungraded&window_hours=73', /^window_hours must be an integer from 1 to 72/],
      ['slot=ungraded&outlier_stddevs=0', /^outlier_stddevs must be an integer from 1 to 10/],
    ];
    for (const [query, detail] of cases) {
      const res = await get(pricingPath(key, `/evidence?${query}`));
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { detail: string }).detail, query).toMatch(detail);
    }
  });

  it('names close keys for an unknown product, and needs a key', async () => {
    const res = await get(pricingPath('base-set-charzard', '/evidence?slot=ungraded'));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/did you mean "base-set-charizard"/);
    expect((await get(pricingPath(key, '/evidence?slot=ungraded'), {})).status).toBe(401);
  });

  it('explains an unpriced product: no price, no points', async () => {
    const body = (await getJson(
      seeded.server.url + pricingPath(PRODUCTS.unpriced.productKey, '/evidence?slot=bgs10'),
      KEY,
    )) as any;
    expect(body).toMatchObject({ price_minor: null, points: [], methodology: 'robust_recency_24h_v2' });
    expect(body.steps[0].text).toMatch(/no observation before as_of/);
  });
});
