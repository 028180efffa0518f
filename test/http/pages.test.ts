// @module-tag sqlite-only: the pages call the API routes' own handlers, whose store reads run on both stores in the HTTP suites
/**
 * The web pages over a real server and the seeded database: access (the sign-in cookie, the
 * same key check as the API, `--public`), read-only methods, the figures of a page against its
 * JSON twin and the CLI at the same instant, to the cent, and the collection-value routes.
 */
import { describe, expect, it } from 'vitest';
import { formatUsd } from '../../src/domain/money.js';
import { VALUE_MAX_LINES } from '../../src/http/value-schemas.js';
import { runOracle } from '../_cli.js';
import { indexMarketDatabase, NOW as INDEX_NOW } from '../_index-market.js';
import {
  DAY,
  ENV_KEY,
  HOUR,
  PRODUCTS,
  REVOKED_KEY,
  seededTestDatabase,
  startServer,
  STORED_KEY,
  useSeededServer,
  type TestServer,
} from './_helpers.js';
import { afterAll, beforeAll } from 'vitest';

const NOW = Date.UTC(2026, 5, 1, 12);
const AT = new Date(NOW - 2 * HOUR).toISOString().replace('.000', '');
const seeded = useSeededServer(NOW);
const COOKIE = { cookie: `oracle_key=${encodeURIComponent(STORED_KEY)}` };
const KEY = { 'x-api-key': STORED_KEY };
const plain = PRODUCTS.plain.productKey;
const COLLECTION = `product_key,condition,quantity,cost_basis\n${plain},ungraded,3,$100\n${plain},psa10,1,\nno-such-product,ungraded,1,\n`;

const get = (path: string, headers: Record<string, string> = COOKIE) =>
  fetch(seeded.server.url + path, { headers, redirect: 'manual' });
/** A JSON body, typed loosely: the tests assert its shape. */
const json = async (path: string, headers: Record<string, string> = COOKIE): Promise<any> =>
  (await get(path, headers)).json();

/** The text of every element with `attribute` in a page, by its value. */
function cells(page: string, attribute: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of page.matchAll(new RegExp(`${attribute}="([^"]+)"[^>]*>([^<]*)<`, 'g')))
    found.set(m[1]!, m[2]!.replace(/^~/, ''));
  return found;
}

describe('access', () => {
  it('sends a reader without a key to the sign-in form, keeping where they were going', async () => {
    const res = await get('/movers?span=7d', {});
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/sign-in?next=%2Fmovers%3Fspan%3D7d');
    const form = await (await get('/sign-in?next=%2Fmovers', {})).text();
    expect(form).toContain('<label for="key">API key</label>');
    expect(form).toContain('value="/movers"');
  });

  it('signs in with a key once: an HttpOnly, SameSite=Strict cookie, then the pages answer', async () => {
    const res = await fetch(`${seeded.server.url}/sign-in`, {
      method: 'POST',
      body: new URLSearchParams({ key: STORED_KEY, next: '/movers' }),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/movers');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^oracle_key=[^;]+; HttpOnly; SameSite=Strict; Path=\//);
    const page = await get('/movers', { cookie: cookie.split(';')[0]! });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const text = await page.text();
    expect(text).not.toContain(STORED_KEY);
    expect(seeded.server.accessLines.join('')).not.toContain(STORED_KEY);
  });

  it.each([
    ['a revoked key', REVOKED_KEY, 'invalid or revoked API key'],
    ['an unknown key', 'ork_nobody', 'invalid or revoked API key'],
    ['no key', '', 'enter an API key'],
  ])('refuses %s with the form again and no cookie', async (_, key, why) => {
    const res = await fetch(`${seeded.server.url}/sign-in`, {
      method: 'POST',
      body: new URLSearchParams({ key, next: '/' }),
      redirect: 'manual',
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await res.text()).toContain(why);
  });

  it('goes back only to a path of this server after signing in', async () => {
    const res = await fetch(`${seeded.server.url}/sign-in`, {
      method: 'POST',
      body: new URLSearchParams({ key: ENV_KEY, next: '//evil.example/' }),
      redirect: 'manual',
    });
    expect(res.headers.get('location')).toBe('/');
  });

  it('signs out by POST only, clearing the cookie', async () => {
    const res = await fetch(`${seeded.server.url}/sign-out`, { method: 'POST', redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('set-cookie')).toMatch(/^oracle_key=; .*Max-Age=0/);
    expect((await get('/sign-out')).status).toBe(403);
  });

  it.each(['POST', 'PUT', 'DELETE'])(
    'refuses %s on a page: nothing changes through a page',
    async (method) => {
      const res = await fetch(`${seeded.server.url}/value`, { method, headers: COOKIE });
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('read-only');
    },
  );

  it('answers a bad parameter with its status and the API’s detail, as a page', async () => {
    const res = await get('/movers?span=7x');
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/role="alert">span/);
    const unknown = await get(`/products/nope`);
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('nope');
  });

  it('serves uPlot and the page script from this server', async () => {
    const uplot = await get('/assets/uPlot.iife.min.js', {});
    expect(uplot.status).toBe(200);
    expect(await uplot.text()).toContain('uPlot');
    expect((await get('/assets/nothing.js', {})).status).toBe(404);
  });
});

describe('figures', () => {
  it('shows on the product page the cents of the pricing route and of oracle price --json at the same instant', async () => {
    const path = `/products/${encodeURIComponent(plain)}?at=${AT}`;
    const page = await (await get(path)).text();
    const api = await json(`/api/v1/developer/pricing/${encodeURIComponent(plain)}?at=${AT}`, KEY);
    const cli = await runOracle(['--db', seeded.dbPath, 'price', plain, '--at', AT, '--json'], {
      now: () => NOW,
    });
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toEqual(api);
    const shown = cells(page, 'data-slot');
    const slots = [api.ungraded, ...Object.values(api.graded).flatMap((g: any) => Object.values(g))] as any[];
    const priced = slots.filter((s) => s.price_minor !== null);
    expect(priced.length).toBeGreaterThan(1);
    for (const slot of priced) expect(shown.get(slot.condition_key)).toBe(formatUsd(slot.price_minor));
  });

  it('links each page to its JSON twin, which answers the same body with the cookie as with the header', async () => {
    const page = await (await get(`/products/${encodeURIComponent(plain)}?at=${AT}`)).text();
    const twins = [...page.matchAll(/href="([^"]+)" class="twin"/g)].map((m) =>
      m[1]!.replaceAll('&amp;', '&'),
    );
    expect(twins).toHaveLength(2);
    for (const twin of twins) {
      const viaCookie = await json(twin);
      expect(viaCookie).toEqual(await json(twin, KEY));
    }
    expect(twins[0]).toContain(`at=${encodeURIComponent(AT)}`);
  });

  it('pins a page without `at` to its instant, so its twin answers the same figures later', async () => {
    const page = await (await get(`/products/${encodeURIComponent(plain)}`)).text();
    const twin = /href="([^"]+)" class="twin"/.exec(page)![1]!.replaceAll('&amp;', '&');
    const shown = /As of <time>([^<]+)<\/time>/.exec(page)![1]!;
    expect(new URL(twin, seeded.server.url).searchParams.get('at')).toBe(shown);
    expect(Date.now() - Date.parse(shown)).toBeLessThan(60_000);
  });

  it('values a collection as oracle value does: the page, the API and the CLI to the cent', async () => {
    const csv = encodeURIComponent(COLLECTION);
    const api = await json(`/api/v1/developer/value?csv=${csv}&at=${AT}`, KEY);
    const cli = await runOracle(['--db', seeded.dbPath, 'value', '-', '--at', AT, '--json'], {
      input: COLLECTION,
      now: () => NOW,
    });
    expect(JSON.parse(cli.stdout)).toEqual(api);
    expect(api.lines).toHaveLength(2);
    expect(api.problems).toEqual([{ line: 4, reason: expect.stringContaining('no-such-product') }]);
    const page = await (await get(`/value?csv=${csv}&at=${AT}`)).text();
    expect(cells(page, 'data-total').get('value')).toBe(formatUsd(api.total.value_minor));
    for (const line of api.lines)
      expect(cells(page, 'data-line').get(String(line.line))).toBe(formatUsd(line.subtotal_minor));
    expect(page).toContain('line 4: ');
    const history = await json(
      `/api/v1/developer/value/history?csv=${csv}&to=${AT}&every=1d&from=${new Date(NOW - 3 * DAY).toISOString()}`,
      KEY,
    );
    expect(history.points.at(-1).value_minor).toBe(api.total.value_minor);
  });

  it('refuses a collection that is no CSV, or over the line limit, with a 400 naming csv', async () => {
    const bad = await get(`/api/v1/developer/value?csv=${encodeURIComponent('name,price\nx,1\n')}`, KEY);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/unknown column/i);
    const lines = Array.from({ length: VALUE_MAX_LINES + 1 }, () => `${plain},ungraded,1`).join('\n');
    const long = await get(
      `/api/v1/developer/value?csv=${encodeURIComponent(`product_key,condition,quantity\n${lines}`)}`,
      KEY,
    );
    expect(long.status).toBe(400);
    expect(((await long.json()) as { detail: string }).detail).toContain(`at most ${VALUE_MAX_LINES}`);
  });
});

describe('rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ dbPath: await seededTestDatabase(NOW), rateLimitPerMinute: 2 });
  });
  afterAll(async () => server?.close());

  it('takes a page’s token from its key’s bucket, the one the API takes from', async () => {
    const page = () => fetch(`${server.url}/watches`, { headers: COOKIE });
    expect((await page()).status).toBe(200);
    expect((await fetch(`${server.url}/api/v1/developer/watches`, { headers: KEY })).status).toBe(200);
    const limited = await page();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('serve --public', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      dbPath: await seededTestDatabase(NOW),
      serverOptions: { pageAccess: 'public' },
    });
  });
  afterAll(async () => server?.close());

  it('opens the pages without a key, and the API still needs one', async () => {
    const page = await fetch(`${server.url}/?q=charzard`);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('Sign out');
    expect((await fetch(`${server.url}/api/v1/developer/movers`)).status).toBe(401);
  });
});

describe('market index pages', () => {
  let server: TestServer;
  // The market's last weekly step, and an instant before its base date.
  const AT_INDEX = '2026-10-29T00:00:00Z';
  const ENV = { cookie: `oracle_key=${encodeURIComponent(ENV_KEY)}` };
  const API = { 'x-api-key': ENV_KEY };
  const page = async (path: string) => {
    const res = await fetch(server.url + path, { headers: ENV });
    return { status: res.status, text: await res.text() };
  };
  const api = async (path: string): Promise<any> =>
    (await fetch(`${server.url}/api/v1/developer/indexes${path}`, { headers: API })).json();
  const points = (v: number) => v.toLocaleString('en-US', { minimumFractionDigits: 2 });

  beforeAll(async () => {
    const dbPath = await indexMarketDatabase();
    for (const args of [
      ['test-set', '--set', 'test set', '--base-date', '2026-10-01', '--label', 'Test <set>'],
      ['later', '--era', 'vintage', '--base-date', '2026-11-01'],
    ]) {
      const added = await runOracle(['--db', dbPath, 'index', 'add', ...args], { now: () => INDEX_NOW });
      expect(added.stderr).toBe('');
    }
    server = await startServer({ dbPath, now: () => INDEX_NOW });
  });
  afterAll(async () => server?.close());

  it('lists each index with the latest value and members priced of its route, at the same instant', async () => {
    const { status, text } = await page(`/indexes?at=${AT_INDEX}`);
    expect(status).toBe(200);
    const body = await api(`/test-set?from=${AT_INDEX}&to=${AT_INDEX}&every=1w`);
    const last = body.points.at(-1);
    expect(last.at).toBe(AT_INDEX);
    expect(last.value).toBeGreaterThan(1000);
    expect(cells(text, 'data-index').get('test-set')).toBe(points(last.value));
    expect(cells(text, 'data-priced').get('test-set')).toBe(`${last.priced} of ${body.members}`);
    expect(body.members).toBe(2);
    expect(text).toContain('Test &lt;set&gt;');
    expect(text).toMatch(/not started: base date 2026-11-01/);
    const twins = [...text.matchAll(/href="([^"]+)" class="twin"/g)].map((m) =>
      m[1]!.replaceAll('&amp;', '&'),
    );
    expect(twins).toHaveLength(2);
    const twin = (await (await fetch(server.url + twins[1]!, { headers: ENV })).json()) as typeof body;
    expect(twin.points.at(-1)).toEqual(last);
  });

  it("shows an index's values as its route answers them: chart points, interval, top contributors", async () => {
    const { status, text } = await page(`/indexes/test-set?at=${AT_INDEX}&range=30d`);
    expect(status).toBe(200);
    const twin = /href="([^"]+)" class="twin"/.exec(text)![1]!.replaceAll('&amp;', '&');
    const body = await api(twin.replace('/api/v1/developer/indexes', ''));
    expect(new URL(twin, server.url).searchParams.get('every')).toBe('1d');
    expect(body.points).toHaveLength(29);
    const chart = JSON.parse(
      /<script type="application\/json" id="chart-data">([^<]+)<\/script>/.exec(text)![1]!,
    );
    expect(chart.unit).toBe('points');
    expect(chart.price).toEqual(body.points.map((p: { value: number }) => p.value));
    expect(chart.low).toEqual(body.points.map((p: { low: number }) => p.low));
    expect(chart.high).toEqual(body.points.map((p: { high: number }) => p.high));
    expect(cells(text, 'data-index').get('test-set')).toBe(points(body.points.at(-1).value));
    expect(text).toContain('1000 on 2026-10-01');
    expect(text).toContain('chained-jevons');
    const contributors = [...text.matchAll(/data-contributor="([^"]+)"/g)].map((m) => m[1]);
    expect(contributors).toEqual(body.top_contributors.map((c: { product_key: string }) => c.product_key));
    expect(contributors[0]).toBe('jumping-card');
  });

  it('links the index list from the home page, and refuses an unknown index or range with the detail', async () => {
    expect((await page('/')).text).toMatch(/href="\/indexes\?at=[^"]+"/);
    const unknown = await page('/indexes/nope');
    expect(unknown.status).toBe(400);
    expect(unknown.text).toMatch(/no index named &quot;nope&quot;/);
    const range = await page('/indexes/test-set?range=5y');
    expect(range.status).toBe(400);
    expect(range.text).toMatch(/role="alert">range/);
  });
});
