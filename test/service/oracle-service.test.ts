/** The service's cached answers come back without a promise, so the request path can skip an await. */
import { beforeAll, describe, expect, it } from 'vitest';
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
