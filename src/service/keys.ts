/**
 * API keys: made, hashed and verified. A key is known only by its SHA-256: environment keys
 * (ORACLE_API_KEYS) are hashed once, stored keys are looked up by hash. Comparing digests in
 * constant time means a response's timing tells nothing about a key's bytes. Loaded by the
 * oracle on the first key it makes or checks, so no other command loads node:crypto.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../store/store.js';

/** Who is calling: a public key id, safe for logs. */
export interface KeyIdentity {
  id: string;
  /** A key of ORACLE_API_KEYS: not stored, so it has no last-used time to write. */
  fromEnv: boolean;
}

export function sha256(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** A new key: its public id and its 256-bit secret (`ork_...`), which is shown once and never stored. */
export function newApiKey(): { id: string; secret: string } {
  return {
    id: `key_${randomBytes(6).toString('hex')}`,
    secret: `ork_${randomBytes(32).toString('base64url')}`,
  };
}

/** Hex SHA-256 of a secret, as the api_keys table stores it. */
export function hashApiKey(secret: string): string {
  return sha256(secret).toString('hex');
}

/** Public id of the n-th (0-based) ORACLE_API_KEYS entry; the secret never appears in it. */
function envKeyId(index: number): string {
  return `env-${index + 1}`;
}

/** The caller's identity for `secret`, or null when the key is unknown or revoked. */
export type KeyVerifier = (store: Store, secret: string) => Promise<KeyIdentity | null>;

export function createKeyVerifier(envKeys: readonly string[]): KeyVerifier {
  const envDigests = envKeys.map(sha256);
  return async (store, secret) => {
    const digest = sha256(secret);
    let match = -1;
    // No early exit: every environment key is compared, whichever matches.
    envDigests.forEach((known, index) => {
      if (timingSafeEqual(known, digest)) match = index;
    });
    if (match !== -1) return { id: envKeyId(match), fromEnv: true };
    const record = await store.apiKeys.findByHash(digest.toString('hex'));
    return record && record.revokedAt === null ? { id: record.id, fromEnv: false } : null;
  };
}
