/**
 * The server's side of API keys: the oracle verifies a key (service/keys.ts); this keeps what
 * repeated requests would otherwise redo, and gathers the keys' last-used times.
 *
 * A client sends the same key on every request of a keep-alive connection, and hashing it
 * was a visible share of a cached request's server CPU (bench/findings.md): a KeySession, one
 * per connection, remembers the last key (compared in constant time) and its hash, so only a
 * new key is hashed. Verifications are cached per hash and trusted only while the data
 * version is unchanged (it moves on every commit by another connection, `oracle keys revoke`
 * included), so a revoked key is refused on the very next request, on an open connection
 * too. `last_used_at` is written in batches, not on every request.
 */
import { timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { sha256, type KeyIdentity } from '../service/keys.js';
import type { Oracle } from '../service/oracle.js';

/** The last key one connection presented, and its hash: in memory only, for the connection's life, never logged. */
export interface KeySession {
  secret: Buffer | undefined;
  /** Scratch space of the secret's size: the next key presented is written here to be compared, allocating nothing. */
  probe: Buffer | undefined;
  hash: string | undefined;
}

/** A session for a new connection: it knows no key yet. */
export function createKeySession(): KeySession {
  return { secret: undefined, probe: undefined, hash: undefined };
}

/** Whether `secret` is the session's key: equal UTF-8 bytes, compared in constant time. */
function isSessionKey(session: KeySession, secret: string): boolean {
  const { secret: known, probe } = session;
  // The length is compared first (timingSafeEqual needs equal lengths); it can only tell a
  // client about the key it sent itself on the same connection.
  if (known === undefined || probe === undefined || Buffer.byteLength(secret) !== known.length) return false;
  probe.write(secret);
  return timingSafeEqual(probe, known);
}

/** How often pending `last_used_at` times are written. */
export const KEY_TOUCH_INTERVAL_MS = 30_000;

/** Unknown hashes are cached too, so a bound keeps a flood of random keys from growing memory. */
const MAX_CACHED_LOOKUPS = 10_000;

export interface KeyCache {
  /** The caller's identity, or null when the key is unknown or revoked; `session` is the connection's. */
  verify(secret: string, now: number, session: KeySession): Promise<KeyIdentity | null>;
  /** Stops the periodic writes and writes the pending last-used times. */
  close(): Promise<void>;
}

export function createKeyCache(oracle: Oracle): KeyCache {
  const lookups = new LRUCache<string, { identity: KeyIdentity | null; version: number }>({
    max: MAX_CACHED_LOOKUPS,
  });
  const lastUsed = new Map<string, number>();
  async function flush(): Promise<void> {
    if (lastUsed.size === 0) return;
    const pending = [...lastUsed];
    lastUsed.clear();
    await oracle.recordKeyUses({ uses: pending });
  }
  // Started by the first key verified, so making the cache starts nothing.
  let touchTimer: NodeJS.Timeout | undefined;
  function startTouching(): void {
    touchTimer = setInterval(() => {
      flush().catch(() => {
        // Last-used times are best effort: a locked or missing file must not stop serving.
      });
    }, KEY_TOUCH_INTERVAL_MS);
    touchTimer.unref();
  }

  return {
    async verify(secret, now, session) {
      if (!touchTimer) startTouching();
      if (!isSessionKey(session, secret)) {
        session.secret = Buffer.from(secret);
        session.probe = Buffer.alloc(session.secret.length);
        session.hash = sha256(secret).toString('hex');
      }
      const hash = session.hash as string;
      const version = oracle.dataVersion();
      const cached = lookups.get(hash);
      let identity: KeyIdentity | null;
      if (cached !== undefined && cached.version === version) {
        identity = cached.identity;
      } else {
        identity = await oracle.verifyKey({ secret });
        lookups.set(hash, { identity, version });
      }
      if (identity !== null && !identity.fromEnv) lastUsed.set(identity.id, now);
      return identity;
    },
    async close() {
      clearInterval(touchTimer);
      await flush().catch(() => {});
    },
  };
}
