/**
 * The pages on the server (docs/web.md): each GET goes key (the sign-in cookie, or none in
 * `--public` mode), rate limit (the key's bucket, the API's), query, the page's reads of the
 * API routes, HTML out. The sign-in form's POST sets the cookie and sign-out's clears it: they
 * change the browser, never the server's data. Every other method is refused as the API
 * refuses it (403).
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Polka, Request } from 'polka';
import type { Oracle } from '../../service/oracle.js';
import type { AccessLogEntry } from '../access-log.js';
import { httpFailure, RateLimitedError, ReadOnlyError, UnauthorizedError } from '../errors.js';
import type { KeyCache, KeySession } from '../key-cache.js';
import { checkPath, readQuery } from '../query.js';
import type { RateLimiter } from '../rate-limit.js';
import type { ServerCache } from '../server-cache.js';
import { clearedCookie, cookieKey, keyCookie, localPath, readForm } from './access.js';
import { ASSETS } from './assets.js';
import { href } from './html.js';
import { renderErrorPage, renderPage } from './layout.js';
import { PAGES, type Page } from './pages.js';
import { renderSignIn } from './sign-in-page.js';

/** Who may read the pages: holders of a key (signed in), or anyone who reaches the server (`serve --public`). */
export type PageAccess = 'signed-in' | 'public';

export interface PageServer {
  oracle: Oracle;
  cache: ServerCache;
  keys: KeyCache;
  limiter: RateLimiter;
  access: PageAccess;
  now: () => number;
  session(req: IncomingMessage): KeySession;
  /** Writes the whole answer (HEAD: headers only). */
  send(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    body: string | Buffer,
    headers: OutgoingHttpHeaders,
    type: string,
  ): void;
  log(entry: AccessLogEntry): void;
  logFailure(req: IncomingMessage, route: string | null, status: number, error: unknown): void;
}

const HTML_TYPE = 'text/html; charset=utf-8';
/**
 * Scripts, styles and requests from this server only; images also from https hosts (a
 * product's catalog image). No referrer leaves a page: a collection's text is in its URL.
 */
const PAGE_HEADERS: OutgoingHttpHeaders = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};
const READ_METHODS = new Set(['GET', 'HEAD']);

/** The key id of the request's cookie, or null (none, unknown or revoked). */
async function cookieKeyId(s: PageServer, req: IncomingMessage, at: number): Promise<string | null> {
  const key = cookieKey(req.headers);
  if (key === undefined) return null;
  return (await s.keys.verify(key, at, s.session(req)))?.id ?? null;
}

async function takeToken(
  s: PageServer,
  bucket: string,
  at: number,
  headers: OutgoingHttpHeaders,
): Promise<void> {
  const decision = await s.limiter.take(bucket, at);
  if (!decision.allowed) {
    headers['retry-after'] = String(decision.retryAfterSeconds);
    throw new RateLimitedError(decision.retryAfterSeconds);
  }
}

/** The bucket of a reader without a key (`--public`): their address's. */
const addressBucket = (req: IncomingMessage) => `web:${req.socket.remoteAddress ?? 'unknown'}`;

function pageHandler(s: PageServer, page: Page) {
  return async (req: Request, res: ServerResponse) => {
    const started = performance.now();
    const at = s.now();
    const headers: OutgoingHttpHeaders = { ...PAGE_HEADERS };
    let keyId: string | null = null;
    let status = 200;
    try {
      if (!READ_METHODS.has(req.method))
        throw new ReadOnlyError(`the pages are read-only: ${req.method} is not allowed, use GET or HEAD`);
      keyId = await cookieKeyId(s, req, at);
      if (keyId === null && s.access === 'signed-in') {
        status = 303;
        headers.location = href('/sign-in', { next: req.url });
        s.send(req, res, status, '', headers, HTML_TYPE);
      } else {
        await takeToken(s, keyId ?? addressBucket(req), at, headers);
        checkPath(req.path);
        const raw = readQuery(req.search ?? '', page.query);
        const query = Object.fromEntries(
          Object.entries(raw).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : value]),
        );
        const content = await page.load({
          params: req.params,
          query,
          now: at,
          oracle: s.oracle,
          cache: s.cache,
          keyId,
        });
        s.send(
          req,
          res,
          200,
          renderPage({ ...content, signedIn: keyId !== null }, content.body),
          headers,
          HTML_TYPE,
        );
      }
    } catch (error) {
      status = fail(s, req, res, error, page.path, headers, keyId !== null);
    }
    s.log({ method: req.method, route: page.path, status, ms: performance.now() - started, keyId });
  };
}

/** A refused or failed page: its status and the API's `{detail}` as a page; a 5xx logged with its cause. */
function fail(
  s: PageServer,
  req: IncomingMessage,
  res: ServerResponse,
  error: unknown,
  route: string,
  headers: OutgoingHttpHeaders,
  signedIn: boolean,
): number {
  const { status, detail } = httpFailure(error);
  if (status >= 500) s.logFailure(req, route, status, error);
  if (res.headersSent) res.destroy();
  else s.send(req, res, status, renderErrorPage(status, detail, signedIn), headers, HTML_TYPE);
  return status;
}

function signInPage(refused: string | null, next: string, signedIn: boolean): string {
  return renderPage({ title: 'Sign in', twins: [], signedIn }, renderSignIn(next, refused));
}

function signInHandler(s: PageServer) {
  return async (req: Request, res: ServerResponse) => {
    const started = performance.now();
    const at = s.now();
    const headers: OutgoingHttpHeaders = { ...PAGE_HEADERS };
    let keyId: string | null = null;
    let status = 200;
    try {
      if (READ_METHODS.has(req.method)) {
        const next = localPath(new URLSearchParams(req.search ?? '').get('next'));
        s.send(req, res, 200, signInPage(null, next, false), headers, HTML_TYPE);
      } else if (req.method === 'POST') {
        const form = await readForm(req);
        const next = localPath(form.get('next'));
        const key = form.get('key')?.trim() ?? '';
        keyId = key === '' ? null : ((await s.keys.verify(key, at, s.session(req)))?.id ?? null);
        if (keyId === null) {
          // A wrong key costs a token of the address's bucket: guessing keys is as slow as the limit.
          await takeToken(s, addressBucket(req), at, headers);
          throw new UnauthorizedError(key === '' ? 'enter an API key' : 'invalid or revoked API key');
        }
        await takeToken(s, keyId, at, headers);
        status = 303;
        headers.location = next;
        headers['set-cookie'] = keyCookie(req, key);
        s.send(req, res, status, '', headers, HTML_TYPE);
      } else {
        throw new ReadOnlyError(`${req.method} is not allowed here: sign in with POST`);
      }
    } catch (error) {
      const { status: code, detail } = httpFailure(error);
      status = code;
      if (code === 401) s.send(req, res, code, signInPage(detail, '/', false), headers, HTML_TYPE);
      else status = fail(s, req, res, error, '/sign-in', headers, false);
    }
    s.log({ method: req.method, route: '/sign-in', status, ms: performance.now() - started, keyId });
  };
}

/** Clears the cookie (a POST, so that no link or prefetch signs anyone out). */
function signOutHandler(s: PageServer) {
  return (req: Request, res: ServerResponse) => {
    const headers: OutgoingHttpHeaders = { ...PAGE_HEADERS };
    if (req.method !== 'POST') {
      const status = fail(s, req, res, new ReadOnlyError('sign out with POST'), '/sign-out', headers, false);
      s.log({ method: req.method, route: '/sign-out', status, ms: 0, keyId: null });
      return;
    }
    headers.location = '/sign-in';
    headers['set-cookie'] = clearedCookie(req);
    s.send(req, res, 303, '', headers, HTML_TYPE);
    s.log({ method: req.method, route: '/sign-out', status: 303, ms: 0, keyId: null });
  };
}

function assetHandler(s: PageServer) {
  return (req: Request, res: ServerResponse) => {
    const asset = ASSETS[req.params.name ?? ''];
    const headers: OutgoingHttpHeaders = {
      'x-content-type-options': 'nosniff',
      'cache-control': 'public, max-age=3600',
    };
    const status = asset === undefined ? 404 : READ_METHODS.has(req.method) ? 200 : 403;
    if (status === 200) s.send(req, res, 200, asset!.body(), headers, asset!.type);
    else
      s.send(
        req,
        res,
        status,
        status === 404 ? 'no such asset' : 'read-only',
        headers,
        'text/plain; charset=utf-8',
      );
    s.log({ method: req.method, route: '/assets/:name', status, ms: 0, keyId: null });
  };
}

/** Adds the pages, the sign-in routes and the assets to `app`. */
export function registerPages(app: Polka<Request>, s: PageServer): void {
  for (const page of PAGES) app.all(page.path, pageHandler(s, page));
  app.all('/sign-in', signInHandler(s));
  app.all('/sign-out', signOutHandler(s));
  app.all('/assets/:name', assetHandler(s));
}
