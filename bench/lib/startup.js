// @ts-check
/**
 * Short-lived command timing against `node -e 0`, and which packages a command loads.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { interleaveAll } from './interleave.js';
import { ORACLE_BIN } from './oracle.js';
import { run } from './proc.js';
import { median } from './stats.js';
import { WORK_DIR } from './workspace.js';

const TRACE = fileURLToPath(new URL('../children/import-trace.js', import.meta.url));

/**
 * @typedef {object} Timing
 * @property {number} commandMs median wall time of the command
 * @property {number} nodeMs median wall time of `node -e 0`
 * @property {number | null} commandCpuMs median user + system CPU time, when GNU time is there
 * @property {number | null} nodeCpuMs
 * @property {number} samples runs of each side
 */

/**
 * Median wall time (and CPU time, when GNU time is there) of `node bin/oracle.js ...args`
 * and of `node -e 0`, alternated. CPU time is what a busy machine distorts least.
 * @param {readonly string[]} args
 * @param {number} pairs
 * @param {(stdout: string) => void} check throws when the command's output is wrong
 * @returns {Promise<Timing>}
 */
export async function timeAgainstNode(args, pairs, check) {
  return /** @type {Timing} */ ((await timeBinsAgainstNode([ORACLE_BIN], args, pairs, check))[0]);
}

/**
 * `timeAgainstNode` for several builds of the CLI at once: `node <bin> ...args` for each bin
 * and `node -e 0`, all alternated in the same rounds; one Timing per bin, in order.
 * @param {readonly string[]} bins
 * @param {readonly string[]} args
 * @param {number} rounds
 * @param {(stdout: string) => void} check
 * @returns {Promise<Timing[]>}
 */
export async function timeBinsAgainstNode(bins, args, rounds, check) {
  const commands = bins.map((bin) => async () => {
    const r = await run(process.execPath, [bin, ...args], { captureStdout: true, measureCpu: true });
    if (r.code !== 0) throw new Error(`${bin} ${args.join(' ')} exited ${r.code}: ${r.stderr.trim()}`);
    check(r.stdout);
    return r;
  });
  const samples = await interleaveAll(rounds, [
    ...commands,
    () => run(process.execPath, ['-e', '0'], { measureCpu: true }),
  ]);
  const node = /** @type {import('./proc.js').RunResult[]} */ (samples.pop());
  /** @param {import('./proc.js').RunResult[]} rs */
  const cpu = (rs) =>
    rs.every((r) => r.cpuMs !== null) ? median(rs.map((r) => /** @type {number} */ (r.cpuMs))) : null;
  /** @param {import('./proc.js').RunResult[]} rs */
  const wall = (rs) => median(rs.map((r) => r.wallMs));
  return samples.map((rs) => ({
    commandMs: wall(rs),
    nodeMs: wall(node),
    commandCpuMs: cpu(rs),
    nodeCpuMs: cpu(node),
    samples: rounds,
  }));
}

/**
 * The npm packages a command imports (by ESM resolution), e.g. ['better-sqlite3', 'commander'].
 * @param {readonly string[]} args
 * @returns {Promise<string[]>}
 */
export async function packagesLoaded(args) {
  mkdirSync(join(WORK_DIR, 'tmp'), { recursive: true });
  const log = join(WORK_DIR, 'tmp', `imports-${process.pid}.log`);
  rmSync(log, { force: true });
  await run(process.execPath, ['--import', TRACE, ORACLE_BIN, ...args], {
    env: { ...process.env, BENCH_IMPORT_LOG: log },
  });
  let urls;
  try {
    urls = readFileSync(log, 'utf8').split('\n');
  } catch {
    return [];
  } finally {
    rmSync(log, { force: true });
  }
  const names = new Set();
  for (const url of urls) {
    const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (m) names.add(m[1]);
  }
  return [...names].sort();
}

/** Packages whose import alone costs tens of milliseconds: start-up paths must not load them. */
export const HEAVY_PACKAGES = ['zod', 'drizzle-orm'];
