/**
 * API key verification. Keys are known only by their SHA-256: environment keys
 * (ORACLE_API_KEYS) are hashed once at start, stored keys are looked up by hash. Comparing
 * digests in constant time means a response's timing tells nothing about a key's bytes.
 *
 * Stored lookups are cached per hash and trusted only while the database is unchanged
 * (PRAGMA data_version moves on every commit by another connection, `oracle keys revoke`
 * included), so a revoked key is refused on the very next request. `last_used_at` is
 * written in batches, not on every request.
 *
 * A client sends the same key on every request of a keep-alive connection, and hashing it
 * was a visible share of a cached request's server CPU (bench/findings.md): a KeySession, one per
 * connection, remembers the last key (compared in constant time) and its digest, so only
 * a new key is hashed. The lookup by digest still runs on every request, so a revocation
 * refuses the very next request on an open connection too.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Store } from '../store/store.js';
import { andThen, type Awaitable } from './awaitable.js';

/** Who is calling: a public key id, safe for logs. */
export interface KeyIdentity {
  id: string;
}

function sha256(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** A new key: its public id and its 256-bit secret (`ork_...`), which is shown once and never stored. */
export function newApiKey(): { id: string; secret: string } {
  return { id: `key_${randomBytes(6).toString('hex')}`, secret: `ork_${randomBytes(32).toString('base64url')}` };
}

/** Hex SHA-256 of a secret, as the api_keys table stores it. */
export function hashApiKey(secret: string): string {
  return sha256(secret).toString('hex');
}

/** Public id of the n-th (0-based) ORACLE_API_KEYS entry; the secret never appears in it. */
function envKeyId(index: number): string {
  return `env-${index + 1}`;
}

/** The last key one connection presented, and its digest: in memory only, for the connection's life, never logged. */
export interface KeySession {
  secret: Buffer | undefined;
  /** Scratch space of the secret's size: the next key presented is written here to be compared, allocating nothing. */
  probe: Buffer | undefined;
  digest: Buffer | undefined;
  hash: string | undefined;
}

/** A session for a new connection: it knows no key yet. */
export function createKeySession(): KeySession {
  return { secret: undefined, probe: undefined, digest: undefined, hash: undefined };
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

/** Runs `fn` against the open store with its current data version (synchronously when it is open). */
export type WithStore = <T>(fn: (store: Store, version: number) => Awaitable<T>) => Awaitable<T>;

export interface KeyVerifier {
  /** The caller's identity, or null when the key is unknown or revoked; `session` is the connection's. */
  verify(secret: string, now: number, withStore: WithStore, session?: KeySession): Awaitable<KeyIdentity | null>;
  /** Writes the pending last-used times in one transaction of `write`. */
  flush(write: (fn: (store: Store) => Promise<void>) => Promise<void>): Promise<void>;
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
  const lookups = new LRUCache<string, CachedLookup>({ max: MAX_CACHED_LOOKUPS });
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
    verify(secret, now, withStore, session = createKeySession()) {
      if (!isSessionKey(session, secret)) {
        session.secret = Buffer.from(secret);
        session.probe = Buffer.alloc(session.secret.length);
        session.digest = sha256(secret);
        session.hash = session.digest.toString('hex');
      }
      const digest = session.digest as Buffer;
      const fromEnv = matchEnv(digest);
      if (fromEnv) return fromEnv;
      const hash = session.hash as string;
      const stored = withStore((store, version): Awaitable<KeyIdentity | null> => {
        const cached = lookups.get(hash);
        if (cached && cached.version === version) return cached.identity;
        return store.apiKeys.findByHash(hash).then((record) => {
          const found = record && record.revokedAt === null ? { id: record.id } : null;
          lookups.set(hash, { identity: found, version });
          return found;
        });
      });
      return andThen(stored, (identity) => {
        if (identity) lastUsed.set(identity.id, now);
        return identity;
      });
    },
    async flush(write) {
      if (lastUsed.size === 0) return;
      const pending = [...lastUsed];
      lastUsed.clear();
      await write((store) => store.apiKeys.touch(pending));
    },
    reset: () => lookups.clear(),
  };
}
