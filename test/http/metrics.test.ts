/**
 * `serve --metrics`: the Prometheus text a scraper reads after real traffic (requests by
 * route and status, latency, 429s, bundle cache hits, upstream calls and the breaker), and
 * no /metrics route at all without the flag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUpstreamResolver } from '../../src/service/upstream-resolver.js';
import { createRefsourceClient } from '../../src/upstream/refsource-client.js';
import {
  fakeUpstream,
  pricingPath,
  PRODUCTS,
  seededTestDatabase,
  startServer,
  STORED_KEY,
  type FakeUpstream,
  type TestServer,
} from './_helpers.js';

const NOW = Date.now();
const KEY = { 'x-api-key': STORED_KEY };
let dbPath: string;
const PRICING_ROUTE = '/api/v1/developer/pricing/:product_key';

let upstream: FakeUpstream;
let server: TestServer;
let plain: TestServer;
beforeAll(async () => {
  dbPath = await seededTestDatabase(NOW);
  upstream = await fakeUpstream((id) => (id === '1002' ? 500 : 200));
  const resolver = createUpstreamResolver(
    createRefsourceClient({ urlTemplate: upstream.template, deadlineMs: 2_000 }),
    {
      breaker: { failureThreshold: 1, coolDownMs: 60_000 },
    },
  );
  // A fixed clock: the bundle cache is keyed by the second, and a loaded machine can cross one between requests.
  server = await startServer({ dbPath, resolver, rateLimitPerMinute: 5, metrics: true, now: () => NOW });
  plain = await startServer({ dbPath });
});
afterAll(async () => {
  await Promise.all([server.close(), plain.close()]);
  await upstream.close();
});

/** The value of one sample line (`name{labels} value`) of the exposition, undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics with serve --metrics', () => {
  it('counts requests by route and status, 429s, cache hits, upstream calls and the breaker state', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (await fetch(server.url + pricingPath(PRODUCTS.plain.productKey), { headers: KEY })).status,
      );
    statuses.push((await fetch(`${server.url}/api/v1/developer/refsource/1001`, { headers: KEY })).status);
    statuses.push((await fetch(`${server.url}/api/v1/developer/refsource/1002`, { headers: KEY })).status);
    statuses.push(
      (await fetch(server.url + pricingPath(PRODUCTS.plain.productKey), { headers: KEY })).status,
    );
    statuses.push((await fetch(`${server.url}/api/v1/developer/catalog`)).status);
    statuses.push((await fetch(`${server.url}/no/such/route`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 401, 404]);

    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const requests = (route: string, status: number) =>
      sample(text, `oracle_http_requests_total{route="${route}",method="GET",status="${status}"}`);
    expect(requests(PRICING_ROUTE, 200)).toBe(3);
    expect(requests(PRICING_ROUTE, 429)).toBe(1);
    expect(requests('/api/v1/developer/catalog', 401)).toBe(1);
    expect(requests('none', 404)).toBe(1);
    expect(sample(text, 'oracle_http_rate_limited_total')).toBe(1);
    expect(sample(text, `oracle_http_request_duration_seconds_count{route="${PRICING_ROUTE}"}`)).toBe(4);
    expect(
      sample(text, `oracle_http_request_duration_seconds_bucket{le="+Inf",route="${PRICING_ROUTE}"}`),
    ).toBe(4);
    // Three pricing requests of one bundle within its second: one computed, two from the cache; then the two refsource bundles.
    expect(sample(text, 'oracle_bundle_cache_requests_total{result="hit"}')).toBe(2);
    expect(sample(text, 'oracle_bundle_cache_requests_total{result="miss"}')).toBe(3);
    expect(sample(text, 'oracle_upstream_requests_total{outcome="found"}')).toBe(1);
    expect(sample(text, 'oracle_upstream_requests_total{outcome="failed"}')).toBe(1);
    // A threshold of 1: the failure opened the circuit.
    expect(sample(text, 'oracle_upstream_circuit_state{state="open"}')).toBe(1);
    expect(sample(text, 'oracle_upstream_circuit_state{state="closed"}')).toBe(0);
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
  });

  it('needs no key, answers HEAD without a body, and a write like any public route (401 without a key)', async () => {
    const head = await fetch(`${server.url}/metrics`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await fetch(`${server.url}/metrics`, { method: 'POST' });
    expect(post.status).toBe(401);
    expect(await post.json()).toEqual({ detail: expect.any(String) });
  });
});

describe('without serve --metrics', () => {
  it('has no /metrics route: 404 with a detail', async () => {
    const res = await fetch(`${plain.url}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: 'no route GET /metrics' });
  });
});
