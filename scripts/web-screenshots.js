#!/usr/bin/env node
// The screenshots of docs/web.md: each page of a running `oracle serve` (its URL and a key in
// ORACLE_WEB_URL, ORACLE_API_KEY), signed in, at 1280 px wide, with Debian's chromium
// (CHROMIUM, default /usr/bin/chromium). Usage: node scripts/web-screenshots.js [out dir] [width]
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';

const base = process.env.ORACLE_WEB_URL ?? 'http://127.0.0.1:8080';
const key = process.env.ORACLE_API_KEY;
const out = process.argv[2] ?? 'docs/web';
const width = Number(process.argv[3] ?? 1280);
const at = process.env.ORACLE_WEB_AT ?? '2026-11-23T05:00:00Z';
const flagship = 'pokemon-base-set-charizard-4-102';
const collection = readFileSync(new URL('../examples/collection.csv', import.meta.url), 'utf8');
const pages = [
  ['home', `/?q=charzard&at=${at}`],
  ['product', `/products/${flagship}?at=${at}`],
  ['evidence', `/products/${flagship}/evidence?slot=psa10&at=${at}`],
  ['movers', `/movers?span=30d&at=${at}`],
  ['value', `/value?at=${at}&csv=${encodeURIComponent(collection)}`],
  ['watches', '/watches'],
  ['indexes', `/indexes?at=${at}`],
  ['index', `/indexes/vintage-psa10?at=${at}`],
  ['sign-in', '/sign-in'],
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  // Catalog images are on other hosts, which this machine may not reach: a grey stand-in.
  await context.route(
    (url) => !url.href.startsWith(base),
    (route) =>
      route.fulfill({
        contentType: 'image/svg+xml',
        body: '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="223"><rect width="160" height="223" fill="#ccd"/></svg>',
      }),
  );
  const page = await context.newPage();
  if (key !== undefined) {
    await page.goto(`${base}/sign-in`);
    await page.fill('#key', key);
    await page.click('form.sign-in button');
  }
  for (const [name, path] of pages) {
    await page.goto(base + path);
    await page.waitForLoadState('networkidle');
    // The evidence page lists every observation read: its first screen shows the form of the rest.
    await page.screenshot({
      path: `${out}/${name}${width === 1280 ? '' : `-${width}`}.png`,
      fullPage: name !== 'evidence',
    });
    process.stdout.write(`${out}/${name}.png\n`);
  }
} finally {
  await browser.close();
}
