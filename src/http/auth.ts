/**
 * API key extraction (SPEC.md section 5): `X-API-Key: <key>` or `Authorization: Bearer <key>`.
 * Verification (hashing, constant-time comparison, revocation) is the oracle's job, through
 * the server's key cache (key-cache.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { KeyCache, KeySession } from './key-cache.js';
import { UnauthorizedError } from './errors.js';
import { keyHeaders } from './schemas.js';
import { cookieKey } from './pages/access.js';

/**
 * The key the request presents, if any. X-API-Key wins when both headers are sent; without
 * either, a browser's sign-in cookie (pages/access.ts), so a page's JSON twin opens in it.
 */
export function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const key = keyHeaders.parse(headers);
  return key['x-api-key'] ?? key.authorization ?? cookieKey(headers);
}

/**
 * The public id of the request's key; rejects with UnauthorizedError (401) when it has none
 * or a bad one. `session` is the connection's: its next request with the same key skips the hash.
 */
export async function authenticate(
  headers: IncomingHttpHeaders,
  keys: KeyCache,
  now: number,
  session: KeySession,
): Promise<string> {
  const key = presentedKey(headers);
  if (key === undefined) {
    throw new UnauthorizedError('missing API key: send X-API-Key: <key> or Authorization: Bearer <key>');
  }
  const identity = await keys.verify(key, now, session);
  if (!identity) throw new UnauthorizedError('invalid or revoked API key');
  return identity.id;
}
