/** `?extra_grades=true` on the pricing routes (CONTRACT.md additions 6) against a real server on port 0, checked against the OpenAPI document. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { storedProduct, writeObservations } from '../_store.js';
import { API_PREFIX } from '../../src/http/route.js';
import {
  HOUR,
  jsonSchemaValidator,
  pricingPath,
  PRODUCTS,
  seededTestDatabase,
  startServer,
  STORED_KEY,
  type TestServer,
} from './_helpers.js';

const NOW = Math.floor(Date.now() / HOUR) * HOUR;
const KEY = { 'x-api-key': STORED_KEY };
const key = PRODUCTS.plain.productKey;
let server: TestServer;

beforeAll(async () => {
  const dbPath = await seededTestDatabase(NOW);
  const store = await openStore(dbPath);
  try {
    const { id } = (await storedProduct(store, key))!;
    await writeObservations(
      store,
      [1, 3, 5, 7].map((h, i) => ({
        productId: id,
        productKey: key,
        source: 'ebay',
        observedAt: NOW - h * HOUR,
        priceMinor: 50_000 + i * 100,
        grader: 'BGS',
        grade: 9.5,
        externalId: `bgs-${h}`,
      })),
    );
  } finally {
    await store.close();
  }
  server = await startServer({ dbPath });
});
afterAll(async () => server?.close());

const get = async (path: string) => {
  const res = await fetch(server.url + path, { headers: KEY });
  return { status: res.status, body: (await res.json()) as any };
};

describe('extra_grades on the pricing route', () => {
  it('adds extra_grades only when asked, valid against the OpenAPI document, the rest unchanged', async () => {
    const at = new Date(NOW).toISOString().replace('.000', '');
    const plain = await get(pricingPath(key, `?at=${at}`));
    const extra = await get(pricingPath(key, `?extra_grades=true&at=${at}`));
    expect(extra.status).toBe(200);
    expect(plain.body.extra_grades).toBeUndefined();
    const { extra_grades, ...rest } = extra.body;
    expect(rest).toEqual(plain.body);
    expect(extra_grades.BGS['9.5']).toMatchObject({
      company: 'BGS',
      grade: 9.5,
      condition_key: 'bgs9.5',
      included_points: 4,
      error: null,
    });
    expect(extra_grades.BGS['9.5'].price_minor).toBeGreaterThanOrEqual(50_000);
    expect(extra_grades.BGS['9.5'].price_minor).toBeLessThanOrEqual(50_300);
    const doc = (await get(`${API_PREFIX}/openapi.json`)).body;
    const ajv = jsonSchemaValidator();
    ajv.addSchema({ $id: 'https://oracle.test/doc', components: doc.components });
    const validate = ajv.compile({
      $ref: 'https://oracle.test/doc#/components/schemas/OracleCardPricingResponse',
    });
    expect(validate(extra.body), ajv.errorsText(validate.errors)).toBe(true);
    const param = doc.paths['/api/v1/developer/pricing/{product_key}'].get.parameters.find(
      (p: { name: string }) => p.name === 'extra_grades',
    );
    expect(param).toMatchObject({ in: 'query', required: false });
  });

  it('explains an extra grade on the evidence route; refuses a bad flag with 400', async () => {
    const e = await get(pricingPath(key, '/evidence?slot=BGS%209.5'));
    expect(e.status).toBe(200);
    expect(e.body.slot).toBe('bgs9.5');
    expect(e.body.price_minor).toBe(
      (await get(pricingPath(key, '?extra_grades=true'))).body.extra_grades.BGS['9.5'].price_minor,
    );
    const bad = await get(pricingPath(key, '?extra_grades=yes'));
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/^extra_grades must be true or false/);
  });
});
