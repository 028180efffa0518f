/**
 * The market index routes on a real server over the seeded database: the definitions, one
 * index's body (as `oracle index show --json` gives it, the service's), and a 400 with
 * `{detail}` for an unknown name or a bad step; the served OpenAPI document describes each
 * answer (the server's own check, `violations`). Published values (`oracle index publish`) are
 * read back with their version, an older version on request.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import type { IndexBody } from '../../src/service/market-index.js';
import { toUtcDate } from '../../src/domain/time.js';
import { DAY, defineAllSingles, HOUR, STORED_KEY, useSeededServer } from './_helpers.js';

const NOW = Math.floor(Date.now() / HOUR) * HOUR;
const seeded = useSeededServer(NOW);
const get = (path: string) => fetch(seeded.server.url + path, { headers: { 'x-api-key': STORED_KEY } });
const BASE_DATE = toUtcDate(NOW - 2 * DAY);

describe('GET /api/v1/developer/indexes', () => {
  beforeAll(() => defineAllSingles(seeded.dbPath, BASE_DATE, NOW - DAY));

  it('lists the definitions and shows an index as the service computes it', async () => {
    const list = await get('/api/v1/developer/indexes');
    expect(list.status).toBe(200);
    expect(await list.json()).toMatchObject({
      total: 1,
      indexes: [{ name: 'all-singles', base_value: 1000 }],
    });
    const res = await get('/api/v1/developer/indexes/all-singles?every=1h&from=1d');
    const body = (await res.json()) as IndexBody;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.points.length).toBeGreaterThan(1);
    expect(
      body.points.every(
        (p: { low: number; high: number; value: number }) => p.low <= p.value && p.value <= p.high,
      ),
    ).toBe(true);
    const direct = await seeded.server.oracle.index({
      name: 'all-singles',
      request: { every: '1h', from: '1d' },
      params: { windowHours: 24, outlierStddevs: 3 },
      now: NOW,
    });
    expect(body.members).toBe(direct.members);
  });

  it('answers 400 with a detail for an unknown index or a bad step', async () => {
    const unknown = await get('/api/v1/developer/indexes/nope');
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { detail: string }).detail).toMatch(/no index named "nope"/);
    const step = await get('/api/v1/developer/indexes/all-singles?every=1y');
    expect(step.status).toBe(400);
    expect(((await step.json()) as { detail: string }).detail).toMatch(/every/);
  });

  it('serves a published day as published, with its version, and an older version on request', async () => {
    const base = Date.parse(`${BASE_DATE}T00:00:00Z`);
    const store = await openStore(seeded.dbPath);
    try {
      const index = (await store.indexes.byName('all-singles'))!;
      const figures = { low: 990.5, high: 1010.25, priced: 7, linked: 0, publishedAt: NOW - DAY };
      await store.indexes.publish(index.id, [{ at: base, version: 1, value: 1000, ...figures }]);
      await store.indexes.publish(index.id, [{ at: base, version: 2, value: 1001.5, ...figures }]);
    } finally {
      await store.close();
    }
    const show = async (query: string) => {
      const res = await get(`/api/v1/developer/indexes/all-singles${query}`);
      const body = (await res.json()) as IndexBody;
      expect(res.status, JSON.stringify(body)).toBe(200);
      return body;
    };
    const latest = await show('');
    expect(latest.points[0]).toMatchObject({
      at: `${BASE_DATE}T00:00:00Z`,
      value: 1001.5,
      version: 2,
      low: 990.5,
    });
    expect(latest.points.slice(1).every((p) => p.version === null)).toBe(true);
    expect((await show('?version=1')).points[0]).toMatchObject({ value: 1000, version: 1 });
    // Hourly points are another chain than the published daily one: computed, none read back.
    expect((await show('?every=1h&from=1d')).points.every((p) => p.version === null)).toBe(true);

    for (const [query, detail] of [
      ['?version=3', /versions 1 to 2; got version 3/],
      ['?version=0', /version/],
      ['?version=1&every=1h', /published values are the daily index/],
    ] as const) {
      const res = await get(`/api/v1/developer/indexes/all-singles${query}`);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { detail: string }).detail, query).toMatch(detail);
    }
  });
});
