// @ts-check
/**
 * Issue 24.1, no request stalls another: p99 latency of a bundle request from a second key, and
 * of GET /api/v1/health, while one key sends its whole allowance of the heaviest history
 * requests at once (HISTORY_MAX_POINTS hourly points, all 17 slots, the widest window, over
 * the pricing benchmark's hot product; sent by a client process of its own, ../children/burst.js),
 * beside the same probes without that load. One `oracle serve` (the built CLI) with
 * `--rate-limit` set to the allowance, and the most CPU time
 * its event-loop thread spent in one turn during the burst (../children/loop-turns.js, Linux).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_END, hotProductKey } from '../lib/data.js';
import { nodeFlags, ORACLE_BIN, oracleChecked } from '../lib/oracle.js';
import { runChecked, startService } from '../lib/proc.js';
import { figure } from '../lib/results.js';
import { describeScale } from '../lib/scales.js';
import { scratchDir } from '../lib/workspace.js';
import { percentile, round } from '../lib/stats.js';
import { preparePricing } from './pricing.js';

const LISTENING = /listening on (http:\/\/[^\s]+)/;
const HOUR = 3_600_000;
/** The history route's limit (src/domain/history.ts HISTORY_MAX_POINTS). */
const MAX_POINTS = 1_000;
const SLOTS = [
  'ungraded',
  ...['psa', 'bgs', 'cgc', 'sgc'].flatMap((g) => [7, 8, 9, 10].map((n) => `${g}${n}`)),
];
/** One probe pair (a bundle, a health check) this often. */
const PROBE_EVERY_MS = 100;
/** The bounds of issue 24. */
const HEALTH_TARGET_MS = 100;
const BUNDLE_TARGET_MS = 250;
/**
 * The most CPU time the server's event-loop thread may spend in one turn: a history's slice
 * (SLICE_MS) with the step that crossed it and a collection of the heap, with room to spare.
 * Until issue 32 a bound of test/http/load.test.ts, where it measured a busy machine too.
 */
const LOOP_TURN_TARGET_MS = 30;
/** The server's event-loop turns are timed by this preload. */
const LOOP_TURNS = new URL('../children/loop-turns.js', import.meta.url);
/** The heavy client: a process of its own, so that receiving its bodies does not delay the probes. */
const BURST = new URL('../children/burst.js', import.meta.url);
/** How long the preload has to write what it measured once told to stop. */
const LOOP_TURNS_WAIT_MS = 2_000;

/**
 * The preload's figures once it has written them, or null (not Linux, or nothing written in time).
 * @param {string} file
 * @returns {Promise<{ turns: number, p999: number, max: number } | null>}
 */
async function loopTurns(file) {
  for (const started = performance.now(); performance.now() - started < LOOP_TURNS_WAIT_MS;) {
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return null;
}

/**
 * @param {string} url
 * @param {Record<string, string>} headers
 * @returns {Promise<{ status: number, ms: number }>}
 */
async function timed(url, headers = {}) {
  const sent = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - sent };
}

/**
 * Probes every PROBE_EVERY_MS until `until` settles (or `count` pairs when it is a number):
 * a bundle of the hot product at an instant no probe asked before (so no cached answer), and
 * a health check.
 * @param {string} base
 * @param {string} productKey
 * @param {Record<string, string>} headers
 * @param {Promise<unknown> | number} until
 * @param {{ next: number }} instant a counter shared by every run, so instants never repeat
 */
async function probe(base, productKey, headers, until, instant) {
  let done = false;
  if (typeof until !== 'number') void until.finally(() => (done = true));
  /** @type {number[]} */
  const bundle = [];
  /** @type {number[]} */
  const health = [];
  let limited = 0;
  for (let i = 0; typeof until === 'number' ? i < until : !done; i += 1) {
    const at = new Date(Date.parse(DATA_END) - (instant.next += 1) * 60_000).toISOString();
    const [b, h] = await Promise.all([
      timed(
        `${base}/api/v1/developer/pricing/${encodeURIComponent(productKey)}?at=${encodeURIComponent(at)}`,
        headers,
      ),
      timed(`${base}/api/v1/health`),
    ]);
    if (b.status === 429) limited += 1;
    else if (b.status !== 200) throw new Error(`the bundle probe answered ${b.status}`);
    else bundle.push(b.ms);
    health.push(h.ms);
    await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
  }
  return { bundle, health, limited };
}

/**
 * A percentile of the probes during the burst beside the same probes without it; `target`
 * (ms) is the bound it must stay under, null for a figure that is only shown.
 * @param {string} name
 * @param {number[]} loaded
 * @param {number[]} quiet
 * @param {number} p
 * @param {number | null} target
 */
function probeFigure(name, loaded, quiet, p, target) {
  return figure({
    figure: name,
    value: round(percentile(loaded, p), 1),
    unit: 'ms',
    baseline: 'the same probes without the burst',
    baselineValue: round(percentile(quiet, p), 1),
    ratioDefinition: 'loaded / quiet',
    target: target === null ? null : `< ${target} ms`,
    ...(target === null ? {} : { pass: percentile(loaded, p) < target }),
  });
}

/**
 * @param {import('../lib/data.js').BenchContext} ctx
 * @returns {Promise<import('../lib/results.js').BenchResult>}
 */
export async function loadBenchmark(ctx) {
  const { allowance } = ctx.scale.load;
  const { bigDb } = await preparePricing(ctx);
  const productKey = hotProductKey(bigDb.data);
  const key = async (/** @type {string} */ label) =>
    (
      await oracleChecked(bigDb.db, ['keys', 'create', '--label', label], { captureStdout: true })
    ).stdout.trim();
  const heavyKey = await key('bench heavy');
  const otherKey = await key('bench other');
  const turnsFile = join(scratchDir('load'), 'loop-turns.json');
  const args = [
    ...nodeFlags(ctx.profileDir),
    '--import',
    LOOP_TURNS.href,
    ORACLE_BIN,
    ...['--db', bigDb.db, 'serve', '--host', '127.0.0.1', '--port', '0', '--rate-limit', String(allowance)],
  ];
  const server = await startService(process.execPath, args, LISTENING, {
    env: { ...process.env, BENCH_LOOP_TURNS_FILE: turnsFile },
  });
  try {
    const base = server.ready[1] ?? '';
    const to = Date.parse(DATA_END);
    const query = `every=1h&from=${new Date(to - (MAX_POINTS - 1) * HOUR).toISOString()}&to=${DATA_END}&slots=${SLOTS.join(',')}&window_hours=72`;
    const heaviest = `${base}/api/v1/developer/pricing/${encodeURIComponent(productKey)}/history?${query}`;
    const instant = { next: 0 };
    // Warm-up (untimed): a bundle and a short history compile what the runs use.
    await timed(`${base}/api/v1/developer/pricing/${encodeURIComponent(productKey)}`, {
      'X-API-Key': otherKey,
    });
    const quiet = await probe(
      base,
      productKey,
      { 'X-API-Key': otherKey },
      Math.floor(allowance / 2),
      instant,
    );
    ctx.log(
      `load: ${allowance} heaviest history requests at once from one key, probing every ${PROBE_EVERY_MS} ms`,
    );
    process.kill(/** @type {number} */ (server.pid), 'SIGUSR2');
    const started = performance.now();
    const burst = runChecked(process.execPath, [BURST.pathname, heaviest, String(allowance)], {
      captureStdout: true,
      env: { ...process.env, BENCH_BURST_KEY: heavyKey },
    });
    const loaded = await probe(base, productKey, { 'X-API-Key': otherKey }, burst, instant);
    /** @type {{ status: number, ms: number }[]} */
    const heavy = JSON.parse((await burst).stdout);
    const burstMs = performance.now() - started;
    process.kill(/** @type {number} */ (server.pid), 'SIGUSR2');
    const turns = await loopTurns(turnsFile);
    const failed = heavy.filter((h) => h.status !== 200).length;
    if (failed > 0) throw new Error(`${failed} of the ${allowance} history requests did not answer 200`);
    return {
      name: 'load',
      title: '11. No request stalls another',
      scale: describeScale(ctx.scale),
      date: new Date().toISOString(),
      setup: [
        `\`oracle serve --rate-limit ${allowance}\` over the pricing benchmark's big database; one key sends its whole allowance, ${allowance} history requests of \`${productKey}\` (${MAX_POINTS} hourly points ending ${DATA_END}, all 17 slots, window_hours=72) at once; the burst took ${round(burstMs / 1000, 1)} s (each request ${round(
          percentile(
            heavy.map((h) => h.ms),
            50,
          ) / 1000,
          1,
        )} s at the median, ${round(
          percentile(
            heavy.map((h) => h.ms),
            100,
          ) / 1000,
          1,
        )} s the last).`,
        `Meanwhile a second key asks for a bundle of the same product at a new instant (no cached answer) and GET /api/v1/health every ${PROBE_EVERY_MS} ms, one pair at a time: ${loaded.bundle.length} bundles (${loaded.limited} more answered 429: the second key's own allowance), ${loaded.health.length} health checks. Baseline: ${quiet.bundle.length} of the same pairs before the burst.`,
      ],
      figures: [
        probeFigure(
          'Bundle from another key during the burst, p99',
          loaded.bundle,
          quiet.bundle,
          99,
          BUNDLE_TARGET_MS,
        ),
        probeFigure(
          'GET /api/v1/health during the burst, p99',
          loaded.health,
          quiet.health,
          99,
          HEALTH_TARGET_MS,
        ),
        probeFigure('GET /api/v1/health during the burst, max', loaded.health, quiet.health, 100, null),
        ...(turns === null
          ? []
          : [
              figure({
                figure: "Longest turn of the server's event loop during the burst (CPU time of its thread)",
                value: round(turns.max, 1),
                unit: 'ms',
                baseline: `p99.9 of its ${turns.turns.toLocaleString('en-US')} turns`,
                baselineValue: round(turns.p999, 1),
                ratioDefinition: 'longest / p99.9',
                target: `< ${LOOP_TURN_TARGET_MS} ms`,
                pass: turns.max < LOOP_TURN_TARGET_MS,
              }),
            ]),
      ],
      notes:
        turns === null
          ? ["The server's event-loop turns were not timed: /proc/thread-self/schedstat is Linux's."]
          : [],
    };
  } finally {
    await server.stop();
  }
}
