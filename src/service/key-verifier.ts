/**
 * API key verification. Keys are known only by their SHA-256: environment keys
 * (ORACLE_API_KEYS) are hashed once at start, stored keys are looked up by hash. Comparing
 * digests in constant time means a response's timing tells nothing about a key's bytes.
 *
 * Stored lookups are cached per hash and trusted only while the database is unchanged
 * (PRAGMA data_version moves on every commit by another connection, `oracle keys revoke`
 * included), so a revoked key is refused on the very next request. `last_used_at` is
 * written in batches, not on every request.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Store } from '../store/store.js';
import { LruCache } from './lru-cache.js';

/** Who is calling: a public key id, safe for logs. */
export interface KeyIdentity {
  id: string;
}

function sha256(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** Hex SHA-256 of a secret, as the api_keys table stores it. */
export function hashApiKey(secret: string): string {
  return sha256(secret).toString('hex');
}

/** Public id of the n-th (0-based) ORACLE_API_KEYS entry; the secret never appears in it. */
function envKeyId(index: number): string {
  return `env-${index + 1}`;
}

/** Runs `fn` against the open store with its current data version. */
export type WithStore = <T>(fn: (store: Store, version: number) => T) => Promise<T>;

export interface KeyVerifier {
  /** The caller's identity, or null when the key is unknown or revoked. */
  verify(secret: string, now: number, withStore: WithStore): Promise<KeyIdentity | null>;
  /** Writes the pending last-used times. */
  flush(withStore: WithStore): Promise<void>;
  /** Forgets cached lookups (the connection was reopened: data versions start over). */
  reset(): void;
}

interface CachedLookup {
  identity: KeyIdentity | null;
  version: number;
}

/** Unknown hashes are cached too, so a bound keeps a flood of random keys from growing memory. */
const MAX_CACHED_LOOKUPS = 10_000;

export function createKeyVerifier(envKeys: readonly string[]): KeyVerifier {
  const envDigests = envKeys.map(sha256);
  const lookups = new LruCache<string, CachedLookup>(MAX_CACHED_LOOKUPS);
  const lastUsed = new Map<string, number>();

  function matchEnv(digest: Buffer): KeyIdentity | null {
    let match = -1;
    // No early exit: every environment key is compared, whichever matches.
    envDigests.forEach((known, index) => {
      if (timingSafeEqual(known, digest)) match = index;
    });
    return match === -1 ? null : { id: envKeyId(match) };
  }

  return {
    async verify(secret, now, withStore) {
      const digest = sha256(secret);
      const fromEnv = matchEnv(digest);
      if (fromEnv) return fromEnv;
      const hash = digest.toString('hex');
      const identity = await withStore((store, version) => {
        const cached = lookups.get(hash);
        if (cached && cached.version === version) return cached.identity;
        const record = store.apiKeys.findByHash(hash);
        const found = record && record.revokedAt === null ? { id: record.id } : null;
        lookups.set(hash, { identity: found, version });
        return found;
      });
      if (identity) lastUsed.set(identity.id, now);
      return identity;
    },
    async flush(withStore) {
      if (lastUsed.size === 0) return;
      const pending = [...lastUsed];
      lastUsed.clear();
      await withStore((store) => store.transaction(() => pending.forEach(([id, at]) => store.apiKeys.touch(id, at))));
    },
    reset: () => lookups.clear(),
  };
}
