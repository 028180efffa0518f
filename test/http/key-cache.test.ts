// @module-tag sqlite-only: the key cache alone: no store
/**
 * The server's key cache: a session remembers the hash of the connection's key and hashes
 * again only for another key, and a verification is reused only while the data version is
 * the same.
 */
import { describe, expect, it } from 'vitest';
import { createKeyCache, createKeySession } from '../../src/http/key-cache.js';
import type { Oracle } from '../../src/service/oracle.js';

const NOW = Date.now();

/** An oracle that knows two environment keys, counts its verifications, and is at `state.version`. */
function fakeOracle(state: { version: number; verified: number }): Oracle {
  const known = new Map([
    ['ork_env-a', 'env-1'],
    ['ork_env-b', 'env-2'],
  ]);
  const oracle: Partial<Oracle> = {
    dataVersion: () => state.version,
    async verifyKey({ secret }) {
      state.verified += 1;
      const id = known.get(secret);
      return id === undefined ? null : { id, fromEnv: true };
    },
    recordKeyUses: async () => {},
  };
  return oracle as Oracle;
}

describe('key cache', () => {
  it('hashes a key once per connection and again only when the connection presents another key', async () => {
    const keys = createKeyCache(fakeOracle({ version: 1, verified: 0 }));
    const session = createKeySession();
    expect(await keys.verify('ork_env-a', NOW, session)).toEqual({ id: 'env-1', fromEnv: true });
    const hash = session.hash;
    expect(await keys.verify('ork_env-a', NOW, session)).toEqual({ id: 'env-1', fromEnv: true });
    expect(session.hash).toBe(hash);
    // Same length, other bytes: a different key, hashed and judged on its own.
    expect(await keys.verify('ork_env-b', NOW, session)).toEqual({ id: 'env-2', fromEnv: true });
    expect(session.hash).not.toBe(hash);
    expect(await keys.verify('ork_env-c', NOW, session)).toBeNull();
    expect(await keys.verify('ork_env-a', NOW, session)).toEqual({ id: 'env-1', fromEnv: true });
    await keys.close();
  });

  it('asks the oracle again once the data version moved', async () => {
    const state = { version: 1, verified: 0 };
    const keys = createKeyCache(fakeOracle(state));
    const session = createKeySession();
    await keys.verify('ork_env-a', NOW, session);
    await keys.verify('ork_env-a', NOW, session);
    expect(state.verified).toBe(1);
    state.version = 2;
    await keys.verify('ork_env-a', NOW, session);
    expect(state.verified).toBe(2);
    await keys.close();
  });
});
