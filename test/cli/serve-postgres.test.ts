// @module-tag sqlite-only: starts servers on PostgreSQL itself
/**
 * `oracle serve` replicas on one PostgreSQL: two real server processes answer identically, and
 * an ingest through a third process reaches both within a second (their cached bundles are
 * dropped on the data version's notification), the test timing the window from the ingest's
 * exit.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPostgres } from '../../scripts/test-services.js';
import { describeWithPg, emptyPgDatabase, freshPgDatabase } from '../_pg.js';
import { runCli, spawnServe, tempDir, type ServeProcess } from '../_setup.js';
import { HOUR, PRODUCTS, pricingPath, seedDatabase, STORED_KEY } from '../http/_helpers.js';

const PATH = pricingPath(PRODUCTS.plain.productKey);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function ungradedPrice(url: string): Promise<number | null> {
  const res = await fetch(url + PATH, { headers: { 'x-api-key': STORED_KEY } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { ungraded: { price_minor: number | null } };
  return body.ungraded.price_minor;
}

/** Every process of the cluster in `dir` (the postmaster and its backends) stopped by SIGSTOP, until thaw(). */
function freeze(dir: string): { thaw(): void } {
  const postmaster = Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
  const pids = [postmaster, ...children];
  for (const pid of pids) process.kill(pid, 'SIGSTOP');
  return { thaw: () => pids.forEach((pid) => process.kill(pid, 'SIGCONT')) };
}

describeWithPg('oracle serve replicas on one PostgreSQL', () => {
  const running: ServeProcess[] = [];
  /**
   * A cluster of this file's own (the shared one must not be frozen or stopped), seeded once,
   * and one server on it (`--offline`: the refsource route reads the local catalog).
   */
  let own: Promise<{ cluster: Awaited<ReturnType<typeof startPostgres>>; url: string }> | undefined;
  const ownPostgres = () =>
    (own ??= startPostgres().then(async (cluster) => {
      await seedDatabase(cluster.url, now);
      const server = spawnServe(['--db', cluster.url, 'serve', '--offline']);
      running.push(server);
      return { cluster, url: await server.url };
    }));
  let db: string;
  let urls: string[];
  const now = Date.now();

  beforeAll(async () => {
    db = await freshPgDatabase();
    await seedDatabase(db, now);
    for (let i = 0; i < 2; i++) running.push(spawnServe(['--db', db, 'serve']));
    urls = await Promise.all(running.map((r) => r.url));
  });
  afterAll(async () => {
    for (const server of running.splice(0)) {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
    await (await own)?.cluster.stop();
  });

  it('answer identically, and both see an ingest through another process', async () => {
    const before = await Promise.all(urls.map(ungradedPrice));
    expect(before[0]).toBeGreaterThan(0);
    expect(before[1]).toBe(before[0]);
    // Asked again: the bundles now come from each replica's cache.
    expect(await Promise.all(urls.map(ungradedPrice))).toEqual(before);

    const file = join(tempDir(), 'more.csv');
    // Twice the price: a move the sales make while the seeded guide quotes stay within the
    // cross-source check's 2.5-fold (§18; ten times would withhold the price as sources disagreeing).
    const rows = Array.from({ length: 30 }, (_, i) => {
      const at = new Date(now - HOUR + i * 60_000).toISOString();
      return `${PRODUCTS.plain.productKey},ebay,${at},${before[0]! * 2 + i},,,replica-${i}`;
    });
    writeFileSync(
      file,
      `product_key,source,observed_at,price_minor,grader,grade,external_id\n${rows.join('\n')}\n`,
    );
    const ingested = await runCli(['--db', db, 'ingest', file]);
    expect(ingested.code, ingested.stderr).toBe(0);
    const committed = performance.now();

    const seen = await Promise.all(
      urls.map(async (url) => {
        for (;;) {
          const price = await ungradedPrice(url);
          if (price !== before[0]) return { price };
          if (performance.now() - committed > 5_000) return { price };
          await sleep(25);
        }
      }),
    );
    // Both servers show the new price (a poll that gives up after 5 s keeps the old one and fails here).
    expect(seen[0]!.price).toBeGreaterThan(before[0]! * 1.3);
    expect(seen[1]!.price).toBe(seen[0]!.price);
  });

  it('follow the data again after their listening connections are cut', async () => {
    const before = await Promise.all(urls.map(ungradedPrice));
    const admin = new pg.Client({ connectionString: db });
    await admin.connect();
    try {
      const cut = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'oracle listen' AND datname = current_database()",
      );
      expect(cut.rowCount).toBe(2);
    } finally {
      await admin.end();
    }
    const file = join(tempDir(), 'after-cut.csv');
    writeFileSync(
      file,
      `product_key,source,observed_at,price_minor,grader,grade,external_id\n${Array.from({ length: 40 }, (_, i) => `${PRODUCTS.plain.productKey},ebay,${new Date(now - HOUR / 2 + i * 1000).toISOString()},${before[0]! * 3 + i},,,cut-${i}`).join('\n')}\n`,
    );
    expect((await runCli(['--db', db, 'ingest', file])).code).toBe(0);
    const deadline = performance.now() + 3_000;
    let after = before;
    while (performance.now() < deadline && after.some((p, i) => p === before[i])) {
      await sleep(50);
      after = await Promise.all(urls.map(ungradedPrice));
    }
    expect(after[0]).not.toBe(before[0]);
    expect(after[1]).toBe(after[0]);
  });

  it('starts before the first ingest, answers 503 until the schema exists, then serves without a restart', async () => {
    const empty = await emptyPgDatabase();
    const server = spawnServe(['--db', empty, 'serve'], { ORACLE_API_KEYS: STORED_KEY });
    running.push(server);
    const url = await server.url;
    expect(server.stderr.join('\n')).toMatch(
      /warning: database unavailable: the database has no oracle schema/,
    );
    const ready = await fetch(`${url}/api/v1/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { detail: string }).detail).toMatch(/no oracle schema/);

    const catalog = join(tempDir(), 'catalog.csv');
    writeFileSync(catalog, `product_key,product_name\n${PRODUCTS.plain.productKey},Charizard\n`);
    const ingested = await runCli(['--db', empty, 'ingest', catalog]);
    expect(ingested.code, ingested.stderr).toBe(0);
    const after = await fetch(`${url}/api/v1/ready`);
    expect(after.status).toBe(200);
    expect(await after.json()).toMatchObject({ status: 'ready', products: 1, observations: 0 });
  });

  it('answers 503 on every keyed route and /ready while its PostgreSQL is frozen, and recovers after SIGCONT', async () => {
    const { cluster, url } = await ownPostgres();
    const headers = { 'x-api-key': STORED_KEY };
    const key = encodeURIComponent(PRODUCTS.plain.productKey);
    const routes = [
      PATH,
      `/api/v1/developer/pricing/${key}/history?every=1h&from=${new Date(now - 2 * HOUR).toISOString()}`,
      `/api/v1/developer/pricing/${key}/evidence?slot=ungraded`,
      '/api/v1/developer/catalog',
      '/api/v1/developer/catalog/search?q=charizard',
      `/api/v1/developer/refsource/${PRODUCTS.plain.refsourceId}`,
      '/api/v1/ready',
    ];
    const answer = async (route: string) => {
      const res = await fetch(url + route, { headers, signal: AbortSignal.timeout(5_000) });
      return {
        route,
        status: res.status,
        detail: res.ok ? null : ((await res.json()) as { detail: string }).detail,
      };
    };
    expect((await Promise.all(routes.map(answer))).map((a) => a.status)).toEqual(routes.map(() => 200));

    const frozen = freeze(cluster.dir);
    try {
      // Each answered; from 2 s after the freeze on, each is a 503 (the cached ones
      // too: the listening connection's heartbeat finds the database silent).
      const started = performance.now();
      let answers: Awaited<ReturnType<typeof answer>>[];
      do {
        answers = await Promise.all(routes.map(answer));
        // Each answers (AbortSignal.timeout throws on one that hangs); how fast is for the bench.
      } while (answers.some((a) => a.status === 200) && performance.now() - started < 2_000);
      for (const a of answers) {
        expect(a.status, a.route).toBe(503);
        expect(a.detail, a.route).toMatch(/^database unavailable: the database server /);
      }
    } finally {
      frozen.thaw();
    }
    // Back by itself: no restart.
    const thawed = performance.now();
    let statuses: number[];
    do statuses = (await Promise.all(routes.map(answer))).map((a) => a.status);
    while (statuses.some((s) => s !== 200) && performance.now() - thawed < 3_000);
    expect(statuses).toEqual(routes.map(() => 200));
  });

  it('answers 503, never a 500, within a second of its PostgreSQL going down', async () => {
    const { cluster, url } = await ownPostgres();
    try {
      const path = url + PATH;
      const headers = { 'x-api-key': STORED_KEY };
      expect((await fetch(path, { headers })).status).toBe(200);
      await cluster.stop();
      // The cached bundle goes with the connection that kept it current, once its loss is seen.
      const stopped = performance.now();
      const statuses: number[] = [];
      let last: Response;
      // Paced, so that the probes stay within the key's 120 requests a minute (a 429 would hide the answer).
      do {
        if (statuses.length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
        last = await fetch(path, { headers });
        statuses.push(last.status);
      } while (last.status === 200 && performance.now() - stopped < 1_000);
      expect(new Set(statuses.slice(0, -1))).toEqual(new Set(statuses.length > 1 ? [200] : []));
      expect(last.status).toBe(503);
      expect(((await last.json()) as { detail: string }).detail).toBe(
        'database unavailable: the database server cannot be reached',
      );
      const others = await Promise.all(
        [`${url}/api/v1/developer/catalog`, `${url}/api/v1/ready`].map((u) => fetch(u, { headers })),
      );
      expect(others.map((a) => a.status)).toEqual([503, 503]);
    } finally {
      await cluster.stop();
    }
  });
});
