// @module-tag sqlite-only: the routes' bodies as oracle sales and movers --json give them: those run on both
// stores in cli/market.test.ts
/** The sales and movers routes against a real server on port 0: the bodies of `oracle sales --json` and `oracle movers --json`, their errors, their bucket. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moversResponse, salesResponse } from '../../src/http/schemas.js';
import { toIsoUtc } from '../../src/domain/time.js';
import { runOracle } from '../_cli.js';
import { tempDir } from '../_setup.js';
import { AS_OF, AS_OF_MS, marketDatabase } from '../cli/_market-database.js';
import { ENV_KEY, startServer, type TestServer } from './_helpers.js';

const KEY = { 'x-api-key': ENV_KEY };
let db: string;
let server: TestServer;
const get = (path: string, headers: Record<string, string> = KEY) =>
  fetch(`${server.url}/api/v1/developer${path}`, { headers });

beforeAll(async () => {
  db = await marketDatabase(tempDir('oracle-http-'));
  server = await startServer({ dbPath: db, now: () => AS_OF_MS });
});
afterAll(async () => {
  await server?.close();
});

/** The same request through the CLI, as JSON. */
async function cliJson(...args: string[]) {
  const result = await runOracle(['--db', db, ...args], { now: AS_OF_MS });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

describe('GET /api/v1/developer/pricing/{product_key}/sales', () => {
  it('answers the body of oracle sales --json, with the rate-limit headers', async () => {
    const res = await get('/pricing/rising/sales?condition=PSA%2010&span=3d&limit=4&window_hours=48');
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-remaining')).not.toBeNull();
    const body = (await res.json()) as any;
    expect(salesResponse.safeParse(body).success).toBe(true);
    expect(body).toEqual(
      await cliJson(
        'sales',
        'rising',
        '--condition',
        'psa10',
        '--span',
        '3d',
        '--limit',
        '4',
        '--window-hours',
        '48',
        '--json',
      ),
    );
    expect(body).toMatchObject({
      condition: 'psa10',
      as_of: AS_OF,
      since: toIsoUtc(AS_OF_MS - 3 * 86_400_000),
      limit: 4,
      total: 6,
    });
  });

  it('answers 400 naming a bad parameter or an unknown product, and 401 without a key', async () => {
    for (const [query, detail] of [
      ['condition=psa11', /^condition must be/],
      ['span=1y', /^span must be a span like/],
      ['limit=1001', /^limit must be an integer from 1 to 1000/],
      ['at=2027-01-01T00:00:00Z', /^at .*is in the future/],
    ] as const) {
      const res = await get(`/pricing/rising/sales?${query}`);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { detail: string }).detail, query).toMatch(detail);
    }
    expect((await get('/pricing/nothing-here/sales')).status).toBe(400);
    expect((await get('/pricing/rising/sales', {})).status).toBe(401);
  });
});

describe('GET /api/v1/developer/movers', () => {
  it('answers the body of oracle movers --json, with the rate-limit headers', async () => {
    const res = await get('/movers?condition=psa10&span=30d&limit=2');
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-remaining')).not.toBeNull();
    const body = (await res.json()) as any;
    expect(moversResponse.safeParse(body).success).toBe(true);
    expect(body).toEqual(
      await cliJson('movers', '--condition', 'psa10', '--span', '30d', '--limit', '2', '--json'),
    );
    expect(body.gainers[0].product_key).toBe('rising');
    expect(body.losers[0].product_key).toBe('falling');
  });

  it('defaults to ungraded over 7 days; answers 400 naming a bad parameter', async () => {
    const body = (await (await get('/movers')).json()) as any;
    expect(body).toMatchObject({
      condition: 'ungraded',
      span: '7d',
      to: AS_OF,
      limit: 10,
      min_observations: 5,
    });
    for (const [query, detail] of [
      ['condition=bgs9.5', /^condition must be ungraded or a grader and a grade 7-10/],
      ['span=0d', /^span must be a span like/],
      ['limit=0', /^limit must be an integer from 1 to 100/],
    ] as const) {
      const res = await get(`/movers?${query}`);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { detail: string }).detail, query).toMatch(detail);
    }
  });
});
