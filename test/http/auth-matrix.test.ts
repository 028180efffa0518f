/**
 * The table of issue 4 item 9: every route x (no key, wrong key, X-API-Key, Bearer) x method,
 * against a real server. 401 before 403 before everything else (CONTRACT.md decision 5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toUtcDate } from '../../src/domain/time.js';
import {
  ENV_KEY,
  pricingPath,
  seededTestDatabase,
  startServer,
  STORED_KEY,
  type TestServer,
} from './_helpers.js';

const NOW = Date.now();

const ROUTES = [
  { name: 'health', path: '/api/v1/health', public: true },
  { name: 'openapi', path: '/api/v1/openapi.json', public: true },
  { name: 'pricing', path: pricingPath('base-set-charizard'), public: false },
  { name: 'history', path: pricingPath('base-set-charizard', '/history?every=1w'), public: false },
  { name: 'refsource', path: '/api/v1/developer/refsource/1001', public: false },
  {
    name: 'snapshot',
    path: `/api/v1/developer/refsource/1001/snapshot?date=${toUtcDate(NOW)}`,
    public: false,
  },
  { name: 'catalog', path: '/api/v1/developer/catalog', public: false },
  { name: 'catalog search', path: '/api/v1/developer/catalog/search?q=charizard', public: false },
  { name: 'sales', path: pricingPath('base-set-charizard', '/sales'), public: false },
  { name: 'movers', path: '/api/v1/developer/movers', public: false },
  { name: 'watch rules', path: '/api/v1/developer/watches', public: false },
  { name: 'watch events', path: '/api/v1/developer/watches/events?status=pending', public: false },
  { name: 'index list', path: '/api/v1/developer/indexes', public: false },
];

const AUTH: Record<string, Record<string, string>> = {
  'no key': {},
  'wrong key': { 'x-api-key': 'ork_not-a-real-key' },
  'X-API-Key': { 'x-api-key': STORED_KEY },
  Bearer: { authorization: `Bearer ${ENV_KEY}` },
};

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

function expected(route: (typeof ROUTES)[number], auth: string, method: string): number {
  const validKey = auth === 'X-API-Key' || auth === 'Bearer';
  const read = method === 'GET' || method === 'HEAD';
  if (read) return route.public || validKey ? 200 : 401;
  return validKey ? 403 : 401;
}

const CASES = ROUTES.flatMap((route) =>
  Object.keys(AUTH).flatMap((auth) =>
    METHODS.map((method) => ({
      route: route.name,
      auth,
      method,
      status: expected(route, auth, method),
      r: route,
    })),
  ),
);

describe('route x key x method', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ dbPath: await seededTestDatabase(NOW) });
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(CASES)('$method $route with $auth answers $status', async ({ r, auth, method, status }) => {
    const res = await fetch(server.url + r.path, { method, headers: AUTH[auth] });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await res.text();
    if (method === 'HEAD') {
      expect(text).toBe('');
      expect(Number(res.headers.get('content-length'))).toBeGreaterThan(0);
      return;
    }
    const body = JSON.parse(text);
    if (status === 200) {
      expect(body).not.toHaveProperty('detail');
    } else {
      expect(body).toEqual({ detail: expect.any(String) });
    }
    if (status === 401) expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it.each(METHODS)('%s on an unknown route answers 404 with a detail, key or not', async (method) => {
    for (const headers of Object.values(AUTH)) {
      const res = await fetch(`${server.url}/api/v1/nope`, { method, headers });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      if (method !== 'HEAD')
        expect(await res.json()).toEqual({ detail: expect.stringContaining('/api/v1/nope') });
      else await res.text();
    }
  });

  it('answers HEAD with the status and headers GET gives, and no body', async () => {
    const headers = { 'x-api-key': STORED_KEY };
    const path = pricingPath('base-set-charizard');
    const get = await fetch(server.url + path, { headers });
    const body = await get.arrayBuffer();
    const head = await fetch(server.url + path, { method: 'HEAD', headers });
    expect(head.status).toBe(get.status);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(Number(head.headers.get('content-length'))).toBe(body.byteLength);
    expect(head.headers.get('ratelimit-limit')).toBe(get.headers.get('ratelimit-limit'));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });
});
