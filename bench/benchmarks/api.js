// @ts-check
/**
 * Issue 6.3: requests/s and p99 latency of GET /api/v1/developer/pricing/{key} with auth and
 * rate limiting on (limit raised out of the way), from autocannon in a second process on
 * loopback, against a bare node:http server answering a fixed body of the same size. Beside
 * it, when redis-server is installed, the same server with `--redis` (the buckets in a real
 * Redis on loopback, one round trip per request), against the in-process bucket; and the
 * same server with `--metrics`, in the same rounds, for what Prometheus metrics cost.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { findRedisServer, REDIS_INSTALL_HINT, startRedis } from '../../scripts/test-services.js';
import { sampleDatabase } from '../lib/data.js';
import { hottestProduct } from '../lib/db-query.js';
import { nodeFlags, ORACLE_BIN, oracleChecked } from '../lib/oracle.js';
import { cpuTimeMs, runChecked, startService } from '../lib/proc.js';
import { figure } from '../lib/results.js';
import { describeScale } from '../lib/scales.js';
import { median, round } from '../lib/stats.js';

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
const BARE_SERVER = fileURLToPath(new URL('../children/bare-server.js', import.meta.url));
const LISTENING = /listening on (http:\/\/[^\s]+)/;
/** Far above what one machine can send, so the bucket is checked on every request but never empties. */
const RATE_LIMIT = 1_000_000_000;

/**
 * @typedef {object} Load
 * @property {number} rps mean requests per second
 * @property {number} p99 latency, ms
 * @property {number} p50 latency, ms
 * @property {number} total
 * @property {number} bad non-2xx responses, errors and timeouts
 * @property {number | null} cpuUsPerRequest the server's CPU time per request, µs
 */

/**
 * @param {import('../lib/scales.js').Scale['api']} s
 * @param {import('../lib/proc.js').Service} server
 * @param {string} url
 * @param {Record<string, string>} headers
 * @returns {Promise<Load>}
 */
async function load(s, server, url, headers) {
  const cpuBefore = cpuTimeMs(server.pid);
  const args = [AUTOCANNON, '--json', '-c', String(s.connections), '-d', String(s.durationSeconds)];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  const r = await runChecked(process.execPath, [...args, url], { captureStdout: true });
  const cpuAfter = cpuTimeMs(server.pid);
  const out = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}');
  return {
    cpuUsPerRequest:
      cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / out.requests.total,
    rps: out.requests.average,
    p99: out.latency.p99,
    p50: out.latency.p50,
    total: out.requests.total,
    bad: out.non2xx + out.errors + out.timeouts,
  };
}

/**
 * Median server CPU time per request over rounds, µs.
 * @param {Load[]} loads
 * @returns {number | null}
 */
function cpuPerRequest(loads) {
  const values = loads.map((l) => l.cpuUsPerRequest).filter((v) => v !== null);
  return values.length === 0 ? null : round(median(/** @type {number[]} */ (values)), 1);
}

/**
 * @param {number} rps
 * @param {Load[]} loads
 * @returns {string}
 */
function utilisation(rps, loads) {
  const us = cpuPerRequest(loads);
  return us === null ? 'n/a' : ((rps * us) / 1e6).toFixed(2);
}

/**
 * @param {import('../lib/data.js').BenchContext} ctx
 * @returns {Promise<import('../lib/results.js').BenchResult>}
 */
export async function apiBenchmark(ctx) {
  const s = ctx.scale.api;
  const sample = await sampleDatabase(ctx);
  const product = hottestProduct(sample.db);
  // A stored key, as paying clients get: the verifier's lookup and cache are on the path.
  const apiKey = (
    await oracleChecked(sample.db, ['keys', 'create', '--label', 'bench'], { captureStdout: true })
  ).stdout.trim();
  const serverArgs = [
    ...nodeFlags(ctx.profileDir),
    ORACLE_BIN,
    '--db',
    sample.db,
    'serve',
    '--host',
    '127.0.0.1',
    '--port',
    '0',
  ];
  const server = await startService(
    process.execPath,
    [...serverArgs, '--rate-limit', String(RATE_LIMIT)],
    LISTENING,
  );
  /** @type {import('../lib/proc.js').Service | null} */
  let bare = null;
  const redis = findRedisServer() ? await startRedis() : null;
  /** @type {import('../lib/proc.js').Service | null} */
  let shared = null;
  /** The same server with `--metrics`: what observing every request for Prometheus costs. */
  /** @type {import('../lib/proc.js').Service | null} */
  let metered = null;
  try {
    const path = `/api/v1/developer/pricing/${encodeURIComponent(product.productKey)}`;
    const oracleUrl = `${server.ready[1]}${path}`;
    const headers = { 'X-API-Key': apiKey };
    const first = await fetch(oracleUrl, { headers });
    const body = Buffer.from(await first.arrayBuffer());
    if (first.status !== 200)
      throw new Error(`GET ${path} answered ${first.status}: ${body.toString().slice(0, 300)}`);
    bare = await startService(process.execPath, [BARE_SERVER, String(body.length)], LISTENING);
    const bareUrl = `${bare.ready[1]}${path}`;
    if (redis)
      shared = await startService(
        process.execPath,
        [...serverArgs, '--rate-limit', String(RATE_LIMIT), '--redis', redis.url],
        LISTENING,
      );
    const sharedUrl = shared ? `${shared.ready[1]}${path}` : '';
    metered = await startService(
      process.execPath,
      [...serverArgs, '--rate-limit', String(RATE_LIMIT), '--metrics'],
      LISTENING,
    );
    const meteredUrl = `${metered.ready[1]}${path}`;

    /** @type {Load[]} */
    const ours = [];
    /** @type {Load[]} */
    const theirs = [];
    /** @type {Load[]} */
    const withRedis = [];
    /** @type {Load[]} */
    const metricsOn = [];
    // One second of load on each first, untimed: JIT warm-up and the first bundle computation.
    await load({ ...s, durationSeconds: 1 }, bare, bareUrl, headers);
    await load({ ...s, durationSeconds: 1 }, server, oracleUrl, headers);
    if (shared) await load({ ...s, durationSeconds: 1 }, shared, sharedUrl, headers);
    await load({ ...s, durationSeconds: 1 }, metered, meteredUrl, headers);
    for (let round = 0; round < s.rounds; round += 1) {
      // Alternate which side goes first, so a slower stretch of a busy machine hits both.
      ctx.log(`api round ${round + 1}/${s.rounds} (${s.durationSeconds} s per side)`);
      if (round % 2 === 0) theirs.push(await load(s, bare, bareUrl, headers));
      if (round % 2 === 1) metricsOn.push(await load(s, metered, meteredUrl, headers));
      ours.push(await load(s, server, oracleUrl, headers));
      if (shared) withRedis.push(await load(s, shared, sharedUrl, headers));
      if (round % 2 === 0) metricsOn.push(await load(s, metered, meteredUrl, headers));
      if (round % 2 === 1) theirs.push(await load(s, bare, bareUrl, headers));
    }
    const meteredRps = median(metricsOn.map((l) => l.rps));
    const bad = [...ours, ...theirs, ...withRedis, ...metricsOn].reduce((n, l) => n + l.bad, 0);
    const rps = median(ours.map((l) => l.rps));
    const baseRps = median(theirs.map((l) => l.rps));
    const p99 = median(ours.map((l) => l.p99));
    const baseP99 = median(theirs.map((l) => l.p99));
    const baseline = 'bare node:http, fixed body of the same size';
    return {
      name: 'api',
      title: '3. API',
      scale: describeScale(ctx.scale),
      date: new Date().toISOString(),
      setup: [
        `\`oracle serve\` on the sample database (real catalog, history ending ${sample.end}), GET ${path} with X-API-Key (a key made by \`oracle keys create\`), rate limit on at ${RATE_LIMIT.toLocaleString('en-US')}/min; response body ${body.length.toLocaleString('en-US')} bytes; access log to /dev/null.`,
        `autocannon 8 in a second process on loopback: ${s.connections} connections, ${s.durationSeconds} s per run, ${s.rounds} round(s) alternating which side goes first, after 1 s of untimed warm-up load on each; medians over rounds. Server CPU time per request from /proc/<pid>/stat.`,
      ],
      figures: [
        figure({
          figure: 'Requests/s',
          value: Math.round(rps),
          unit: 'req/s',
          baseline,
          baselineValue: Math.round(baseRps),
          ratio: round(rps / baseRps, 2),
          ratioDefinition: 'oracle / bare',
          target: 'ratio >= 0.60',
          pass: bad === 0 && rps / baseRps >= 0.6,
        }),
        figure({
          figure: 'Latency p99',
          value: p99,
          unit: 'ms',
          baseline,
          baselineValue: baseP99,
          ratio: baseP99 > 0 ? round(p99 / baseP99, 2) : null,
          ratioDefinition: 'oracle / bare',
          target: null,
        }),
        figure({
          figure: 'Server CPU per request',
          value: cpuPerRequest(ours),
          unit: 'µs',
          baseline,
          baselineValue: cpuPerRequest(theirs),
          ratioDefinition: 'oracle / bare (the cost of the request path, robust to a busy machine)',
          target: null,
        }),
        ...(shared ? redisFigures(rps, ours, withRedis) : []),
        figure({
          figure: 'Requests/s with --metrics',
          value: Math.round(meteredRps),
          unit: 'req/s',
          baseline: 'the same oracle serve without --metrics, same rounds',
          baselineValue: Math.round(rps),
          ratio: round(meteredRps / rps, 2),
          ratioDefinition: 'with / without --metrics',
          target: null,
        }),
        figure({
          figure: 'Server CPU per request with --metrics',
          value: cpuPerRequest(metricsOn),
          unit: 'µs',
          baseline: 'the same oracle serve without --metrics, same rounds',
          baselineValue: cpuPerRequest(ours),
          ratioDefinition: 'with / without --metrics (the cost of observing each request)',
          target: null,
        }),
        figure({
          figure: 'Latency p50',
          value: median(ours.map((l) => l.p50)),
          unit: 'ms',
          baseline,
          baselineValue: median(theirs.map((l) => l.p50)),
          ratio: null,
          ratioDefinition: null,
          target: null,
        }),
      ],
      notes: [
        ...(bad > 0 ? [`${bad} responses were not 2xx (or errored): the figure is not valid.`] : []),
        redis
          ? `With --redis: the same server with its buckets in Redis (Debian's redis-server, nothing persisted) on loopback, run right after the in-process one in each round; Redis shares the machine's 2 cores with the server and autocannon, as it would not in a deployment.`
          : `With --redis: not measured, redis-server is not installed (${REDIS_INSTALL_HINT}).`,
        `Cores busy in the server process (req/s x CPU per request): oracle ${utilisation(rps, ours)}, bare ${utilisation(baseRps, theirs)}; a server near 1.00 is CPU-bound, one well below is held back by the load generator on the other core.`,
      ],
    };
  } finally {
    await shared?.stop();
    await redis?.stop();
    await bare?.stop();
    await metered?.stop();
    await server.stop();
  }
}

/**
 * The Redis-backed server beside the in-process one of the same run.
 * @param {number} rps the in-process server's req/s
 * @param {Load[]} ours
 * @param {Load[]} withRedis
 */
function redisFigures(rps, ours, withRedis) {
  const baseline = 'the same oracle serve, buckets in process';
  const redisRps = median(withRedis.map((l) => l.rps));
  return [
    figure({
      figure: 'Requests/s with --redis',
      value: Math.round(redisRps),
      unit: 'req/s',
      baseline,
      baselineValue: Math.round(rps),
      ratio: round(redisRps / rps, 2),
      ratioDefinition: '--redis / in process',
      target: null,
    }),
    figure({
      figure: 'Server CPU per request with --redis',
      value: cpuPerRequest(withRedis),
      unit: 'µs',
      baseline,
      baselineValue: cpuPerRequest(ours),
      ratioDefinition: '--redis / in process',
      target: null,
    }),
  ];
}
