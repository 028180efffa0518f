// @ts-check
/**
 * Issue 14.5, PostgreSQL (a real server started by scripts/test-services.js in a temporary
 * directory, durability settings as in the tests: fsync, synchronous_commit and
 * full_page_writes off, for both sides alike):
 * - `oracle ingest` of canonical CSV observations into PostgreSQL, against `psql \copy` of the
 *   same file into a table of the CSV's columns with the store's unique indexes over them;
 * - requests/s of two `oracle serve` replicas on one PostgreSQL, one autocannon per replica
 *   (a load balancer's even split), against one replica under the same total connections;
 * - the bundle's p50 on PostgreSQL against SQLite, in-process (bench/children/pricing-probe.js),
 *   the same data in both, each store opened as the server opens it (on PostgreSQL: with its
 *   point cache, src/store/pg/point-cache.ts).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { findPostgresBin, PG_INSTALL_HINT, startPostgres } from '../../scripts/test-services.js';
import { DATA_END, generatedData, hotProductKey, loadedDatabase } from '../lib/data.js';
import { nodeFlags, ORACLE_BIN, oracle, oracleChecked } from '../lib/oracle.js';
import { run, runChecked, startService } from '../lib/proc.js';
import { figure } from '../lib/results.js';
import { describeScale } from '../lib/scales.js';
import { median, percentile, round } from '../lib/stats.js';

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
const PROBE = fileURLToPath(new URL('../children/pricing-probe.js', import.meta.url));
const LISTENING = /listening on (http:\/\/[^\s]+)/;
const RATE_LIMIT = 1_000_000_000;

/**
 * A new, empty database on the server; its URL.
 * @param {string} serverUrl
 * @param {string} name
 */
async function freshDatabase(serverUrl, name) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * @param {string} url
 * @param {string} sql
 */
async function query(url, sql) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/**
 * @param {{ connections: number, durationSeconds: number }} s
 * @param {string} url
 * @param {Record<string, string>} headers
 */
async function load(s, url, headers) {
  const args = [AUTOCANNON, '--json', '-c', String(s.connections), '-d', String(s.durationSeconds)];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  const r = await runChecked(process.execPath, [...args, url], { captureStdout: true });
  const out = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}');
  return {
    rps: /** @type {number} */ (out.requests.average),
    bad: /** @type {number} */ (out.non2xx + out.errors + out.timeouts),
  };
}

/**
 * @param {import('../lib/data.js').BenchContext} ctx
 * @param {string} db
 * @param {string} productKey
 * @returns {Promise<{ totalMs: number[], ungradedPriceMinor: number | null }>}
 */
async function probe(ctx, db, productKey) {
  const { iterations, warmup } = ctx.scale.pricing;
  const args = [
    ...nodeFlags(ctx.profileDir),
    PROBE,
    db,
    productKey,
    DATA_END,
    String(iterations),
    String(warmup),
  ];
  return JSON.parse((await runChecked(process.execPath, args, { captureStdout: true })).stdout);
}

/** @param {import('../lib/data.js').BenchContext} ctx */
export async function preparePostgres(ctx) {
  const data = await generatedData(ctx, {
    products: ctx.scale.ingest.products,
    observations: ctx.scale.ingest.rows,
  });
  const small = await loadedDatabase(ctx, ctx.scale.pricing.small);
  return { data, small };
}

/**
 * @param {import('../lib/data.js').BenchContext} ctx
 * @returns {Promise<import('../lib/results.js').BenchResult>}
 */
export async function postgresBenchmark(ctx) {
  const bin = findPostgresBin();
  if (!bin) throw new Error(`PostgreSQL not found: install it with ${PG_INSTALL_HINT}`);
  const psql = [join(bin, 'psql'), '/usr/bin/psql'].find((p) => existsSync(p)) ?? 'psql';
  const { data, small } = await preparePostgres(ctx);
  const server = await startPostgres();
  /** @type {import('../lib/proc.js').Service[]} */
  const services = [];
  try {
    // 1. Ingest beside psql \copy, A/B interleaved, each into a fresh database.
    const header =
      'product_key text, source text, observed_at text, price_minor bigint, grader text, grade double precision, external_id text';
    const baselineSchema = [
      `CREATE TABLE observations (${header})`,
      'CREATE UNIQUE INDEX observations_pricing ON observations (product_key, grader, grade, observed_at, price_minor, source, external_id)',
      "CREATE UNIQUE INDEX observations_source_external_id ON observations (source, external_id) WHERE external_id <> ''",
    ];
    /** @type {number[]} */
    const ours = [];
    /** @type {number[]} */
    const theirs = [];
    let stored = 0;
    for (let i = 0; i < ctx.scale.ingest.repeats; i += 1) {
      ctx.log(`postgres ingest run ${i + 1}/${ctx.scale.ingest.repeats}`);
      const base = await freshDatabase(server.url, 'bench_copy');
      for (const statement of baselineSchema) await query(base, statement);
      const copied = await run(psql, [
        base,
        '-v',
        'ON_ERROR_STOP=1',
        '-c',
        `\\copy observations FROM '${data.observationsCsv}' CSV HEADER`,
      ]);
      if (copied.code !== 0) throw new Error(`psql \\copy failed: ${copied.stderr.trim().slice(0, 500)}`);
      theirs.push(copied.wallMs);
      const db = await freshDatabase(server.url, 'bench_ingest');
      await oracleChecked(db, ['ingest', data.catalogCsv]);
      const r = await oracle(db, ['ingest', data.observationsCsv], {
        profileDir: i === 0 ? ctx.profileDir : null,
      });
      if (r.code !== 0) throw new Error(`oracle ingest exited ${r.code}: ${r.stderr.trim().slice(0, 500)}`);
      ours.push(r.wallMs);
      stored = Number((await query(db, 'SELECT count(*) AS n FROM observations'))[0].n);
    }
    const ingestMs = median(ours);
    const copyMs = median(theirs);

    // 2. Bundle p50: the same generated data on SQLite (the pricing benchmark's small database) and PostgreSQL.
    const pricingUrl = await freshDatabase(server.url, 'bench_pricing');
    await oracleChecked(pricingUrl, ['ingest', small.data.catalogCsv]);
    await oracleChecked(pricingUrl, ['ingest', small.data.observationsCsv]);
    const hot = hotProductKey(small.data);
    /** @type {number[]} */
    const pgP50 = [];
    /** @type {number[]} */
    const sqliteP50 = [];
    /** @type {(number | null)[]} */
    const prices = [];
    for (let round = 0; round < 2; round += 1) {
      const order = round % 2 === 0 ? [small.db, pricingUrl] : [pricingUrl, small.db];
      for (const db of order) {
        const p = await probe(ctx, db, hot);
        (db === pricingUrl ? pgP50 : sqliteP50).push(percentile(p.totalMs, 50));
        prices.push(p.ungradedPriceMinor);
      }
    }
    const samePrice = prices.every((p) => p === prices[0]);

    // 3. Two replicas beside one, on the PostgreSQL database above.
    const apiKey = (
      await oracleChecked(pricingUrl, ['keys', 'create', '--label', 'bench'], { captureStdout: true })
    ).stdout.trim();
    const serveArgs = [
      ORACLE_BIN,
      '--db',
      pricingUrl,
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--rate-limit',
      String(RATE_LIMIT),
    ];
    for (let i = 0; i < 2; i += 1) services.push(await startService(process.execPath, serveArgs, LISTENING));
    const path = `/api/v1/developer/pricing/${encodeURIComponent(hot)}?at=${encodeURIComponent(DATA_END)}`;
    const urls = services.map((s) => `${s.ready[1]}${path}`);
    const headers = { 'X-API-Key': apiKey };
    const first = await fetch(urls[0] ?? '', { headers });
    if (first.status !== 200)
      throw new Error(`GET ${path} answered ${first.status}: ${(await first.text()).slice(0, 300)}`);
    const s = ctx.scale.api;
    const half = { ...s, connections: Math.max(1, Math.round(s.connections / 2)) };
    await load({ ...s, durationSeconds: 1 }, urls[0] ?? '', headers);
    await load({ ...s, durationSeconds: 1 }, urls[1] ?? '', headers);
    /** @type {number[]} */
    const one = [];
    /** @type {number[]} */
    const two = [];
    let bad = 0;
    for (let round = 0; round < s.rounds; round += 1) {
      ctx.log(`postgres replicas round ${round + 1}/${s.rounds}`);
      const single = async () => {
        const r = await load(s, urls[0] ?? '', headers);
        bad += r.bad;
        one.push(r.rps);
      };
      const pair = async () => {
        const rs = await Promise.all(urls.map((u) => load(half, u, headers)));
        bad += rs.reduce((n, r) => n + r.bad, 0);
        two.push(rs.reduce((n, r) => n + r.rps, 0));
      };
      if (round % 2 === 0) {
        await single();
        await pair();
      } else {
        await pair();
        await single();
      }
    }
    const oneRps = median(one);
    const twoRps = median(two);

    return {
      name: 'postgres',
      title: '9. PostgreSQL',
      scale: describeScale(ctx.scale),
      date: new Date().toISOString(),
      setup: [
        `PostgreSQL ${(await query(server.url, 'SHOW server_version'))[0].server_version} on loopback, started by scripts/test-services.js (fsync, synchronous_commit, full_page_writes off, as in the tests); every side on the same server.`,
        `Ingest: ${data.rows.toLocaleString('en-US')} canonical CSV rows (${(data.bytes / 2 ** 20).toFixed(1)} MiB) over ${ctx.scale.ingest.products.toLocaleString('en-US')} products; each side into a fresh database, ${ctx.scale.ingest.repeats} runs interleaved, median wall time of the whole process; the catalog load is not timed. Baseline: \`psql \\copy ... CSV HEADER\` of the same file into a table of its columns with the store's two unique indexes over them (product_id -> product_key, condition -> grader, grade).`,
        `Bundle p50: ${hot} of the pricing benchmark's small data set in both stores, ${ctx.scale.pricing.iterations} bundles in-process per run (pricing-probe.js, each store opened as \`oracle serve\` opens it: on PostgreSQL the bundles after the first are priced from the store's point cache), 2 rounds alternating which store goes first; medians of the runs' p50.`,
        `Replicas: two \`oracle serve\` processes on one database, one autocannon per replica with ${half.connections} connections each, against one replica with ${s.connections} connections; GET ${path} with a stored key, ${s.durationSeconds} s per run, ${s.rounds} round(s) alternating the order. Client and servers share the machine's cores.`,
      ],
      figures: [
        figure({
          figure: 'Ingest into PostgreSQL, wall time',
          value: Math.round(ingestMs),
          unit: 'ms',
          baseline: '`psql \\copy` of the same file',
          baselineValue: Math.round(copyMs),
          ratio: round(ingestMs / copyMs, 2),
          ratioDefinition: 'oracle / psql \\copy',
          target: null,
        }),
        figure({
          figure: 'Bundle p50 on PostgreSQL',
          value: round(median(pgP50), 3),
          unit: 'ms',
          baseline: 'the same bundle on SQLite, same rounds',
          baselineValue: round(median(sqliteP50), 3),
          ratio: round(median(pgP50) / median(sqliteP50), 2),
          ratioDefinition: 'PostgreSQL / SQLite',
          target: null,
        }),
        figure({
          figure: 'Requests/s, two replicas',
          value: Math.round(twoRps),
          unit: 'req/s',
          baseline: 'one replica, same total connections',
          baselineValue: Math.round(oneRps),
          ratio: round(twoRps / oneRps, 2),
          ratioDefinition: 'two / one',
          target: null,
          pass: bad === 0,
        }),
      ],
      notes: [
        ...(stored === data.rows ? [] : [`oracle ingest stored ${stored} of ${data.rows} rows.`]),
        ...(samePrice ? [] : [`the stores priced ${hot} differently: ${prices.join(', ')}`]),
        ...(bad === 0 ? [] : [`${bad} non-2xx responses, errors or timeouts under load.`]),
      ],
    };
  } finally {
    for (const service of services) await service.stop();
    await server.stop();
  }
}
