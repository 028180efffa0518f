/**
 * The HTTP adapter: a polka app over node:http, built without binding a port (`listen()` is
 * separate, so tests start a real server on port 0). Each request goes: route match (404),
 * key (401), method (403), rate limit (429), input validation (400/422), one call on the oracle,
 * JSON out. Every response, errors included, is application/json with a `{detail}` on errors.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import polka, { type Request } from 'polka';
import type { Oracle } from '../service/oracle.js';
import { createAccessLog, type AccessLog, type AccessLogEntry } from './access-log.js';
import { createBundleCache, type BundleCache } from './bundle-cache.js';
import { createCors, type Cors } from './cors.js';
import { authenticate } from './auth.js';
import {
  httpFailure,
  MalformedRequestError,
  RateLimitedError,
  ReadOnlyError,
  RouteNotFoundError,
} from './errors.js';
import { inputParser } from './input.js';
import { checkPath, readQuery } from './query.js';
import { createKeyCache, createKeySession, type KeySession } from './key-cache.js';
import { BEARER_CHALLENGE } from './schemas.js';
import type { ServerMetrics } from './metrics.js';
import { handleMalformedRequests, JSON_TYPE, missingHost } from './malformed.js';
import { createRateLimiter, type RateLimiter } from './rate-limit.js';
import { JsonBytes, type Route } from './route.js';
import { apiRoutes } from './routes/index.js';
import { createServerCache } from './server-cache.js';
import { registerPages, type PageAccess } from './pages/serve-pages.js';

export interface ServerDeps {
  oracle: Oracle;
  /** Computed bundles (default: a cache of BUNDLE_CACHE_DEFAULTS); given when the metrics read its counts. */
  bundles?: BundleCache;
  /** Access-log lines (default: stdout). */
  accessLog?: (line: string) => void;
  /** Error lines, 5xx causes included (default: stderr). */
  errorLog?: (line: string) => void;
  now?: () => number;
  /** The token buckets (default: in this process, of `rateLimitPerMinute`); e.g. shared ones in Redis. */
  rateLimiter?: RateLimiter;
  /** Prometheus metrics (`serve --metrics`): every answered request is observed, and GET /metrics exists. */
  metrics?: ServerMetrics;
}

export interface ServerOptions {
  /** Requests per minute per key on the pricing, refsource and snapshot routes. */
  rateLimitPerMinute: number;
  /** The version the OpenAPI document states. */
  version?: string;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs?: number;
  /** Longest wait for a request's headers, then for the whole request. */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Origins browsers may call from (`serve --cors`); empty or absent: CORS off. */
  corsOrigins?: readonly string[];
  /** Who may read the web pages (docs/web.md): key holders once signed in (default), or anyone (`serve --public`). */
  pageAccess?: PageAccess;
}

export const SERVER_TIMEOUT_DEFAULTS = {
  keepAliveTimeoutMs: 5_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
} as const;

export interface OracleServer {
  readonly server: Server;
  listen(port: number, host: string): Promise<AddressInfo>;
  /**
   * Stops accepting connections and resolves once in-flight requests have finished (at most
   * `graceMs`) and the keys' pending last-used times are written.
   */
  close(graceMs?: number): Promise<void>;
}

const READ_METHODS = new Set(['GET', 'HEAD']);

export function createServer(deps: ServerDeps, options: ServerOptions): OracleServer {
  const { oracle } = deps;
  const cache = createServerCache(oracle, deps.bundles ?? createBundleCache());
  const keys = createKeyCache(oracle);
  const now = deps.now ?? Date.now;
  const accessLog: AccessLog = createAccessLog(deps.accessLog ?? ((line) => process.stdout.write(line)));
  const { metrics } = deps;
  /** Every answered request: an access-log line, and an observation when metrics are on. */
  const log = metrics
    ? (entry: AccessLogEntry) => {
        accessLog(entry);
        metrics.observe(entry);
      }
    : accessLog;
  const errorLog = deps.errorLog ?? ((line) => process.stderr.write(line));
  const limiter = deps.rateLimiter ?? createRateLimiter(options.rateLimitPerMinute);
  const limitHeader = String(options.rateLimitPerMinute);
  const cors: Cors | null = options.corsOrigins?.length ? createCors(options.corsOrigins) : null;
  let closing = false;

  /** One key session per keep-alive connection: its requests after the first skip hashing the same key. */
  const sessions = new WeakMap<Socket, KeySession>();
  function sessionOf(req: IncomingMessage): KeySession {
    let session = sessions.get(req.socket);
    if (!session) sessions.set(req.socket, (session = createKeySession()));
    return session;
  }

  /** Serialised bodies of objects handed out again and again (cached bundles, the catalog). */
  const serialized = new WeakMap<object, Buffer>();
  function payload(body: unknown): Buffer {
    if (body instanceof JsonBytes) return body.bytes;
    if (typeof body !== 'object' || body === null) return Buffer.from(JSON.stringify(body));
    let bytes = serialized.get(body);
    if (!bytes) serialized.set(body, (bytes = Buffer.from(JSON.stringify(body))));
    return bytes;
  }

  /** Writes status, headers and body in one go; HEAD gets GET's status and headers, no body (decision 5). */
  function send(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: OutgoingHttpHeaders = {},
    contentType?: string,
  ): void {
    const bytes = contentType ? (Buffer.isBuffer(body) ? body : Buffer.from(body as string)) : payload(body);
    headers['content-type'] = contentType ?? JSON_TYPE;
    headers['content-length'] = bytes.length;
    if (closing) headers.connection = 'close';
    if (cors) cors.apply(req, headers);
    res.writeHead(status, headers);
    res.end(req.method === 'HEAD' ? undefined : bytes);
  }

  function sendError(
    req: IncomingMessage,
    res: ServerResponse,
    error: unknown,
    route: string | null,
    headers: OutgoingHttpHeaders = {},
  ): number {
    const { status, detail } = httpFailure(error);
    if (status >= 500) logFailure(req, route, status, error);
    if (error instanceof RateLimitedError) headers['retry-after'] = String(error.retryAfterSeconds);
    if (status === 401) headers['www-authenticate'] = BEARER_CHALLENGE;
    if (res.headersSent) {
      res.destroy();
    } else {
      send(req, res, status, { detail }, headers);
    }
    return status;
  }

  function logFailure(req: IncomingMessage, route: string | null, status: number, error: unknown): void {
    // Never the headers: they carry the key.
    const err = error instanceof Error ? error : new Error(String(error));
    const cause = err.cause instanceof Error ? err.cause.message : undefined;
    errorLog(
      `${JSON.stringify({ time: new Date().toISOString(), level: 'error', method: req.method, route, status, error: err.name, message: err.message, cause, stack: status === 500 ? err.stack : undefined })}\n`,
    );
  }

  /** A route's handler: key, method, rate limit, input, one call, the answer; every request logged once. */
  function handlerFor(route: Route) {
    const parseParams = inputParser(route.pathParams);
    const parseQuery = inputParser(route.query);
    const queryNames = Object.keys(route.query?.shape ?? {});
    return async (req: Request, res: ServerResponse) => {
      const started = performance.now();
      const at = now();
      const headers: OutgoingHttpHeaders = {};
      let keyId: string | null = null;
      let status = 200;
      try {
        if (cors?.isPreflight(req)) {
          res.writeHead(204, cors.preflightHeaders(req)).end();
          status = 204;
        } else {
          const readOnly = READ_METHODS.has(req.method);
          // 401 before 403 before everything else (CONTRACT.md decision 5); a write to a
          // public route needs a key too, so it gets the same answers as any other write.
          if (route.auth || !readOnly) keyId = await authenticate(req.headers, keys, at, sessionOf(req));
          if (!readOnly)
            throw new ReadOnlyError(`the API is read-only: ${req.method} is not allowed, use GET or HEAD`);
          if (route.rateLimited) {
            const decision = await limiter.take(keyId as string, at);
            headers['ratelimit-limit'] = limitHeader;
            headers['ratelimit-remaining'] = String(decision.remaining);
            headers['ratelimit-reset'] = String(decision.resetSeconds);
            if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
          }
          checkPath(req.path);
          const query = parseQuery(readQuery(req.search ?? '', queryNames));
          const body = await route.handle({
            params: parseParams(req.params) as never,
            query: query as never,
            now: at,
            oracle,
            cache,
            keyId,
          });
          send(req, res, 200, body, headers, route.contentType);
        }
      } catch (error) {
        status = sendError(req, res, error, route.path, headers);
      }
      log({ method: req.method, route: route.path, status, ms: performance.now() - started, keyId });
    };
  }

  const app = polka<Request>({
    onNoMatch: (req, res) => {
      const status = sendError(req, res, new RouteNotFoundError(`no route ${req.method} ${req.path}`), null);
      log({ method: req.method, route: null, status, ms: 0, keyId: null });
    },
    // Reached only when something outside a route handler throws: a generic 500, cause logged.
    onError: (error, req, res) => {
      const status = sendError(req, res, error, null);
      log({ method: req.method, route: null, status, ms: 0, keyId: null });
    },
  });
  for (const route of apiRoutes(options.version ?? '0.0.0', metrics)) app.all(route.path, handlerFor(route));
  registerPages(app, {
    oracle,
    cache,
    keys,
    limiter,
    access: options.pageAccess ?? 'signed-in',
    now,
    session: sessionOf,
    send: (req, res, status, body, headers, type) => send(req, res, status, body, headers, type),
    log,
    logFailure,
  });

  // Node's own Host check answers an empty 400; the handler answers it with a {detail}.
  const server = createHttpServer({ requireHostHeader: false }, (req, res) => {
    if (missingHost(req)) {
      res.shouldKeepAlive = false;
      const status = sendError(
        req,
        res,
        new MalformedRequestError('missing Host header: HTTP/1.1 requires one'),
        null,
      );
      log({ method: req.method ?? '-', route: null, status, ms: 0, keyId: null });
      return;
    }
    void app.handler(req as Request, res, undefined as never);
  });
  handleMalformedRequests(server, log);
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? SERVER_TIMEOUT_DEFAULTS.keepAliveTimeoutMs;
  server.headersTimeout = options.headersTimeoutMs ?? SERVER_TIMEOUT_DEFAULTS.headersTimeoutMs;
  server.requestTimeout = options.requestTimeoutMs ?? SERVER_TIMEOUT_DEFAULTS.requestTimeoutMs;

  return {
    server,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve(server.address() as AddressInfo);
        });
      });
    },
    close(graceMs = 10_000) {
      closing = true;
      return new Promise((resolve) => {
        // In-flight requests finish (their responses say `connection: close`); idle
        // keep-alive sockets close now; whatever is still open after the grace period is cut.
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(force);
          accessLog.flush();
          resolve(keys.close());
        });
        server.closeIdleConnections();
      });
    },
  };
}
