/**
 * `serve --cors`: what a browser needs to call the API from a dashboard's origin, and
 * nothing when CORS is off. Real servers; the preflight is sent as a browser sends it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  pricingPath,
  PRODUCTS,
  seededTestDatabase,
  startServer,
  STORED_KEY,
  type TestServer,
} from './_helpers.js';

const NOW = Date.now();
const DASHBOARD = 'https://dash.example.com';
let dbPath: string;
const PRICING = pricingPath(PRODUCTS.plain.productKey);

function preflight(server: TestServer, path: string, origin: string, method = 'GET') {
  return fetch(server.url + path, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'x-api-key',
    },
  });
}

let on: TestServer;
let anyOrigin: TestServer;
let off: TestServer;
beforeAll(async () => {
  dbPath = await seededTestDatabase(NOW);
  on = await startServer({ dbPath, serverOptions: { corsOrigins: [DASHBOARD, 'http://localhost:3000'] } });
  anyOrigin = await startServer({ dbPath, serverOptions: { corsOrigins: ['*'] } });
  off = await startServer({ dbPath });
});
afterAll(async () => {
  await Promise.all([on.close(), anyOrigin.close(), off.close()]);
});

describe('with --cors <origin>', () => {
  it('answers a preflight 204 allowing GET and HEAD with the key headers, without asking for a key', async () => {
    const res = await preflight(on, PRICING, DASHBOARD);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(DASHBOARD);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    expect(res.headers.get('access-control-allow-headers')).toBe('X-API-Key, Authorization');
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(res.headers.get('vary')).toBe('Origin');
    expect(await res.text()).toBe('');
  });

  it('lets the browser read answers, errors included, with the rate-limit headers exposed', async () => {
    const ok = await fetch(on.url + PRICING, { headers: { origin: DASHBOARD, 'x-api-key': STORED_KEY } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(DASHBOARD);
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/RateLimit-Remaining.*Retry-After/);
    const denied = await fetch(on.url + PRICING, { headers: { origin: 'http://localhost:3000' } });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
  });

  it('gives an origin that is not allowed no CORS header, so its browser blocks the answer', async () => {
    const res = await fetch(on.url + PRICING, {
      headers: { origin: 'https://evil.example', 'x-api-key': STORED_KEY },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await preflight(on, PRICING, 'https://evil.example');
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('keeps the API read-only: a preflight for POST allows only GET and HEAD, and a POST with a key is 403', async () => {
    const pre = await preflight(on, PRICING, DASHBOARD, 'POST');
    expect(pre.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    const post = await fetch(on.url + PRICING, {
      method: 'POST',
      headers: { origin: DASHBOARD, 'x-api-key': STORED_KEY },
    });
    expect(post.status).toBe(403);
    expect(post.headers.get('access-control-allow-origin')).toBe(DASHBOARD);
  });

  it('answers any origin with * when given *', async () => {
    const res = await fetch(`${anyOrigin.url}/api/v1/health`, {
      headers: { origin: 'https://anywhere.example' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('vary')).toBeNull();
  });
});

describe('without --cors (the default)', () => {
  it('sends no CORS header and answers OPTIONS as any other method: 401 without a key, 403 with one', async () => {
    const res = await fetch(off.url + PRICING, { headers: { origin: DASHBOARD, 'x-api-key': STORED_KEY } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await preflight(off, PRICING, DASHBOARD);
    expect(pre.status).toBe(401);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    const withKey = await fetch(off.url + PRICING, {
      method: 'OPTIONS',
      headers: { 'x-api-key': STORED_KEY },
    });
    expect(withKey.status).toBe(403);
  });
});
