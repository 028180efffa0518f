/**
 * The web pages in a real browser: Debian's chromium driven by playwright-core, one launch for
 * the file, over a real server and the seeded database, at desktop (1280 px) and phone (375 px)
 * widths: no console error, no failed request, no request off the server, the figures of the
 * pricing route, search forgiving "charzard", the charts (a price's, an index's) with their
 * points, Tab to the search box, no sideways scroll.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd } from '../../src/domain/money.js';
import { toUtcDate } from '../../src/domain/time.js';
import { DAY, defineAllSingles, HOUR, PRODUCTS, STORED_KEY, useSeededServer } from '../http/_helpers.js';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const NOW = Date.UTC(2026, 5, 1, 12);
const AT = new Date(NOW - 2 * HOUR).toISOString().replace('.000', '');
const seeded = useSeededServer(NOW);
const plain = PRODUCTS.plain.productKey;

let browser: Browser;
beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`no chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM)`);
  // launch() gives the browser a fresh profile in a temporary directory of its own.
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});
afterAll(async () => browser?.close());

// An index on the seeded catalog, for the index pages (its chart: the base date and the day after).
beforeAll(() => defineAllSingles(seeded.dbPath, toUtcDate(NOW - DAY), NOW - DAY));

/** A signed-in page at `width`, and what it saw go wrong: console errors, failed requests, requests off the server. */
async function signedIn(width: number) {
  const problems: string[] = [];
  const offServer: string[] = [];
  const context: BrowserContext = await browser.newContext({ viewport: { width, height: 800 } });
  // The seeded catalog's images are on img.example: answered here, and counted.
  await context.route(
    (url) => url.origin !== seeded.server.url,
    (route) => {
      offServer.push(route.request().url());
      return route.fulfill({ contentType: 'image/png', body: Buffer.alloc(0) });
    },
  );
  const page: Page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`));
  await page.goto(`${seeded.server.url}/sign-in`);
  await page.fill('#key', STORED_KEY);
  await Promise.all([page.waitForURL(`${seeded.server.url}/`), page.click('form.sign-in button')]);
  return { page, context, problems, offServer };
}

const noSidewaysScroll = (page: Page) =>
  page.evaluate<boolean>('document.documentElement.scrollWidth <= document.documentElement.clientWidth');

describe.each([1280, 375])('at %i px', (width) => {
  let view: Awaited<ReturnType<typeof signedIn>>;
  beforeAll(async () => {
    view = await signedIn(width);
  });
  afterAll(async () => view?.context.close());

  it('finds "charzard" as charizard from the search box, reached by Tab', async () => {
    const { page } = view;
    await page.keyboard.press('Tab'); // the skip link
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement.id')).toBe('q');
    await page.keyboard.type('charzard');
    await Promise.all([page.waitForURL(/\?q=charzard/), page.keyboard.press('Enter')]);
    expect(await page.locator('.note strong').textContent()).toBe('charizard');
    expect(await page.locator('.hits li').count()).toBeGreaterThan(0);
    expect(await noSidewaysScroll(page)).toBe(true);
  });

  it('shows the product page with the pricing route’s figures and the chart with its points', async () => {
    const { page } = view;
    await page.goto(`${seeded.server.url}/products/${encodeURIComponent(plain)}?at=${AT}&range=30d`);
    await page.waitForSelector('.chart-box canvas');
    const api = (await (
      await fetch(`${seeded.server.url}/api/v1/developer/pricing/${encodeURIComponent(plain)}?at=${AT}`, {
        headers: { 'x-api-key': STORED_KEY },
      })
    ).json()) as { ungraded: { price_minor: number }; graded: { PSA: { '10': { price_minor: number } } } };
    expect(await page.locator('[data-slot="ungraded"]').textContent()).toBe(
      formatUsd(api.ungraded.price_minor),
    );
    expect((await page.locator('[data-slot="psa10"]').textContent())?.replace('~', '')).toBe(
      formatUsd(api.graded.PSA['10'].price_minor),
    );
    const points = JSON.parse((await page.locator('#chart-data').textContent())!) as { t: number[] };
    expect(points.t).toHaveLength(31);
    expect(await page.locator('.chart-box').getAttribute('data-points')).toBe('31');
    expect(await page.locator('img').getAttribute('alt')).toContain(PRODUCTS.plain.productName);
    expect(await noSidewaysScroll(page)).toBe(true);
  });

  it("draws an index's chart, its values and band in index points", async () => {
    const { page } = view;
    await page.goto(`${seeded.server.url}/indexes/all-singles?at=${AT}&range=30d`);
    await page.waitForSelector('.chart-box canvas');
    expect(await page.locator('.chart-box').getAttribute('data-points')).toBe('2');
    // The legend shows the values under the cursor, in points (1000 at the base date), not dollars.
    await page.hover('.u-over', { position: { x: 2, y: 10 } });
    const legend = await page.locator('.u-legend').textContent();
    expect(legend).toContain('1,000');
    expect(legend).not.toContain('$');
    expect(await noSidewaysScroll(page)).toBe(true);
  });

  it.each([
    ['indexes', `/indexes?at=${AT}`],
    ['evidence', `/products/${encodeURIComponent(plain)}/evidence?slot=psa10&at=${AT}`],
    ['movers', `/movers?span=24h&at=${AT}`],
    [
      'value',
      `/value?at=${AT}&csv=${encodeURIComponent(`product_key,condition,quantity\n${plain},psa10,2\n`)}`,
    ],
    ['watches', '/watches'],
  ])('shows the %s page without sideways scroll', async (_, path) => {
    const { page } = view;
    await page.goto(seeded.server.url + path);
    await page.waitForLoadState('networkidle');
    expect(await page.locator('h1').count()).toBe(1);
    expect(await noSidewaysScroll(page)).toBe(true);
  });

  it('saw no console error, no failed request, nothing asked of another host but the catalog image', () => {
    expect(view.problems).toEqual([]);
    expect(view.offServer.every((url) => url === PRODUCTS.plain.imageUrl)).toBe(true);
  });
});
