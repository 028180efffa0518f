/**
 * What an operator relies on: revocation and ingests seen at once by a running server,
 * graceful shutdown. The OpenAPI document: openapi.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/service/keys.js';
import { openStore } from '../../src/store/open-store.js';
import {
  getJson,
  HOUR,
  pricingPath,
  PRODUCTS,
  startServer,
  STORED_KEY,
  useSeededServer,
} from './_helpers.js';
import { nextOrWithinASecond } from '../_pg.js';
import { writeObservations } from '../_store.js';

const NOW = Date.now();
const KEY = { 'x-api-key': STORED_KEY };

const seeded = useSeededServer(NOW);

describe('a server beside other writers', () => {
  it('refuses a key on the next request after another process revokes it', async () => {
    const writer = await openStore(seeded.dbPath);
    await writer.apiKeys.create('key_soon_revoked', 'x', hashApiKey('ork_soon-revoked'), NOW);
    const headers = { 'x-api-key': 'ork_soon-revoked' };
    expect((await fetch(`${seeded.server.url}/api/v1/developer/catalog`, { headers })).status).toBe(200);
    expect((await fetch(`${seeded.server.url}/api/v1/developer/catalog`, { headers })).status).toBe(200);
    await writer.apiKeys.revoke('key_soon_revoked', NOW);
    await writer.close();
    const status = () =>
      fetch(`${seeded.server.url}/api/v1/developer/catalog`, { headers }).then((r) => r.status);
    expect(await nextOrWithinASecond(status, (s) => s === 401)).toBe(401);
  });

  it('serves a fresh bundle as soon as an ingest commits, not the cached one', async () => {
    const path = seeded.server.url + pricingPath(PRODUCTS.unpriced.productKey);
    const before = await getJson(path, KEY);
    expect(before.ungraded.error).toBe('no_observations');
    const writer = await openStore(seeded.dbPath);
    const productId = (await writer.products.findByKey(PRODUCTS.unpriced.productKey))!.id;
    await writeObservations(
      writer,
      [1, 2, 3, 4].map((i) => ({
        productId,
        productKey: PRODUCTS.unpriced.productKey,
        source: 'ebay',
        observedAt: NOW - i * HOUR,
        priceMinor: 5_000 + i,
        grader: 'ungraded',
        grade: null,
        externalId: `late-${i}`,
      })),
    );
    await writer.close();
    const after = await nextOrWithinASecond(
      () => getJson(path, KEY),
      (body) => typeof body.ungraded.price_minor === 'number',
    );
    expect(after.ungraded.price_minor).toEqual(expect.any(Number));
    const catalog = await getJson(`${seeded.server.url}/api/v1/developer/catalog`, KEY);
    const entry = catalog.products.find(
      (p: { product_key: string }) => p.product_key === PRODUCTS.unpriced.productKey,
    );
    expect(entry.earliest_observation).not.toBeNull();
  });

  it('writes last_used_at of stored keys when the service closes', async () => {
    const other = await startServer({ dbPath: seeded.dbPath });
    await fetch(`${other.url}/api/v1/developer/catalog`, { headers: KEY });
    await other.close();
    const reader = await openStore(seeded.dbPath);
    const key = (await reader.apiKeys.list()).find((k) => k.id === 'key_stored')!;
    await reader.close();
    expect(key.lastUsedAt).toBeGreaterThanOrEqual(NOW);
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight request finish, then stops accepting connections', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started = await startServer({
      dbPath: seeded.dbPath,
      envKeys: ['k'],
      override: (oracle) => ({
        ...oracle,
        catalog: async () => {
          await gate;
          return oracle.catalog();
        },
      }),
    });
    try {
      const url = `${started.url}/api/v1/developer/catalog`;
      const inFlight = fetch(url, { headers: { 'x-api-key': 'k' } });
      await new Promise((r) => setTimeout(r, 50));
      const closed = started.server.close(5_000);
      release();
      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(((await res.json()) as { total: number }).total).toBeGreaterThan(0);
      await closed;
      await expect(fetch(url, { headers: { 'x-api-key': 'k' } })).rejects.toThrow();
    } finally {
      // Closes the service, and fails on any response the OpenAPI document does not describe.
      await started.close();
    }
  });
});
