/**
 * The one service: its cached answers come back without a promise, so the request path can
 * skip an await, and the keys a command makes are the keys a server over the same file accepts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createCommandStore } from '../../src/service/command-store.js';
import { createOracleService } from '../../src/service/oracle-service.js';
import { createKeySession } from '../../src/service/key-verifier.js';
import { createOfflineResolver } from '../../src/service/refsource-resolver.js';
import { createStoreHandle } from '../../src/service/store-handle.js';
import { tempDir } from '../_setup.js';
import { PRODUCTS, seedDatabase, STORED_KEY } from '../http/_helpers.js';

const NOW = Date.now();
const dbPath = `${tempDir('oracle-service-')}/oracle.db`;
beforeAll(() => seedDatabase(dbPath, NOW));

describe('cached answers', () => {
  it('come back without a promise once the store is open', async () => {
    const service = createOracleService({ store: createStoreHandle(dbPath), resolver: createOfflineResolver(), envKeys: [] });
    try {
      const session = createKeySession();
      const query = { windowHours: 24, outlierStddevs: 2 };
      // The first call opens the store: a promise.
      expect(await service.verifyKey(STORED_KEY, NOW, session)).toEqual({ id: 'key_stored' });
      expect(service.verifyKey(STORED_KEY, NOW, session)).toEqual({ id: 'key_stored' });
      const ref = { productKey: PRODUCTS.plain.productKey };
      // The first computes the bundle (reading the store: a promise), the next is the cached one.
      const computed = await service.price(ref, query, NOW);
      const bundle = service.price(ref, query, NOW);
      expect(bundle).not.toBeInstanceOf(Promise);
      expect(bundle).toBe(computed);
    } finally {
      await service.close();
    }
  });
});

describe('keys', () => {
  it('makes, lists and revokes keys that a server over the same file accepts, then refuses', async () => {
    const command = () => createOracleService({ store: createCommandStore(dbPath) });
    const maker = command();
    const { id, secret } = await maker.createKey('integration', NOW);
    await maker.close();
    expect(id).toMatch(/^key_[0-9a-f]{12}$/);
    expect(secret).toMatch(/^ork_[\w-]{43}$/);

    const server = createOracleService({ store: createStoreHandle(dbPath, { fileCheckIntervalMs: 0 }), envKeys: [] });
    try {
      expect(await server.verifyKey(secret, NOW)).toEqual({ id });
      const lister = command();
      const listed = await lister.listKeys();
      await lister.close();
      expect(listed.find((k) => k.id === id)).toMatchObject({ label: 'integration', createdAt: NOW, revokedAt: null });
      expect(JSON.stringify(listed)).not.toContain(secret);

      const revoker = command();
      expect(await revoker.revokeKey(id, NOW + 1)).toBe(true);
      expect(await revoker.revokeKey(id, NOW + 2)).toBe(false); // already revoked
      await revoker.close();
      // The next turn of the server sees the write (data_version moved) and refuses the key.
      await new Promise((resolve) => setImmediate(resolve));
      expect(await server.verifyKey(secret, NOW + 3)).toBeNull();
    } finally {
      await server.close();
    }
  });
});
