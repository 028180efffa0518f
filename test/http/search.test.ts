/** GET /api/v1/developer/catalog/search and "did you mean" keys, against a real server on port 0. */
import { describe, expect, it } from 'vitest';
import { searchResponse } from '../../src/http/schemas.js';
import { getJson, pricingPath, PRODUCTS, STORED_KEY, useSeededServer } from './_helpers.js';

const NOW = Date.now();
const KEY = { 'x-api-key': STORED_KEY };
const seeded = useSeededServer(NOW);
const search = (query: string) =>
  fetch(`${seeded.server.url}/api/v1/developer/catalog/search?${query}`, { headers: KEY });

describe('GET /api/v1/developer/catalog/search', () => {
  it('finds products by words in any order and by prefixes, with set and subtitle', async () => {
    const res = await search(`q=${encodeURIComponent('4/102 base charizard')}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(searchResponse.safeParse(body).success).toBe(true);
    expect(body.q).toBe('4/102 base charizard');
    expect(body.limit).toBe(20);
    expect(body.products.map((p: { product_key: string }) => p.product_key).sort()).toEqual(
      [PRODUCTS.plain.productKey, PRODUCTS.spaced.productKey].sort(),
    );
    expect(body.products[0]).toMatchObject({
      set_name: 'Base Set',
      subtitle: '4/102 Holo',
      product_type: 'single_card',
    });
    const prefixed = await getJson(
      `${seeded.server.url}/api/v1/developer/catalog/search?q=char+4%2F102&limit=1`,
      KEY,
    );
    expect(prefixed.products).toHaveLength(1);
    expect(prefixed.limit).toBe(1);
  });

  it('answers a misspelled q with the matches of its correction and the corrected text as did_you_mean', async () => {
    const exact = await getJson(`${seeded.server.url}/api/v1/developer/catalog/search?q=base+charizard`, KEY);
    expect(exact).not.toHaveProperty('did_you_mean');
    const typo = await getJson(`${seeded.server.url}/api/v1/developer/catalog/search?q=charzard+base`, KEY);
    expect(searchResponse.safeParse(typo).success).toBe(true);
    expect(typo).toMatchObject({ q: 'charzard base', did_you_mean: 'charizard base' });
    expect(typo.products.map((p: { product_key: string }) => p.product_key).sort()).toEqual(
      exact.products.map((p: { product_key: string }) => p.product_key).sort(),
    );
  });

  it('matches a word longer than 8 characters as its first 8, with no correction', async () => {
    const exact = await getJson(`${seeded.server.url}/api/v1/developer/catalog/search?q=base+charizard`, KEY);
    const long = await getJson(`${seeded.server.url}/api/v1/developer/catalog/search?q=base+charizards`, KEY);
    expect(long).not.toHaveProperty('did_you_mean');
    expect(long.products).toEqual(exact.products);
    expect(long.products.length).toBeGreaterThan(0);
  });

  it('answers 200 with no hits, never 500, for FTS5 syntax in q', async () => {
    for (const q of ['"', '*', 'AND', '-', '4/102', 'NEAR(', 'a OR', '"x"*', '(', '^']) {
      const res = await search(`q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      expect(Array.isArray(((await res.json()) as { products: unknown }).products), q).toBe(true);
    }
  });

  it('answers 400 naming the parameter for a missing q or a bad limit', async () => {
    for (const [query, pattern] of [
      ['', /q is required/],
      ['q=', /q is required/],
      ['q=%20%20', /q is required/],
      [`q=${'x'.repeat(201)}`, /q must be at most 200 characters/],
      ['q=a&limit=0', /limit must be an integer from 1 to 100/],
      ['q=a&limit=101', /limit must be an integer from 1 to 100/],
      ['q=a&limit=x', /limit must be an integer from 1 to 100/],
    ] as const) {
      const res = await search(query);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { detail: string }).detail, query).toMatch(pattern);
    }
  });

  it('is rate limited in the shared bucket', async () => {
    const res = await search('q=charizard');
    expect(res.headers.get('ratelimit-limit')).not.toBeNull();
  });
});

describe('an unknown product key', () => {
  it('gets up to 3 "did you mean" keys in the 400 detail', async () => {
    const res = await fetch(seeded.server.url + pricingPath('base-set-charzard'), { headers: KEY });
    expect(res.status).toBe(400);
    const { detail } = (await res.json()) as { detail: string };
    expect(detail).toMatch(/^unknown product_key "base-set-charzard" \(did you mean "base-set-charizard"/);
    expect(detail.match(/"[^"]+"/g)!.length - 1).toBeLessThanOrEqual(3);
  });
});
