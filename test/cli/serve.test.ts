/**
 * A real `oracle serve` process (the built CLI): its configuration, its start-up lines, and
 * the readiness route as an operator's probe sees them. Commands that serve nothing (refused
 * options, --help, the ingests and keys around a server) run in process (test/_cli.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { runOracle as oracle } from '../_cli.js';
import { newTestDatabase, TEST_STORE } from '../_pg.js';
import { ROOT, spawnServe, tempDir } from '../_setup.js';
import { fakeUpstream, seedDatabase, seededTestDatabase, type FakeUpstream } from '../http/_helpers.js';

describe('oracle serve', () => {
  let db: string;
  let upstream: FakeUpstream;
  beforeAll(async () => {
    db = await seededTestDatabase(Date.now());
    upstream = await fakeUpstream();
  });
  afterAll(async () => {
    await upstream.close();
  });

  it('listens on a free port, serves keys from ORACLE_API_KEYS, logs JSON lines, and exits 0 on SIGTERM', async () => {
    const server = spawnServe(['--db', db, 'serve'], { ORACLE_API_KEYS: 'ork_env-one, ork_env-two' });
    const url = await server.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${url}/api/v1/health`)).status).toBe(200);
    const res = await fetch(`${url}/api/v1/developer/catalog`, {
      headers: { authorization: 'Bearer ork_env-two' },
    });
    expect(res.status).toBe(200);
    // No upstream configured and not offline: 503.
    expect(
      (await fetch(`${url}/api/v1/developer/refsource/1001`, { headers: { 'x-api-key': 'ork_env-one' } }))
        .status,
    ).toBe(503);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const lines = server.stdout.map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.status, l.key_id])).toEqual([
      [200, null],
      [200, 'env-2'],
      [503, 'env-1'],
    ]);
    expect(server.stdout.join('\n')).not.toContain('ork_env');
  });

  it('with --offline resolves ids from the local catalog and never calls the configured upstream', async () => {
    const server = spawnServe(['--db', db, 'serve', '--offline'], {
      ORACLE_API_KEYS: 'k',
      ORACLE_REFSOURCE_URL: upstream.template,
    });
    const url = await server.url;
    const headers = { 'x-api-key': 'k' };
    expect((await fetch(`${url}/api/v1/developer/refsource/1001`, { headers })).status).toBe(200);
    expect((await fetch(`${url}/api/v1/developer/refsource/31337`, { headers })).status).toBe(400);
    expect(upstream.calls).toEqual([]);
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
  });

  // Options refused before any store is opened: the same on either store.
  it.skipIf(TEST_STORE === 'postgres')(
    'exits 2 naming the option for a bad --port or --refsource-url',
    async () => {
      const port = await oracle(['--db', db, 'serve', '--port', '99999']);
      expect(port.code).toBe(2);
      expect(port.stderr).toMatch(/^oracle: --port \(ORACLE_PORT\) must be an integer from 0 to 65535/);
      const url = await oracle(['--db', db, 'serve', '--refsource-url', 'http://x.example/products']);
      expect(url.code).toBe(2);
      expect(url.stderr).toMatch(/--refsource-url.*\{id\}/);
    },
  );
});

// The server's options, read and served alike on either store (the routes on PostgreSQL: test/http/metrics.test.ts, cors.test.ts).
describe.skipIf(TEST_STORE === 'postgres')('oracle serve --metrics and --cors', () => {
  let db: string;
  beforeAll(async () => {
    db = await seededTestDatabase(Date.now());
  });

  it('serves /metrics with --metrics or ORACLE_METRICS=1, and CORS with --cors or ORACLE_CORS_ORIGIN', async () => {
    for (const [args, env] of [
      [['--metrics', '--cors', 'https://dash.example.com'], {}],
      [[], { ORACLE_METRICS: '1', ORACLE_CORS_ORIGIN: 'https://dash.example.com' }],
    ] as const) {
      const server = spawnServe(['--db', db, 'serve', ...args], { ...env, ORACLE_API_KEYS: 'k' });
      const url = await server.url;
      expect(server.stderr).toContain('metrics: GET /metrics (Prometheus text format)');
      expect(server.stderr).toContain('CORS: browsers on https://dash.example.com may call the API');
      const metrics = await fetch(`${url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/^# TYPE oracle_http_requests_total counter$/m);
      const catalog = await fetch(`${url}/api/v1/developer/catalog`, {
        headers: { 'x-api-key': 'k', origin: 'https://dash.example.com' },
      });
      expect(catalog.headers.get('access-control-allow-origin')).toBe('https://dash.example.com');
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });

  it('exits 2 naming the option for a bad ORACLE_METRICS or --cors value', async () => {
    const metrics = await oracle(['--db', db, 'serve'], { env: { ORACLE_METRICS: 'maybe' } });
    expect(metrics.code).toBe(2);
    expect(metrics.stderr).toMatch(/^oracle: --metrics \(ORACLE_METRICS\) must be 1 or 0/);
    const cors = await oracle(['--db', db, 'serve', '--cors', 'https://dash.example.com/app']);
    expect(cors.code).toBe(2);
    expect(cors.stderr).toMatch(/^oracle: --cors \(ORACLE_CORS_ORIGIN\) must be \* or origins like/);
  });
});

describe.skipIf(TEST_STORE === 'postgres')('oracle serve in process', () => {
  it('leaves no signal listener behind when it cannot start (its port taken)', async () => {
    const db = await seededTestDatabase(Date.now());
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as AddressInfo;
      const before = process.listenerCount('SIGTERM') + process.listenerCount('SIGINT');
      const result = await oracle(['--db', db, 'serve', '--port', String(port)]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/EADDRINUSE|in use/);
      expect(process.listenerCount('SIGTERM') + process.listenerCount('SIGINT')).toBe(before);
    } finally {
      taken.close();
    }
  });
});

describe('oracle serve start-up lines and readiness', () => {
  const dir = tempDir('oracle-serve-start-');

  it('names the database (a file by absolute path) with its counts, and says the refsource routes are off and how to turn them on', async () => {
    const db = await seededTestDatabase(Date.now());
    // A file given relative to the working directory is named absolute; a URL (without a password here) as given.
    const server = spawnServe(['--db', TEST_STORE === 'postgres' ? db : relative(ROOT, db), 'serve']);
    const url = await server.url;
    expect(server.stderr).toEqual([
      `database: ${db} (5 products, 48 observations, 1 API key)`,
      expect.stringMatching(
        /^refsource routes disabled: .*refsource\/\{refsource_id\} and its \/snapshot answer 503 .*--refsource-url .*--offline/,
      ),
      'metrics: off (enable with --metrics)',
      'CORS: off (enable with --cors <origin>)',
      'web pages: GET / after signing in with an API key (open them to a trusted network with --public)',
      `listening on ${url}`,
    ]);
    const ready = await fetch(`${url}/api/v1/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      products: 5,
      observations: 48,
      keys: 1,
      refsource: 'unconfigured',
    });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  // The missing file's warning; a PostgreSQL database without the schema is test/cli/serve-postgres.test.ts's.
  it.skipIf(TEST_STORE === 'postgres')(
    'warns when the database is missing: /ready is 503 with the reason while /health stays 200, and both turn once it exists',
    async () => {
      const db = `${dir}/later.db`;
      const server = spawnServe(['--db', db, 'serve', '--offline']);
      const url = await server.url;
      expect(server.stderr[0]).toBe(`database: ${db}`);
      expect(server.stderr[1]).toMatch(
        /^warning: database unavailable: the database file does not exist: .*oracle ingest/,
      );
      expect(server.stderr[2]).toMatch(/^refsource routes: offline/);
      const ready = await fetch(`${url}/api/v1/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        detail: 'database unavailable: the database file does not exist',
      });
      expect((await fetch(`${url}/api/v1/health`)).status).toBe(200);
      await seedDatabase(db, Date.now());
      expect((await fetch(`${url}/api/v1/ready`)).status).toBe(200);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    },
  );

  it.skipIf(TEST_STORE === 'postgres')(
    'warns that a database a newer oracle made needs an upgrade, not data; /ready is 503 with the reason',
    async () => {
      const db = `${dir}/newer.db`;
      await seedDatabase(db, Date.now());
      const raw = new Database(db);
      const version = raw.pragma('user_version', { simple: true }) as number;
      raw.pragma(`user_version = ${version + 1}`);
      raw.close();
      const reason = `the database was made by a newer oracle (schema version ${version + 1}, this one knows ${version})`;
      const server = spawnServe(['--db', db, 'serve', '--offline']);
      const url = await server.url;
      expect(server.stderr[1]).toBe(
        `warning: database unavailable: ${reason}: every route but /api/v1/health, /api/v1/openapi.json answers 503 until it is fixed (upgrade oracle)`,
      );
      const ready = await fetch(`${url}/api/v1/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ detail: `database unavailable: ${reason}` });
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      const price = await oracle(['--db', db, 'catalog', '--json']);
      expect(price).toMatchObject({
        code: 1,
        stdout: '',
        stderr: `oracle: database ${db}: ${reason}: upgrade oracle\n`,
      });
    },
  );

  it('warns when no key exists: /ready is 503 saying so, until ORACLE_API_KEYS or a stored key provides one', async () => {
    const db = await newTestDatabase(dir);
    expect((await oracle(['--db', db, 'ingest', join(ROOT, 'data', 'catalog.csv')])).code).toBe(0);
    const server = spawnServe(['--db', db, 'serve']);
    const url = await server.url;
    expect(server.stderr[0]).toMatch(
      new RegExp(`^database: ${db} \\(\\d+ products, 0 observations, 0 API keys\\)$`),
    );
    expect(server.stderr[1]).toMatch(
      /^warning: no API key exists: every keyed route answers 401; create one with 'oracle keys create/,
    );
    const ready = await fetch(`${url}/api/v1/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { detail: string }).detail).toMatch(/^no API key exists/);
    expect((await oracle(['--db', db, 'keys', 'create', '--label', 'first'])).code).toBe(0);
    // SQLite's data version moves with the commit; PostgreSQL's with the commit's notification,
    // which reaches the server a few milliseconds later: the key counts from then on.
    await expect
      .poll(async () => (await fetch(`${url}/api/v1/ready`)).status, { timeout: 2_000, interval: 20 })
      .toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    const withEnv = spawnServe(['--db', db, 'serve'], { ORACLE_API_KEYS: 'ork_a,ork_b' });
    await withEnv.url;
    expect(withEnv.stderr[0]).toMatch(/, 3 API keys \(1 stored, 2 from ORACLE_API_KEYS\)\)$/);
    withEnv.child.kill('SIGTERM');
    expect(await withEnv.exited).toBe(0);
  });
});

// Where the server listens and its help: the same on either store.
describe.skipIf(TEST_STORE === 'postgres')('oracle serve configuration', () => {
  let db: string;
  beforeAll(async () => {
    db = await seededTestDatabase(Date.now());
  });

  it('takes the flag before its variable, the variable before the default, and an empty variable as unset', async () => {
    const cases: { args: string[]; env: Record<string, string>; host: string }[] = [
      // spawnServe passes --port 0: the flag wins and the variable's bad value is never read.
      {
        args: ['--host', '127.0.0.3'],
        env: { ORACLE_HOST: '127.0.0.2', ORACLE_PORT: 'not a port' },
        host: '127.0.0.3',
      },
      { args: [], env: { ORACLE_HOST: '127.0.0.2' }, host: '127.0.0.2' },
      { args: [], env: { ORACLE_HOST: '' }, host: '127.0.0.1' },
    ];
    for (const { args, env, host } of cases) {
      const server = spawnServe(['--db', db, 'serve', ...args], env);
      expect(await server.url).toMatch(new RegExp(`^http://${host.replaceAll('.', '\\.')}:\\d+$`));
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });

  it('shows each option with its variable and default in --help', async () => {
    const help = (await oracle(['serve', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--port <n> port, 0 for any free one (default: 8080, env: ORACLE_PORT)');
    expect(help).toContain(
      '--rate-limit <n> requests per minute per key on pricing routes (default: 120, env: ORACLE_RATE_LIMIT)',
    );
  });
});
