/**
 * No request stalls another (issue 24): while one key runs a burst of the heaviest history
 * requests (HISTORY_MAX_POINTS hourly points, every slot, over a product with sales every few
 * minutes), /health and another key's pricing request are answered within their bounds,
 * against a real server on port 0 in this process (so the server's event loop is the one the
 * burst would block).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_MAX_POINTS, SLOT_KEYS } from '../../src/domain/history.js';
import { toIsoUtc } from '../../src/domain/time.js';
import { openStore } from '../../src/store/open-store.js';
import { tempDir } from '../_setup.js';
import { storedProduct, writeObservations } from '../_store.js';
import { ENV_KEY, HOUR, PRODUCTS, pricingPath, seedDatabase, startServer, STORED_KEY, type TestServer } from './_helpers.js';

const NOW = Math.floor(Date.now() / HOUR) * HOUR;
/** Sales of the heavy product: one every this many minutes over the history's span, in every slot. */
const SALE_EVERY_MINUTES = 12;
/** Heavy requests sent at once: enough to hold the loop for seconds if they ran back to back. */
const BURST = 2;
const HEALTH_MS = 100;
const PRICING_MS = 250;
/** Between two probes: well within the other key's bucket over the burst. */
const PROBE_EVERY_MS = 25;

let server: TestServer;

beforeAll(async () => {
  const dbPath = `${tempDir('oracle-load-')}/oracle.db`;
  await seedDatabase(dbPath, NOW);
  const store = await openStore(dbPath);
  try {
    const { id } = await storedProduct(store, PRODUCTS.plain.productKey);
    const sales = Math.ceil((HISTORY_MAX_POINTS * 60) / SALE_EVERY_MINUTES);
    await writeObservations(
      store,
      Array.from({ length: sales }, (_, i) => {
        const slot = SLOT_KEYS[i % SLOT_KEYS.length]!;
        const graded = slot !== 'ungraded';
        return {
          productId: id,
          productKey: PRODUCTS.plain.productKey,
          source: i % 2 ? 'ebay' : 'tcgplayer',
          observedAt: NOW - 2 * HOUR - i * SALE_EVERY_MINUTES * 60_000,
          priceMinor: 10_000 + ((i * 7919) % 2_000),
          grader: graded ? slot.replace(/\d+$/, '').toUpperCase() : 'ungraded',
          grade: graded ? Number(slot.replace(/^\D+/, '')) : null,
          externalId: `load-${i}`,
        };
      }),
    );
  } finally {
    await store.close();
  }
  server = await startServer({ dbPath, rateLimitPerMinute: 120 });
});
afterAll(() => server.close());

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

async function timed(path: string, key?: string): Promise<{ status: number; ms: number }> {
  const sent = performance.now();
  const res = await fetch(server.url + path, { headers: key ? { 'x-api-key': key } : {} });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - sent };
}

describe('a burst of the heaviest history requests from one key', () => {
  it(`leaves /health within ${HEALTH_MS} ms and another key's bundle within ${PRICING_MS} ms`, async () => {
    const heaviest = pricingPath(
      PRODUCTS.plain.productKey,
      `/history?every=1h&from=${toIsoUtc(NOW - (HISTORY_MAX_POINTS - 1) * HOUR)}&to=${toIsoUtc(NOW)}&slots=${SLOT_KEYS.join(',')}&window_hours=72`,
    );
    // Warm: the first requests of a process compile the code they run.
    await timed(pricingPath(PRODUCTS.spaced.productKey), ENV_KEY);
    await timed(`${heaviest.replace(/from=[^&]+/, `from=${toIsoUtc(NOW - 24 * HOUR)}`)}`, STORED_KEY);
    const burst = Array.from({ length: BURST }, () => timed(heaviest, STORED_KEY));
    const probes: { health: number; pricing: number }[] = [];
    let done = false;
    const all = Promise.all(burst).finally(() => (done = true));
    while (!done) {
      const [health, pricing] = await Promise.all([timed('/api/v1/health'), timed(pricingPath(PRODUCTS.spaced.productKey), ENV_KEY)]);
      expect([health.status, pricing.status]).toEqual([200, 200]);
      probes.push({ health: health.ms, pricing: pricing.ms });
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
    }
    const heavy = await all;
    expect(heavy.map((h) => h.status)).toEqual(burst.map(() => 200));
    // Ten probes or more ran while the burst did (so the bounds were met under load), nine in
    // ten within the bounds: the tenth allows for a machine busy with other processes (the
    // suite's own); a stalled loop holds one probe for as long as the burst lasts.
    expect(probes.length).toBeGreaterThanOrEqual(10);
    expect(percentile(probes.map((p) => p.health), 0.9)).toBeLessThan(HEALTH_MS);
    expect(percentile(probes.map((p) => p.pricing), 0.9)).toBeLessThan(PRICING_MS);
  });
});
