/**
 * Every status code of SPEC.md section 7 provoked for real, against a real server over a
 * real store (a SQLite file, or PostgreSQL in the vitest project `postgres`) and a fake
 * upstream on port 0.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toUtcDate } from '../../src/domain/time.js';
import { FLUSH_MS } from '../../src/http/access-log.js';
import { pricingBundle } from '../../src/http/schemas.js';
import { createOfflineResolver, createUnconfiguredResolver } from '../../src/service/refsource-resolver.js';
import { createUpstreamResolver } from '../../src/service/upstream-resolver.js';
import { createRefsourceClient } from '../../src/upstream/refsource-client.js';
import {
  DAY,
  ENV_KEY,
  fakeUpstream,
  pricingPath,
  PRODUCTS,
  REVOKED_KEY,
  seedDatabase,
  seededTestDatabase,
  startServer,
  STORED_KEY,
  type FakeUpstream,
  type TestServer,
} from './_helpers.js';
import { missingTestDatabase, TEST_STORE } from '../_pg.js';
import { tempDir } from '../_setup.js';

const NOW = Date.now();
const KEY = { 'x-api-key': STORED_KEY };

async function get(server: TestServer, path: string, headers: Record<string, string> = KEY) {
  const res = await fetch(server.url + path, { headers });
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

let dbPath: string;
beforeAll(async () => {
  dbPath = await seededTestDatabase(NOW);
});

describe('with a seeded database, offline', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ dbPath, resolver: createOfflineResolver() });
  });
  afterAll(() => server.close());

  it('returns 200 and the bundle of SPEC.md 2.1 with id null on the pricing route', async () => {
    const { status, body } = await get(server, pricingPath(PRODUCTS.plain.productKey));
    expect(status).toBe(200);
    expect(() => pricingBundle.parse(body)).not.toThrow();
    expect(body).toMatchObject({
      id: null,
      product_key: PRODUCTS.plain.productKey,
      window_hours: 24,
      outlier_stddevs: 2,
    });
  });

  it.each([PRODUCTS.spaced, PRODUCTS.unicode, PRODUCTS.slashed])(
    'prices the product key $productKey (spaces, non-ASCII, encoded slash)',
    async ({ productKey }) => {
      const { status, body } = await get(server, pricingPath(productKey));
      expect(status).toBe(200);
      expect(body.product_key).toBe(productKey);
      expect(body.ungraded.price_minor).toEqual(expect.any(Number));
    },
  );

  it('keeps a slot without data as a value: 200 with error no_observations', async () => {
    const { status, body } = await get(server, pricingPath(PRODUCTS.unpriced.productKey));
    expect(status).toBe(200);
    expect(body.ungraded).toMatchObject({ price_minor: null, error: 'no_observations' });
  });

  it('passes window_hours and outlier_stddevs through', async () => {
    const { body } = await get(
      server,
      pricingPath(PRODUCTS.plain.productKey, '?window_hours=72&outlier_stddevs=10'),
    );
    expect(body).toMatchObject({ window_hours: 72, outlier_stddevs: 10 });
  });

  it.each([
    ['an unknown product_key', pricingPath('no-such-card'), /unknown product_key "no-such-card"/],
    [
      'window_hours 0',
      pricingPath('base-set-charizard', '?window_hours=0'),
      /window_hours must be an integer from 1 to 72/,
    ],
    [
      'window_hours 1.5',
      pricingPath('base-set-charizard', '?window_hours=1.5'),
      /window_hours must be an integer from 1 to 72/,
    ],
    [
      'a repeated window_hours',
      pricingPath('base-set-charizard', '?window_hours=2&window_hours=3'),
      /window_hours/,
    ],
    [
      'outlier_stddevs 11',
      pricingPath('base-set-charizard', '?outlier_stddevs=11'),
      /outlier_stddevs must be an integer from 1 to 10/,
    ],
    [
      'a refsource id with no mapping',
      '/api/v1/developer/refsource/999999',
      /no catalog mapping for refsource id "999999"/,
    ],
    [
      'a refsource id that is not digits',
      '/api/v1/developer/refsource/12ab',
      /refsource_id must be a string of/,
    ],
    [
      'window_hours on the refsource route',
      '/api/v1/developer/refsource/1001?window_hours=73',
      /window_hours/,
    ],
  ])('returns 400 naming the problem for %s', async (_name, path, detail) => {
    const { status, body } = await get(server, path);
    expect(status).toBe(400);
    expect(body.detail).toMatch(detail);
  });

  it.each([
    ['missing', ''],
    ['malformed', '?date=22-11-2026'],
    ['not a calendar date', '?date=2026-02-30'],
    ['in the future', `?date=${toUtcDate(NOW + 2 * DAY)}`],
  ])('returns 422 when the snapshot date is %s', async (_name, query) => {
    const { status, body } = await get(server, `/api/v1/developer/refsource/1001/snapshot${query}`);
    expect(status).toBe(422);
    expect(body.detail).toMatch(/date/);
  });

  it('returns the snapshot of a past date with id set, window_hours 24 and the window of decision 2', async () => {
    const date = toUtcDate(NOW - DAY);
    const { status, body } = await get(
      server,
      `/api/v1/developer/refsource/1001/snapshot?date=${date}&outlier_stddevs=3`,
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: '1001', window_hours: 24, outlier_stddevs: 3 });
    expect(body.ungraded.window_end).toBe(`${toUtcDate(NOW)}T00:00:00Z`);
  });

  it('returns 401 with a detail for a missing key, a wrong key and a revoked key', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { 'x-api-key': 'nope' },
      { 'x-api-key': REVOKED_KEY },
      { authorization: `Basic ${ENV_KEY}` },
    ];
    for (const headers of attempts) {
      const { status, body } = await get(server, '/api/v1/developer/catalog', headers);
      expect(status).toBe(401);
      expect(body.detail).toMatch(/API key/);
    }
  });

  it('returns the catalog of SPEC.md 4.5, with the identity additions', async () => {
    const { status, body } = await get(server, '/api/v1/developer/catalog');
    expect(status).toBe(200);
    expect(body.total).toBe(Object.keys(PRODUCTS).length);
    expect(body.products[0]).toEqual({
      product_key: expect.any(String),
      refsource_id: expect.any(String),
      product_name: expect.any(String),
      product_type: 'single_card',
      era: 'vintage',
      earliest_observation: expect.any(String),
      tcgplayer_id: null,
      printing: null,
      language: null,
    });
  });

  it('writes one JSON access-log line per request, with the key id and never the key', async () => {
    const flushed = () => new Promise((resolve) => setTimeout(resolve, FLUSH_MS + 20));
    await flushed();
    const before = server.accessLines.join('').split('\n').length - 1;
    await get(server, pricingPath(PRODUCTS.plain.productKey), { authorization: `Bearer ${STORED_KEY}` });
    await get(server, '/api/v1/developer/catalog', { 'x-api-key': 'ork_wrong-key-in-log' });
    await flushed();
    const lines = server.accessLines
      .join('')
      .split('\n')
      .filter(Boolean)
      .slice(before)
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      expect.objectContaining({
        method: 'GET',
        route: '/api/v1/developer/pricing/:product_key',
        status: 200,
        key_id: 'key_stored',
        ms: expect.any(Number),
      }),
      expect.objectContaining({
        method: 'GET',
        route: '/api/v1/developer/catalog',
        status: 401,
        key_id: null,
      }),
    ]);
    const all = server.accessLines.join('') + server.errorLines.join('');
    for (const secret of [STORED_KEY, ENV_KEY, REVOKED_KEY, 'ork_wrong-key-in-log'])
      expect(all).not.toContain(secret);
  });
});

describe('rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ dbPath, rateLimitPerMinute: 3 });
  });
  afterAll(() => server.close());

  it('shares one bucket across pricing, refsource and snapshot, then answers 429 with Retry-After and RateLimit headers', async () => {
    const first = await get(server, pricingPath(PRODUCTS.plain.productKey));
    expect(first.headers.get('ratelimit-limit')).toBe('3');
    expect(first.headers.get('ratelimit-remaining')).toBe('2');
    expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    expect((await get(server, '/api/v1/developer/refsource/1001')).status).toBe(200);
    expect(
      (await get(server, `/api/v1/developer/refsource/1001/snapshot?date=${toUtcDate(NOW)}`)).status,
    ).toBe(200);
    const limited = await get(server, pricingPath(PRODUCTS.plain.productKey));
    expect(limited.status).toBe(429);
    expect(limited.body.detail).toMatch(/rate limit/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-limit')).toBe('3');
  });

  it('leaves health unlimited, counts the catalog in the bucket (issue 35), and other keys their own bucket', async () => {
    expect((await get(server, '/api/v1/developer/catalog')).status).toBe(429);
    expect((await get(server, '/api/v1/health', {})).status).toBe(200);
    expect((await get(server, pricingPath(PRODUCTS.plain.productKey), { 'x-api-key': ENV_KEY })).status).toBe(
      200,
    );
  });
});

describe('engine failure', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      dbPath,
      override: (oracle) => ({
        ...oracle,
        price: async () => {
          throw new Error('engine exploded at /secret/path');
        },
      }),
    });
  });
  afterAll(() => server.close());

  it('returns 500 with a generic detail and no stack, logs the cause, and keeps serving', async () => {
    const { status, body } = await get(server, pricingPath(PRODUCTS.plain.productKey));
    expect(status).toBe(500);
    expect(body).toEqual({ detail: 'internal error' });
    expect(server.errorLines.join('')).toContain('engine exploded');
    expect((await get(server, '/api/v1/developer/catalog')).status).toBe(200);
  });
});

describe('database unreachable', () => {
  it('answers 503 while the database is missing (no file, or no schema), then serves once it exists, without a restart', async () => {
    const path = await missingTestDatabase(tempDir('oracle-http-'));
    const server = await startServer({ dbPath: path });
    try {
      for (const route of [
        pricingPath(PRODUCTS.plain.productKey),
        '/api/v1/developer/catalog',
        '/api/v1/developer/refsource/1001',
      ]) {
        const { status, body } = await get(server, route);
        expect(status).toBe(503);
        expect(body.detail).toMatch(/database unavailable/);
        expect(body.detail).not.toContain(path);
      }
      expect((await get(server, '/api/v1/health', {})).status).toBe(200);
      await seedDatabase(path, NOW);
      expect((await get(server, pricingPath(PRODUCTS.plain.productKey))).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  // A damaged file is SQLite's own failure; a PostgreSQL server's are in test/cli/serve-postgres.test.ts.
  it.skipIf(TEST_STORE === 'postgres')(
    'answers 503 for a corrupt file and keeps serving health',
    async () => {
      const path = `${tempDir('oracle-http-')}/corrupt.db`;
      writeFileSync(path, 'this is not a database'.repeat(500));
      const server = await startServer({ dbPath: path });
      try {
        expect((await get(server, '/api/v1/developer/catalog')).status).toBe(503);
        expect((await get(server, '/api/v1/health', {})).status).toBe(200);
        expect(server.errorLines.join('')).toMatch(/DatabaseUnavailableError/);
      } finally {
        await server.close();
      }
    },
  );
});

describe('reference-source upstream', () => {
  let upstream: FakeUpstream;
  let server: TestServer;
  const statuses = new Map<string, number | 'hang'>();

  beforeAll(async () => {
    upstream = await fakeUpstream((id) => statuses.get(id) ?? 200);
  });
  afterEach(async () => {
    await server?.close();
    statuses.clear();
    upstream.calls.length = 0;
  });
  afterAll(() => upstream.close());

  async function serve(options: { failureThreshold?: number; deadlineMs?: number } = {}) {
    const client = createRefsourceClient({
      urlTemplate: upstream.template,
      token: 'upstream-token',
      deadlineMs: options.deadlineMs ?? 2_000,
    });
    server = await startServer({
      dbPath,
      resolver: createUpstreamResolver(client, {
        breaker: { failureThreshold: options.failureThreshold ?? 5, coolDownMs: 60_000 },
      }),
    });
  }

  it('prices a mapped id the upstream knows, with id set, sending the bearer token upstream', async () => {
    await serve();
    const { status, body } = await get(server, '/api/v1/developer/refsource/1001');
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: '1001', product_key: PRODUCTS.plain.productKey });
    expect(body.ungraded.meta).not.toHaveProperty('refsource_upstream');
    expect(upstream.calls).toEqual([{ path: '/products/1001', authorization: 'Bearer upstream-token' }]);
  });

  it('reuses the upstream answer for the same id instead of calling again', async () => {
    await serve();
    await get(server, '/api/v1/developer/refsource/1001');
    await get(server, '/api/v1/developer/refsource/1001?window_hours=12');
    await get(server, `/api/v1/developer/refsource/1001/snapshot?date=${toUtcDate(NOW)}`);
    expect(upstream.calls).toHaveLength(1);
  });

  it.each([404, 410])(
    'falls back to the local mapping when the upstream answers %i, and 400 without one',
    async (code) => {
      statuses.set('1002', code).set('424242', code);
      await serve();
      expect((await get(server, '/api/v1/developer/refsource/1002')).status).toBe(200);
      expect((await get(server, '/api/v1/developer/refsource/424242')).status).toBe(400);
    },
  );

  it('returns 400 when the upstream knows the id but the catalog has no mapping', async () => {
    await serve();
    const { status, body } = await get(server, '/api/v1/developer/refsource/777');
    expect(status).toBe(400);
    expect(body.detail).toMatch(/no catalog mapping/);
  });

  it('returns 502 when the upstream fails and no mapping exists, and 200 naming the degradation when one does', async () => {
    statuses.set('424242', 500).set('1001', 503);
    await serve();
    const failed = await get(server, '/api/v1/developer/refsource/424242');
    expect(failed.status).toBe(502);
    expect(failed.body.detail).toMatch(/upstream.*HTTP 500/);
    expect(failed.body.detail).not.toContain('127.0.0.1');
    const degraded = await get(server, '/api/v1/developer/refsource/1001');
    expect(degraded.status).toBe(200);
    expect(degraded.body.ungraded.meta).toMatchObject({
      refsource_upstream: 'unavailable',
      source_counts: expect.any(Object),
    });
  });

  it('treats an upstream that does not answer in time as failed (502 without mapping)', async () => {
    statuses.set('424242', 'hang');
    await serve({ deadlineMs: 200 });
    // The upstream never answers: a 502 saying "timed out" is the deadline at work (no time bound here).
    const { status, body } = await get(server, '/api/v1/developer/refsource/424242');
    expect(status).toBe(502);
    expect(body.detail).toMatch(/timed out/);
  });

  it('stops calling an upstream that keeps failing (circuit breaker) and still prices mapped ids', async () => {
    statuses.set('1001', 500).set('1002', 500).set('1003', 500).set('424242', 500);
    await serve({ failureThreshold: 3 });
    for (const id of ['1001', '1002', '1003'])
      expect((await get(server, `/api/v1/developer/refsource/${id}`)).status).toBe(200);
    expect(upstream.calls).toHaveLength(3);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        get(server, `/api/v1/developer/refsource/${i % 2 ? '1001' : '424242'}`),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 ? 200 : 502)));
    expect(upstream.calls).toHaveLength(3);
  });

  it('returns 503 on the refsource and snapshot routes when no upstream is configured and not offline', async () => {
    server = await startServer({ dbPath, resolver: createUnconfiguredResolver() });
    for (const path of [
      '/api/v1/developer/refsource/1001',
      `/api/v1/developer/refsource/1001/snapshot?date=${toUtcDate(NOW)}`,
    ]) {
      const { status, body } = await get(server, path);
      expect(status).toBe(503);
      expect(body.detail).toMatch(/no upstream reference source is configured/);
    }
    expect((await get(server, pricingPath(PRODUCTS.plain.productKey))).status).toBe(200);
  });
});
