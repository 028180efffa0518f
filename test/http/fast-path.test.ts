/**
 * The request path's shortcuts keep their promises: a keep-alive connection's remembered key
 * never outlives a revocation or a key change, cached answers come back without a promise,
 * and the LRU's shortcut for the newest entry keeps the eviction order.
 */
import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createApiService } from '../../src/service/api-service.js';
import { createKeySession, createKeyVerifier, hashApiKey, type WithStore } from '../../src/service/key-verifier.js';
import { LruCache } from '../../src/service/lru-cache.js';
import { createOfflineResolver } from '../../src/service/refsource-resolver.js';
import { openStore, type Store } from '../../src/store/store.js';
import { ENV_KEY, pricingPath, PRODUCTS, REVOKED_KEY, STORED_KEY, useSeededServer } from './_helpers.js';

const NOW = Date.now();
const seeded = useSeededServer(NOW);
const { dbPath } = seeded;

/** GETs over `agent`; says whether the request went out on an already used socket. */
function get(agent: Agent, path: string, key: string): Promise<{ status: number; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(`${seeded.server.url}${path}`, { agent, headers: { 'x-api-key': key } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('keys on one keep-alive connection', () => {
  it('answers each request for the key it presents, whichever came before on the connection', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const path = pricingPath(PRODUCTS.plain.productKey);
      const answers = [];
      for (const key of [STORED_KEY, STORED_KEY, 'ork_wrong', ENV_KEY, REVOKED_KEY, STORED_KEY, `${STORED_KEY.slice(0, -1)}X`]) {
        answers.push(await get(agent, path, key));
      }
      expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 200, 401, 200, 401]);
      expect(answers.slice(1).every((a) => a.reused)).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it('refuses a key on the next request of the same connection after another process revokes it', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const writer = await openStore(dbPath);
    try {
      writer.apiKeys.create('key_conn_revoked', 'x', hashApiKey('ork_conn-revoked'), NOW);
      const path = '/api/v1/developer/catalog';
      expect((await get(agent, path, 'ork_conn-revoked')).status).toBe(200);
      expect((await get(agent, path, 'ork_conn-revoked')).status).toBe(200);
      writer.apiKeys.revoke('key_conn_revoked', NOW);
      expect(await get(agent, path, 'ork_conn-revoked')).toEqual({ status: 401, reused: true });
    } finally {
      writer.close();
      agent.destroy();
    }
  });
});

describe('key sessions', () => {
  const noStore: WithStore = (fn) => fn({ apiKeys: { findByHash: () => undefined } } as unknown as Store, 1);

  it('hash a key once per connection and again only when the connection presents another key', () => {
    const verifier = createKeyVerifier(['ork_env-a', 'ork_env-b']);
    const session = createKeySession();
    expect(verifier.verify('ork_env-a', NOW, noStore, session)).toEqual({ id: 'env-1' });
    const digest = session.digest;
    expect(verifier.verify('ork_env-a', NOW, noStore, session)).toEqual({ id: 'env-1' });
    expect(session.digest).toBe(digest);
    // Same length, other bytes: a different key, hashed and judged on its own.
    expect(verifier.verify('ork_env-b', NOW, noStore, session)).toEqual({ id: 'env-2' });
    expect(session.digest).not.toBe(digest);
    expect(verifier.verify('ork_env-c', NOW, noStore, session)).toBeNull();
    expect(verifier.verify('ork_env-a', NOW, noStore, session)).toEqual({ id: 'env-1' });
  });
});

describe('cached answers', () => {
  it('come back without a promise once the store is open', async () => {
    const service = createApiService({ dbPath, resolver: createOfflineResolver(), envKeys: [] });
    try {
      const session = createKeySession();
      const query = { windowHours: 24, outlierStddevs: 2 };
      // The first call opens the store: a promise.
      expect(await service.verifyKey(STORED_KEY, NOW, session)).toEqual({ id: 'key_stored' });
      expect(service.verifyKey(STORED_KEY, NOW, session)).toEqual({ id: 'key_stored' });
      const bundle = service.pricing(PRODUCTS.plain.productKey, query, NOW);
      expect(bundle).not.toBeInstanceOf(Promise);
      expect(service.pricing(PRODUCTS.plain.productKey, query, NOW)).toBe(bundle);
    } finally {
      await service.close();
    }
  });
});

describe('LruCache', () => {
  it('evicts the least recently used entry, reads of the newest entry included', () => {
    const cache = new LruCache<string, number>(3);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('c')).toBe(3);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('a')).toBe(1);
    cache.set('d', 4);
    expect(cache.get('b')).toBeUndefined();
    cache.delete('d');
    expect(cache.get('c')).toBe(3);
    cache.set('e', 5);
    cache.set('f', 6);
    expect([cache.get('a'), cache.get('c'), cache.get('e'), cache.get('f')]).toEqual([undefined, 3, 5, 6]);
    expect(cache.size).toBe(3);
  });
});
