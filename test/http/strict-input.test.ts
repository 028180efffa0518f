// @module-tag sqlite-only: numbers and dates as clients spell them: the parsing is the same on every store
/**
 * Numbers and dates as a client sends them, against a real server on port 0 over a seeded
 * SQLite file: another spelling of a valid integer is a 400 naming the parameter and its
 * range, and a date that does not exist is a 422 like a malformed one, never shifted.
 */
import { describe, expect, it } from 'vitest';
import { toUtcDate } from '../../src/domain/time.js';
import { DAY, pricingPath, PRODUCTS, STORED_KEY, useSeededServer } from './_helpers.js';

const NOW = Date.now();
const KEY = { 'x-api-key': STORED_KEY };
const seeded = useSeededServer(NOW);

async function get(path: string) {
  const res = await fetch(seeded.server.url + path, { headers: KEY });
  return {
    status: res.status,
    body: (await res.json()) as { detail?: string; window_hours?: number; outlier_stddevs?: number },
  };
}

const ROUTES = {
  pricing: pricingPath(PRODUCTS.plain.productKey),
  refsource: '/api/v1/developer/refsource/1001',
};

// As they arrive after URL decoding: a space, a plus, a leading zero, a newline, decimals, an exponent.
const SPELLINGS_OF_24 = ['%2024', '24%20', '%2B24', '024', '24%0A', '24.0', '2.4e1'];

describe('integer parameters are canonical decimal integers', () => {
  it.each(Object.entries(ROUTES))(
    'the %s route takes window_hours=24 and outlier_stddevs=3 as written',
    async (_route, path) => {
      const { status, body } = await get(`${path}?window_hours=24&outlier_stddevs=3`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ window_hours: 24, outlier_stddevs: 3 });
    },
  );

  it.each(
    SPELLINGS_OF_24.flatMap((raw) =>
      Object.entries(ROUTES).map(([route, path]) => [route, raw, path] as const),
    ),
  )(
    'the %s route answers 400 to window_hours=%s naming the parameter and its range',
    async (_route, raw, path) => {
      const { status, body } = await get(`${path}?window_hours=${raw}`);
      expect(status).toBe(400);
      expect(body.detail).toBe(
        `window_hours must be an integer from 1 to 72, written as digits only (no sign, spaces, leading zeros or decimals) (got ${JSON.stringify(decodeURIComponent(raw))})`,
      );
    },
  );

  it.each(['%202', '%2B2', '02', '2.0', '1e1', '2%0A'])(
    'answers 400 to outlier_stddevs=%s naming the parameter and its range',
    async (raw) => {
      const { status, body } = await get(`${ROUTES.pricing}?outlier_stddevs=${raw}`);
      expect(status).toBe(400);
      expect(body.detail).toMatch(/^outlier_stddevs must be an integer from 1 to 10/);
    },
  );

  it('answers 400 to outlier_stddevs=02 on the snapshot route too', async () => {
    const { status, body } = await get(
      `/api/v1/developer/refsource/1001/snapshot?date=${toUtcDate(NOW - DAY)}&outlier_stddevs=02`,
    );
    expect(status).toBe(400);
    expect(body.detail).toMatch(/^outlier_stddevs must be an integer from 1 to 10, written as digits only/);
  });
});

describe('snapshot dates that do not exist', () => {
  it.each([
    ['2026-02-30', 'date "2026-02-30" is not a real date: February 2026 has 28 days'],
    ['2025-02-29', 'date "2025-02-29" is not a real date: February 2025 has 28 days'],
    ['1900-02-29', 'date "1900-02-29" is not a real date: February 1900 has 28 days'],
    ['2026-04-31', 'date "2026-04-31" is not a real date: April 2026 has 30 days'],
    ['2026-13-01', 'date "2026-13-01" is not a real date: there is no month 13'],
    ['2026-01-00', 'date "2026-01-00" is not a real date: there is no day 00'],
    ['2026-1-05', 'date must be a date as YYYY-MM-DD (got "2026-1-05")'],
  ])('answer 422 to date=%s with the reason', async (date, detail) => {
    const { status, body } = await get(`/api/v1/developer/refsource/1001/snapshot?date=${date}`);
    expect(status).toBe(422);
    expect(body.detail).toBe(detail);
  });

  it('price a leap day that exists (2024-02-29)', async () => {
    const { status } = await get('/api/v1/developer/refsource/1001/snapshot?date=2024-02-29');
    expect(status).toBe(200);
  });

  it('refuse tomorrow as the future', async () => {
    const tomorrow = toUtcDate(NOW + DAY);
    const { status, body } = await get(`/api/v1/developer/refsource/1001/snapshot?date=${tomorrow}`);
    expect(status).toBe(422);
    expect(body.detail).toBe(`date ${tomorrow} is in the future (today is ${toUtcDate(NOW)} UTC)`);
  });
});

describe('the query string is read whole and strictly (issue 24)', () => {
  it('answers 400 naming an unknown parameter instead of pricing the default window', async () => {
    const { status, body } = await get(`${ROUTES.pricing}?window_hour=48`);
    expect(status).toBe(400);
    expect(body.detail).toBe(
      'unknown query parameter "window_hour": this route takes window_hours, outlier_stddevs, at, extra_grades, currency',
    );
  });

  it('answers 400 to an instant before the year 1000, which has no RFC 3339 window_start', async () => {
    const { status, body } = await get(`${ROUTES.pricing}?at=0000-01-01T00:00:00Z`);
    expect(status).toBe(400);
    expect(body.detail).toContain('"0000-01-01T00:00:00Z" is outside the years 1000 to 9999');
  });

  it('answers 400 to an unknown parameter on a route that takes none', async () => {
    const res = await fetch(`${seeded.server.url}/api/v1/developer/watches?page=2`, { headers: KEY });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toBe(
      'unknown query parameter "page": this route takes no query parameters',
    );
  });

  it('answers 400 to more parameters than it reads, instead of dropping those after the 1,000th', async () => {
    const padding = Array.from({ length: 1000 }, () => 'window_hours=24').join('&');
    const { status, body } = await get(`${ROUTES.pricing}?${padding}&window_hours=48`);
    expect(status).toBe(400);
    expect(body.detail).toBe('too many query parameters: 1,001 (at most 64)');
  });

  it.each([
    ['a search q', '/api/v1/developer/catalog/search?q=%FF%FE', 'q is not valid UTF-8 percent-encoding'],
    [
      'a parameter name',
      `${ROUTES.pricing}?%C3=1`,
      'a query parameter name is not valid UTF-8 percent-encoding',
    ],
    [
      'a product key in the path',
      '/api/v1/developer/pricing/%FF',
      'the path is not valid UTF-8 percent-encoding',
    ],
  ])('answers 400 to invalid UTF-8 in %s', async (_where, path, detail) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    expect(body.detail).toBe(detail);
  });
});
