/**
 * How a browser presents its API key: once, through the sign-in form, after which it holds the
 * key in a cookie that no script of any page can read (HttpOnly) and that no other site's page
 * sends (SameSite=Strict), so the key is never in a URL, a page or a log line. The server keeps
 * nothing: the cookie is the key, checked on every request as an X-API-Key header is.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { MalformedRequestError } from '../errors.js';

export const KEY_COOKIE = 'oracle_key';
/** How long a browser keeps the key: 30 days, then it signs in again. */
const COOKIE_MAX_AGE_S = 30 * 86_400;
/** A sign-in form is a key and a path: anything longer is not one. */
const MAX_FORM_BYTES = 4_096;

/** The key of the request's cookie, if it carries one. */
export function cookieKey(headers: IncomingHttpHeaders): string | undefined {
  for (const pair of (headers.cookie ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq !== -1 && pair.slice(0, eq).trim() === KEY_COOKIE) {
      try {
        const key = decodeURIComponent(pair.slice(eq + 1).trim());
        return key === '' ? undefined : key;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** `Secure` too when the request came through HTTPS (a proxy in front says so). */
const secure = (req: IncomingMessage) => (req.headers['x-forwarded-proto'] === 'https' ? '; Secure' : '');

export const keyCookie = (req: IncomingMessage, key: string): string =>
  `${KEY_COOKIE}=${encodeURIComponent(key)}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${COOKIE_MAX_AGE_S}${secure(req)}`;

export const clearedCookie = (req: IncomingMessage): string =>
  `${KEY_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0${secure(req)}`;

/** An application/x-www-form-urlencoded body of at most MAX_FORM_BYTES. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES)
      throw new MalformedRequestError(`the form is over ${MAX_FORM_BYTES} bytes: a sign-in is a key`);
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Where to go after signing in: a path of this server, never another site. */
export function localPath(next: string | null | undefined): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}
