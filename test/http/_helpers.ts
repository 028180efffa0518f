/**
 * Shared harness of the HTTP tests: a seeded SQLite file in a temp dir, a real server on
 * port 0 (127.0.0.1), and a fake upstream reference source (node:http on port 0).
 */
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { afterAll, beforeAll } from 'vitest';
import { tempDir } from '../_setup.js';
import type { Product } from '../../src/domain/product.js';
import { createServer, type OracleServer, type ServerOptions } from '../../src/http/create-server.js';
import { createMetrics } from '../../src/http/metrics.js';
import { createApiService, type ApiService, type ApiServiceDeps } from '../../src/service/api-service.js';
import { hashApiKey } from '../../src/service/key-verifier.js';
import { createOfflineResolver, type RefsourceResolver } from '../../src/service/refsource-resolver.js';
import { openStore } from '../../src/store/store.js';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;


export const STORED_KEY = 'ork_test-stored-key-0123456789abcdef';
export const STORED_KEY_ID = 'key_stored';
export const REVOKED_KEY = 'ork_test-revoked-key-0123456789abcdef';
export const REVOKED_KEY_ID = 'key_revoked';
export const ENV_KEY = 'ork_test-env-key-0123456789abcdef';

function product(productKey: string, refsourceId: string | null): Product {
  return {
    productKey,
    refsourceId,
    productName: `Name of ${productKey}`,
    subtitle: '4/102 Holo',
    setName: 'Base Set',
    imageUrl: 'https://img.example/x.png',
    productType: 'single_card',
    era: 'vintage',
    releaseDate: '1999-01-09',
    tcgplayerId: null,
  };
}

/** Catalog keys that stress the path: a space, non-ASCII characters, a slash. */
export const PRODUCTS = {
  plain: product('base-set-charizard', '1001'),
  spaced: product('Base Set Charizard 4/102 holo', '1002'),
  unicode: product('ポケモン-リザードン-é', '1003'),
  slashed: product('base/shadowless', '1004'),
  unpriced: product('no-observations', '1005'),
} as const;

/** Writes the catalog, a day of observations before `now` for the priced products, and two stored keys. */
export async function seedDatabase(path: string, now: number): Promise<void> {
  const store = await openStore(path, { create: true });
  try {
    store.products.upsertMany(Object.values(PRODUCTS));
    const observations = [PRODUCTS.plain, PRODUCTS.spaced, PRODUCTS.unicode, PRODUCTS.slashed].flatMap((p, n) => {
      const productId = store.products.findByKey(p.productKey)!.id;
      return Array.from({ length: 12 }, (_, i) => ({
        productId,
        productKey: p.productKey,
        source: i % 2 ? 'ebay' : 'tcgplayer',
        observedAt: now - (i + 1) * HOUR,
        priceMinor: 10_000 * (n + 1) + i * 10,
        grader: i % 3 === 0 ? 'PSA' : 'ungraded',
        grade: i % 3 === 0 ? 10 : null,
        externalId: `${p.productKey}-${i}`,
      }));
    });
    store.observations.insertMany(observations);
    store.apiKeys.create(STORED_KEY_ID, 'tests', hashApiKey(STORED_KEY), now - DAY);
    store.apiKeys.create(REVOKED_KEY_ID, 'revoked', hashApiKey(REVOKED_KEY), now - DAY);
    store.apiKeys.revoke(REVOKED_KEY_ID, now - HOUR);
  } finally {
    store.close();
  }
}

export interface TestServer {
  url: string;
  service: ApiService;
  server: OracleServer;
  accessLines: string[];
  errorLines: string[];
  close(): Promise<void>;
}

export interface StartOptions {
  dbPath: string;
  resolver?: RefsourceResolver;
  rateLimitPerMinute?: number;
  envKeys?: string[];
  /** Replaces service methods (e.g. an engine that throws). */
  override?: (service: ApiService) => ApiService;
  serviceDeps?: Partial<ApiServiceDeps>;
  /** Server options beyond the rate limit (CORS). */
  serverOptions?: Partial<ServerOptions>;
  /** Serve GET /metrics (as `serve --metrics`). */
  metrics?: boolean;
  now?: () => number;
}

/** A real server on 127.0.0.1, port 0, with access and error logs captured. */
export async function startServer(options: StartOptions): Promise<TestServer> {
  const base = createApiService({
    dbPath: options.dbPath,
    resolver: options.resolver ?? createOfflineResolver(),
    envKeys: options.envKeys ?? [ENV_KEY],
    ...options.serviceDeps,
  });
  const service = options.override ? options.override(base) : base;
  const accessLines: string[] = [];
  const errorLines: string[] = [];
  const server = createServer(
    {
      service,
      accessLog: (l) => accessLines.push(l),
      errorLog: (l) => errorLines.push(l),
      now: options.now,
      metrics: options.metrics ? createMetrics(service) : undefined,
    },
    { rateLimitPerMinute: options.rateLimitPerMinute ?? 10_000, version: '0.0.0-test', ...options.serverOptions },
  );
  const address = await server.listen(0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${address.port}`,
    service,
    server,
    accessLines,
    errorLines,
    async close() {
      await server.close(1_000);
      await base.close();
    },
  };
}

/**
 * How the fake upstream answers an id: a status (after `delayMs`), 'hang' (never answers),
 * or 'trickle' (200 headers at once, then one byte of the body every `trickleMs`).
 */
export type UpstreamBehaviour = number | 'hang' | 'trickle';

export interface FakeUpstream {
  /** URL template for --refsource-url. */
  template: string;
  /** Paths requested so far, with the Authorization header each carried. */
  calls: { path: string; authorization: string | undefined }[];
  statusFor: (id: string) => UpstreamBehaviour;
  /** Delay before a status answer, ms. */
  delayMs: number;
  trickleMs: number;
  /** Requests open right now, and the most ever open at once. */
  inFlight: number;
  maxInFlight: number;
  close(): Promise<void>;
}

export async function fakeUpstream(statusFor: (id: string) => UpstreamBehaviour = () => 200): Promise<FakeUpstream> {
  const upstream: FakeUpstream = {
    template: '',
    calls: [],
    statusFor,
    delayMs: 0,
    trickleMs: 3_000,
    inFlight: 0,
    maxInFlight: 0,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server: Server = createHttpServer((req: IncomingMessage, res) => {
    const id = decodeURIComponent(req.url!.split('/').pop()!);
    upstream.calls.push({ path: req.url!, authorization: req.headers.authorization });
    upstream.maxInFlight = Math.max(upstream.maxInFlight, ++upstream.inFlight);
    const timers: NodeJS.Timeout[] = [];
    res.on('close', () => {
      upstream.inFlight -= 1;
      timers.forEach(clearTimeout);
    });
    const behaviour = upstream.statusFor(id);
    if (behaviour === 'hang') return;
    if (behaviour === 'trickle') {
      const body = JSON.stringify({ id, padding: 'x'.repeat(64) });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).flushHeaders();
      let sent = 0;
      const drip = () => {
        res.write(body[sent++]);
        if (sent < body.length) timers.push(setTimeout(drip, upstream.trickleMs));
        else res.end();
      };
      timers.push(setTimeout(drip, upstream.trickleMs));
      return;
    }
    const answer = () => res.writeHead(behaviour, { 'content-type': 'application/json' }).end(JSON.stringify({ id }));
    if (upstream.delayMs > 0) timers.push(setTimeout(answer, upstream.delayMs));
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.template = `http://127.0.0.1:${(server.address() as AddressInfo).port}/products/{id}`;
  return upstream;
}

/** The encoded path of the pricing route for a catalog key. */
export function pricingPath(productKey: string, query = ''): string {
  return `/api/v1/developer/pricing/${encodeURIComponent(productKey)}${query}`;
}

/** GETs `url` and parses the JSON body (typed loosely: the tests assert its shape). */
export async function getJson(url: string, headers: Record<string, string> = {}): Promise<any> {
  return (await fetch(url, { headers })).json();
}

/**
 * A seeded database and a server over it for the calling file (or describe block): started
 * before its tests, closed and removed after them. Read `server` inside tests, not at load.
 */
export function useSeededServer(now: number): { readonly server: TestServer; readonly dbPath: string } {
  const dbPath = `${tempDir('oracle-http-')}/oracle.db`;
  let server: TestServer | undefined;
  beforeAll(async () => {
    await seedDatabase(dbPath, now);
    server = await startServer({ dbPath });
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    get server() {
      if (!server) throw new Error('the seeded server starts in beforeAll: use it inside a test');
      return server;
    },
    dbPath,
  };
}

/** A JSON Schema 2020-12 validator (OpenAPI 3.1's dialect) that checks `format`s too. */
export function jsonSchemaValidator(): Ajv2020 {
  return formats.default(new Ajv2020({ strict: false }));
}
