/**
 * Shared harness of the HTTP tests: a seeded SQLite file in a temp dir, a real server on
 * port 0 (127.0.0.1), and a fake upstream reference source (node:http on port 0).
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { afterAll, beforeAll } from 'vitest';
import { newTestDatabase } from '../_pg.js';
import { tempDir } from '../_setup.js';
import type { Product } from '../../src/domain/product.js';
import { createBundleCache } from '../../src/http/bundle-cache.js';
import { createServer, type OracleServer, type ServerOptions } from '../../src/http/create-server.js';
import { createMetrics } from '../../src/http/metrics.js';
import { hashApiKey } from '../../src/service/keys.js';
import { createOracle, type Oracle } from '../../src/service/oracle.js';
import { createOfflineResolver, type RefsourceResolver } from '../../src/service/refsource-resolver.js';
import { openStore } from '../../src/store/open-store.js';
import { createWatchedStore } from '../../src/store/watched-store.js';
import { storedProduct, writeObservations, writeProducts } from '../_store.js';

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
    await writeProducts(store, Object.values(PRODUCTS));
    const ids = await Promise.all(
      [PRODUCTS.plain, PRODUCTS.spaced, PRODUCTS.unicode, PRODUCTS.slashed].map((p) =>
        storedProduct(store, p.productKey),
      ),
    );
    const observations = [PRODUCTS.plain, PRODUCTS.spaced, PRODUCTS.unicode, PRODUCTS.slashed].flatMap(
      (p, n) => {
        const productId = ids[n]!.id;
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
      },
    );
    await writeObservations(store, observations);
    await store.apiKeys.create(STORED_KEY_ID, 'tests', hashApiKey(STORED_KEY), now - DAY);
    await store.apiKeys.create(REVOKED_KEY_ID, 'revoked', hashApiKey(REVOKED_KEY), now - DAY);
    await store.apiKeys.revoke(REVOKED_KEY_ID, now - HOUR);
  } finally {
    await store.close();
  }
}

export interface TestServer {
  url: string;
  oracle: Oracle;
  server: OracleServer;
  accessLines: string[];
  errorLines: string[];
  /** Responses so far that the served OpenAPI document does not describe; `close()` fails when there are any. */
  violations: string[];
  close(): Promise<void>;
}

export interface StartOptions {
  dbPath: string;
  resolver?: RefsourceResolver;
  rateLimitPerMinute?: number;
  envKeys?: string[];
  /** Replaces oracle methods (e.g. an engine that throws). */
  override?: (oracle: Oracle) => Oracle;
  /** How often the server checks that the path still names its file (store/watched-store.ts). */
  fileCheckIntervalMs?: number;
  /** Server options beyond the rate limit (CORS). */
  serverOptions?: Partial<ServerOptions>;
  /** Serve GET /metrics (as `serve --metrics`). */
  metrics?: boolean;
  now?: () => number;
  /**
   * Check every response against the served OpenAPI document (default true); false for a test
   * that times the server's event loop, which the check of a long body would hold.
   */
  checkResponses?: boolean;
}

/**
 * A real server on 127.0.0.1, port 0, with access and error logs captured, and every response
 * it sends checked against the OpenAPI document it serves.
 */
export async function startServer(options: StartOptions): Promise<TestServer> {
  // As oracle serve builds it.
  const base = createOracle({
    store: createWatchedStore(options.dbPath, { fileCheckIntervalMs: options.fileCheckIntervalMs }),
    resolver: options.resolver ?? createOfflineResolver(),
    envKeys: options.envKeys ?? [ENV_KEY],
  });
  const oracle = options.override ? options.override(base) : base;
  const accessLines: string[] = [];
  const errorLines: string[] = [];
  const bundles = createBundleCache();
  const server = createServer(
    {
      oracle,
      bundles,
      accessLog: (l) => accessLines.push(l),
      errorLog: (l) => errorLines.push(l),
      now: options.now,
      metrics: options.metrics ? createMetrics(oracle, bundles) : undefined,
    },
    {
      rateLimitPerMinute: options.rateLimitPerMinute ?? 10_000,
      version: '0.0.0-test',
      ...options.serverOptions,
    },
  );
  const address = await server.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${address.port}`;
  const docUrl = `${url}/api/v1/openapi.json`;
  const served = await fetch(docUrl);
  if (!served.ok) {
    await server.close(0);
    throw new Error(
      `the server does not serve its OpenAPI document: ${served.status} ${await served.text()}`,
    );
  }
  const document = (await served.json()) as OpenApiDocument;
  const violations =
    options.checkResponses === false ? [] : checkResponsesAgainst(server.server, document, docUrl);
  return {
    url,
    oracle,
    server,
    accessLines,
    errorLines,
    violations,
    async close() {
      await server.close(1_000);
      await base.close();
      if (violations.length > 0)
        throw new Error(`responses the OpenAPI document does not describe:\n${violations.join('\n')}`);
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

export async function fakeUpstream(
  statusFor: (id: string) => UpstreamBehaviour = () => 200,
): Promise<FakeUpstream> {
  const upstream: FakeUpstream = {
    template: '',
    calls: [],
    statusFor,
    delayMs: 0,
    trickleMs: 3_000,
    inFlight: 0,
    maxInFlight: 0,
    close: () =>
      new Promise((resolve) => {
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
      res
        .writeHead(200, { 'content-type': 'application/json', 'content-length': body.length })
        .flushHeaders();
      let sent = 0;
      const drip = () => {
        res.write(body[sent++]);
        if (sent < body.length) timers.push(setTimeout(drip, upstream.trickleMs));
        else res.end();
      };
      timers.push(setTimeout(drip, upstream.trickleMs));
      return;
    }
    const answer = () =>
      res.writeHead(behaviour, { 'content-type': 'application/json' }).end(JSON.stringify({ id }));
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
 * A new database of the run's store (a SQLite file, or a PostgreSQL database under the vitest
 * project `postgres`: newTestDatabase) seeded by seedDatabase; its location.
 */
export async function seededTestDatabase(now: number): Promise<string> {
  const location = await newTestDatabase(tempDir('oracle-http-'));
  await seedDatabase(location, now);
  return location;
}

/**
 * A seeded database and a server over it for the calling file (or describe block): started
 * before its tests, closed and removed after them. Read `server` inside tests, not at load.
 */
export function useSeededServer(now: number): { readonly server: TestServer; readonly dbPath: string } {
  let dbPath: string | undefined;
  let server: TestServer | undefined;
  beforeAll(async () => {
    dbPath = await seededTestDatabase(now);
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
    get dbPath() {
      if (!dbPath) throw new Error('the seeded database is made in beforeAll: use it inside a test');
      return dbPath;
    },
  };
}

/** A JSON Schema 2020-12 validator (OpenAPI 3.1's dialect) that checks `format`s too. */
export function jsonSchemaValidator(): Ajv2020 {
  return formats.default(new Ajv2020({ strict: false }));
}

/** What the suite checks every response against: the server's own OpenAPI document. */
interface OpenApiDocument {
  paths: Record<string, { get: Operation }>;
  components: object;
}

interface Operation {
  responses: Record<
    string,
    {
      headers?: Record<string, { required: boolean; schema: { type?: string } }>;
      content: Record<string, { schema: object }>;
    }
  >;
}

/** Headers of HTTP itself and of CORS (`serve --cors`), which no operation lists. */
const TRANSPORT_HEADERS =
  /^(content-type|content-length|connection|keep-alive|date|transfer-encoding|vary|access-control-.*)$/;

/**
 * Checks every response `server` sends against `doc` (the document it serves): the status is
 * one the operation documents, each header it sends is documented there (and each required
 * one sent, of its schema), and the body is of the documented media type and schema. Write
 * methods are not operations: they must answer as SPEC.md section 5 says. Returns the
 * violations seen so far.
 */
export function checkResponsesAgainst(server: Server, doc: OpenApiDocument, docUrl: string): string[] {
  const violations: string[] = [];
  const ajv = jsonSchemaValidator();
  ajv.addSchema({ $id: docUrl, components: doc.components });
  const validators = new Map<string, ValidateFunction>();
  const validate = (schema: object, value: unknown): string | null => {
    const key = JSON.stringify(schema);
    let v = validators.get(key);
    if (!v)
      validators.set(
        key,
        (v = ajv.compile({ $id: `${docUrl}/${validators.size}`, ...rebase(schema, docUrl) })),
      );
    return v(value) ? null : ajv.errorsText(v.errors);
  };
  const templates = Object.keys(doc.paths).map(
    (t) => [t, new RegExp(`^${t.replace(/\{\w+\}/g, '[^/]+')}$`)] as const,
  );
  const errorBody = { $ref: `${docUrl}#/components/schemas/Error` };

  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    let status = 0;
    let sent: OutgoingHttpHeaders = {};
    const writeHead = res.writeHead.bind(res);
    res.writeHead = ((code: number, headers?: OutgoingHttpHeaders) => {
      status = code;
      sent = Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
      return writeHead(code, headers);
    }) as typeof res.writeHead;
    const end = res.end.bind(res);
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      const body =
        chunk === undefined || typeof chunk === 'function' ? '' : Buffer.from(chunk as Buffer).toString();
      let problem: string | null;
      try {
        problem = check(req, status, sent, body);
      } catch (error) {
        problem = `unreadable: ${(error as Error).message}`;
      }
      if (problem) violations.push(`${req.method} ${req.url} -> ${status}: ${problem}`);
      return (end as (...args: unknown[]) => ServerResponse)(chunk, ...rest);
    }) as typeof res.end;
  });

  function check(
    req: IncomingMessage,
    status: number,
    headers: OutgoingHttpHeaders,
    body: string,
  ): string | null {
    const path = (req.url ?? '/').split('?')[0] as string;
    // The web pages and their assets are not the API: test/http/pages.test.ts checks them.
    if (/^text\/(html|css|javascript)/.test(String(headers['content-type'])) || path.startsWith('/assets/'))
      return null;
    const template = templates.find(([, re]) => re.test(path))?.[0];
    const read = req.method === 'GET' || req.method === 'HEAD';
    if (req.method === 'OPTIONS' && status === 204) return null; // a CORS preflight
    if (!template || !read) {
      // No operation: an unknown route (404), a write (401 without a key, 403 with one), or no Host (400).
      const allowed = !template ? [400, 404] : [400, 401, 403, 503];
      if (!allowed.includes(status))
        return `status ${status} for ${template ? 'a write method' : 'an unknown path'}`;
      return req.method === 'HEAD' ? null : validate(errorBody, JSON.parse(body));
    }
    const response = (doc.paths[template] as { get: Operation }).get.responses[String(status)];
    if (!response) return `status ${status} is not documented`;
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required) return `required header ${name} missing`;
        continue;
      }
      const problem = validate(header.schema, header.schema.type === 'integer' ? Number(value) : value);
      if (problem) return `header ${name}: ${problem}`;
    }
    const documented = new Set(Object.keys(response.headers ?? {}).map((n) => n.toLowerCase()));
    const extra = Object.keys(headers).filter((n) => !documented.has(n) && !TRANSPORT_HEADERS.test(n));
    if (extra.length > 0) return `undocumented headers ${extra.join(', ')}`;
    const type = String(headers['content-type'] ?? '');
    const media = Object.entries(response.content).find(([t]) => t.split(';')[0] === type.split(';')[0]);
    if (!media) return `content-type ${type} is not documented`;
    if (req.method === 'HEAD') return body === '' ? null : 'HEAD with a body';
    return type.startsWith('application/json')
      ? validate(media[1].schema, JSON.parse(body))
      : validate(media[1].schema, body);
  }

  return violations;
}

/** `schema` with its document-local references made absolute, to resolve against the document added under `docUrl`. */
function rebase(schema: object, docUrl: string): object {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${docUrl}#/components/`));
}

/** Defines `all-singles` (every single card, ungraded, chained Jevons) in the database at `dbPath`. */
export async function defineAllSingles(dbPath: string, baseDate: string, createdAt: number): Promise<void> {
  const store = await openStore(dbPath);
  try {
    await store.indexes.add(
      {
        name: 'all-singles',
        label: 'All singles',
        selector: 'product_type',
        selectorValue: 'single_card',
        slot: 'ungraded',
        method: 'chained-jevons',
        baseDate,
      },
      createdAt,
    );
  } finally {
    await store.close();
  }
}
