// @module-tag sqlite-only: the server's turns under a burst: scheduling in the server, the same on every
// store
/**
 * No request stalls another (issue 24): while one key runs a burst of the heaviest history
 * requests (HISTORY_MAX_POINTS hourly points, every slot, over a product with sales every few
 * minutes), /health and another key's pricing request are answered again and again while the
 * burst runs, and another key's history waits for one of the burst's, not all: against a real
 * server on port 0 in this process (so the server's event loop is the one the burst would
 * block). How fast they are answered (p99 bounds) and how long the loop is held (CPU time)
 * are figures of `npm run bench -- --only load`, not bounds here: wall time also measures how
 * busy the machine is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_MAX_POINTS, SLOT_KEYS } from '../../src/domain/history.js';
import { toIsoUtc } from '../../src/domain/time.js';
import { openStore } from '../../src/store/open-store.js';
import { tempDir } from '../_setup.js';
import { storedProduct, writeObservations } from '../_store.js';
import {
  ENV_KEY,
  HOUR,
  PRODUCTS,
  pricingPath,
  seedDatabase,
  startServer,
  STORED_KEY,
  type TestServer,
} from './_helpers.js';

const NOW = Math.floor(Date.now() / HOUR) * HOUR;
/** Sales of the heavy product: one every this many minutes over the history's span, in every slot. */
const SALE_EVERY_MINUTES = 12;
/** Heavy requests sent at once: enough to hold the loop for seconds if they ran back to back. */
const BURST = 2;
/** Between two probes. */
const PROBE_EVERY_MS = 25;
/**
 * Keyed probes at most: well within the other key's bucket (120 a minute), however long a busy
 * machine makes the burst last; /health, which no bucket limits, goes on being probed.
 */
const KEYED_PROBES = 60;

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
  // history.test.ts checks the history body against the OpenAPI document.
  server = await startServer({ dbPath, rateLimitPerMinute: 120, checkResponses: false });
});
afterAll(() => server.close());

async function answered(path: string, key?: string): Promise<{ status: number }> {
  const res = await fetch(server.url + path, { headers: key ? { 'x-api-key': key } : {} });
  await res.arrayBuffer();
  return { status: res.status };
}

describe('a burst of the heaviest history requests from one key', () => {
  it("leaves /health and another key's bundle answered while it runs, and the other key's history behind one of the burst's", async () => {
    const heaviest = pricingPath(
      PRODUCTS.plain.productKey,
      `/history?every=1h&from=${toIsoUtc(NOW - (HISTORY_MAX_POINTS - 1) * HOUR)}&to=${toIsoUtc(NOW)}&slots=${SLOT_KEYS.join(',')}&window_hours=72`,
    );
    const short = heaviest.replace(/from=[^&]+/, `from=${toIsoUtc(NOW - 24 * HOUR)}`);
    // Warm: the first requests of a process compile the code they run.
    await answered(pricingPath(PRODUCTS.spaced.productKey), ENV_KEY);
    await answered(short, STORED_KEY);
    const order: string[] = [];
    const burst = Array.from({ length: BURST }, (_, i) =>
      answered(heaviest, STORED_KEY).finally(() => order.push(`burst ${i}`)),
    );
    let probes = 0;
    let other: Promise<{ status: number }> | undefined;
    let done = false;
    const all = Promise.all(burst).finally(() => (done = true));
    while (!done) {
      const [health, pricing] = await Promise.all([
        answered('/api/v1/health'),
        probes < KEYED_PROBES
          ? answered(pricingPath(PRODUCTS.spaced.productKey), ENV_KEY)
          : Promise.resolve({ status: 200 }),
      ]);
      expect([health.status, pricing.status]).toEqual([200, 200]);
      probes += 1;
      // Sent once the burst is in (a probe came back after it): another key's short history.
      other ??= answered(short, ENV_KEY).finally(() => order.push('other key'));
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
    }
    const heavy = await all;
    expect(heavy.map((h) => h.status)).toEqual(burst.map(() => 200));
    expect((await other!).status).toBe(200);
    // Turns go round the keys: the other key's history runs after the burst's first, before its last.
    expect(order.indexOf('other key')).toBeLessThan(order.indexOf(`burst ${BURST - 1}`));
    // Probes were answered while the burst ran: a loop held for the whole burst answers the
    // first probe only once the burst is over, and the loop above stops after it.
    expect(probes).toBeGreaterThanOrEqual(2);
  });
});
