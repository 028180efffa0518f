/** A key session remembers the digest of the connection's key and hashes again only for another key. */
import { describe, expect, it } from 'vitest';
import { createKeySession, createKeyVerifier, type WithStore } from '../../src/service/key-verifier.js';
import type { Store } from '../../src/store/store.js';

const NOW = Date.now();

describe('key sessions', () => {
  const noStore: WithStore = (fn) => fn({ apiKeys: { findByHash: async () => undefined } } as unknown as Store, 1);

  it('hash a key once per connection and again only when the connection presents another key', async () => {
    const verifier = createKeyVerifier(['ork_env-a', 'ork_env-b']);
    const session = createKeySession();
    expect(verifier.verify('ork_env-a', NOW, noStore, session)).toEqual({ id: 'env-1' });
    const digest = session.digest;
    expect(verifier.verify('ork_env-a', NOW, noStore, session)).toEqual({ id: 'env-1' });
    expect(session.digest).toBe(digest);
    // Same length, other bytes: a different key, hashed and judged on its own.
    expect(verifier.verify('ork_env-b', NOW, noStore, session)).toEqual({ id: 'env-2' });
    expect(session.digest).not.toBe(digest);
    expect(await verifier.verify('ork_env-c', NOW, noStore, session)).toBeNull();
    expect(verifier.verify('ork_env-a', NOW, noStore, session)).toEqual({ id: 'env-1' });
  });
});
