/**
 * The market index routes on a real server over the seeded database: the definitions, one
 * index's body (as `oracle index show --json` gives it, the service's), and a 400 with
 * `{detail}` for an unknown name or a bad step; the served OpenAPI document describes each
 * answer (the server's own check, `violations`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
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
});
