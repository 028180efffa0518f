/**
 * CORS (`serve --cors <origin>`), so a dashboard in a browser can call the API. Off by
 * default. When on, every response carries Access-Control-Allow-Origin for an allowed
 * Origin, and a preflight (OPTIONS with Access-Control-Request-Method) is answered 204
 * allowing GET and HEAD with the key headers; the API stays read-only (a write is still 403).
 */
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';

/** Headers a browser script may read besides the simple ones: the rate limit and the auth challenge. */
const EXPOSED = 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, WWW-Authenticate';
/** How long a browser may reuse a preflight answer, seconds. */
const PREFLIGHT_MAX_AGE_S = 600;

export interface Cors {
  /** Adds the CORS headers of a response to `req` (nothing when its Origin is not allowed). */
  apply(req: IncomingMessage, headers: OutgoingHttpHeaders): void;
  /** True for a preflight request: answer it with `preflightHeaders`. */
  isPreflight(req: IncomingMessage): boolean;
  preflightHeaders(req: IncomingMessage): OutgoingHttpHeaders;
}

/** `origins`: exact origins (`https://dash.example.com`) or `*`. */
export function createCors(origins: readonly string[]): Cors {
  const any = origins.includes('*');
  const allowed = new Set(origins);

  function apply(req: IncomingMessage, headers: OutgoingHttpHeaders): void {
    if (any) {
      headers['access-control-allow-origin'] = '*';
    } else {
      // The answer depends on the Origin: caches must keep one per origin.
      headers.vary = 'Origin';
      const origin = req.headers.origin;
      if (origin === undefined || !allowed.has(origin)) return;
      headers['access-control-allow-origin'] = origin;
    }
    headers['access-control-expose-headers'] = EXPOSED;
  }

  return {
    apply,
    isPreflight: (req) =>
      req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined,
    preflightHeaders(req) {
      const headers: OutgoingHttpHeaders = {
        'access-control-allow-methods': 'GET, HEAD',
        'access-control-allow-headers': 'X-API-Key, Authorization',
        'access-control-max-age': String(PREFLIGHT_MAX_AGE_S),
      };
      apply(req, headers);
      return headers;
    },
  };
}
