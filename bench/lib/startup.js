// @ts-check
/**
 * Short-lived command timing against `node -e 0`, and which packages a command loads.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { interleave } from './interleave.js';
import { ORACLE_BIN } from './oracle.js';
import { run } from './proc.js';
import { median } from './stats.js';
import { WORK_DIR } from './workspace.js';

const TRACE = fileURLToPath(new URL('../children/import-trace.js', import.meta.url));

/**
 * Median wall time (and CPU time, when GNU time is there) of `node bin/oracle.js ...args`
 * and of `node -e 0`, alternated. CPU time is what a busy machine distorts least.
 * @param {readonly string[]} args
 * @param {number} pairs
 * @param {(stdout: string) => void} check throws when the command's output is wrong
 * @returns {Promise<{ commandMs: number, nodeMs: number, commandCpuMs: number | null, nodeCpuMs: number | null, samples: number }>}
 */
export async function timeAgainstNode(args, pairs, check) {
  const { a, b } = await interleave(
    pairs,
    async () => {
      const r = await run(process.execPath, [ORACLE_BIN, ...args], { captureStdout: true, measureCpu: true });
      if (r.code !== 0) throw new Error(`oracle ${args.join(' ')} exited ${r.code}: ${r.stderr.trim()}`);
      check(r.stdout);
      return r;
    },
    () => run(process.execPath, ['-e', '0'], { measureCpu: true }),
  );
  /** @param {import('./proc.js').RunResult[]} rs */
  const cpu = (rs) => (rs.every((r) => r.cpuMs !== null) ? median(rs.map((r) => /** @type {number} */ (r.cpuMs))) : null);
  return {
    commandMs: median(a.map((r) => r.wallMs)),
    nodeMs: median(b.map((r) => r.wallMs)),
    commandCpuMs: cpu(a),
    nodeCpuMs: cpu(b),
    samples: pairs,
  };
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
  await run(process.execPath, ['--import', TRACE, ORACLE_BIN, ...args], { env: { ...process.env, BENCH_IMPORT_LOG: log } });
  let urls = [];
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
