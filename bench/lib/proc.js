// @ts-check
/**
 * Child processes for the benchmark: wall time, exit code, captured output and peak RSS.
 * Peak RSS is the kernel's own high-water mark: GNU time's %M (from wait4's rusage) when
 * /usr/bin/time exists, otherwise VmHWM polled from /proc/<pid>/status (may miss a last spike).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, openSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const GNU_TIME = '/usr/bin/time';
const HAS_GNU_TIME = existsSync(GNU_TIME);

/**
 * @typedef {object} RunOptions
 * @property {NodeJS.ProcessEnv} [env]
 * @property {string} [cwd]
 * @property {string} [stdinFile] a file fed to the child's stdin
 * @property {boolean} [captureStdout] keep stdout (default: discard it, as a cron job would)
 * @property {boolean} [measureRss] report peak RSS
 * @property {boolean} [measureCpu] report user + system CPU time (needs GNU time)
 */

/**
 * @typedef {object} RunResult
 * @property {number} code
 * @property {number} wallMs
 * @property {number | null} peakRssKb
 * @property {number | null} cpuMs user + system CPU time, when asked for and GNU time exists
 * @property {string} stdout
 * @property {string} stderr
 */

/** How peak RSS is measured on this machine, for the results page. */
export const RSS_METHOD = HAS_GNU_TIME
  ? 'GNU time %M (wait4 rusage)'
  : '/proc/<pid>/status VmHWM polled every 10 ms';

/**
 * Runs a command to completion.
 * @param {string} command
 * @param {readonly string[]} args
 * @param {RunOptions} [options]
 * @returns {Promise<RunResult>}
 */
export async function run(command, args, options = {}) {
  const wrap = (options.measureRss || options.measureCpu) && HAS_GNU_TIME;
  const rssFile = wrap ? join(tmpdir(), `bench-rusage-${process.pid}-${Date.now()}`) : null;
  const [cmd, argv] = rssFile
    ? [GNU_TIME, ['-f', '%M %U %S', '-o', rssFile, command, ...args]]
    : [command, [...args]];
  const stdinFd = options.stdinFile ? openSync(options.stdinFile, 'r') : 'ignore';
  const started = process.hrtime.bigint();
  const child = spawn(cmd, argv, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: [stdinFd, options.captureStdout ? 'pipe' : 'ignore', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr?.setEncoding('utf8').on('data', (d) => (stderr += d));
  let polledKb = 0;
  const poller =
    options.measureRss && !rssFile
      ? setInterval(() => {
          const kb = readVmHwmKb(child.pid);
          if (kb > polledKb) polledKb = kb;
        }, 10)
      : null;
  /** @type {number} */
  const code = await new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
  });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (poller) clearInterval(poller);
  if (typeof stdinFd === 'number') closeSync(stdinFd);
  let peakRssKb = options.measureRss ? polledKb || null : null;
  let cpuMs = null;
  if (rssFile) {
    // GNU time writes "Command exited with non-zero status N" before its line on failure: take the last line.
    const lines = readFileSync(rssFile, 'utf8').trim().split('\n');
    const [kb, user, system] = (lines[lines.length - 1] ?? '').split(' ').map(Number);
    if (options.measureRss) peakRssKb = kb ?? null;
    if (options.measureCpu) cpuMs = Math.round(((user ?? 0) + (system ?? 0)) * 1000);
    rmSync(rssFile, { force: true });
  }
  return { code, wallMs, peakRssKb, cpuMs, stdout, stderr };
}

/**
 * Runs a command and throws with its stderr when it fails: for data preparation steps.
 * @param {string} command
 * @param {readonly string[]} args
 * @param {RunOptions} [options]
 * @returns {Promise<RunResult>}
 */
export async function runChecked(command, args, options = {}) {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.code}: ${result.stderr.trim().slice(-2000)}`,
    );
  }
  return result;
}

/**
 * @param {number | undefined} pid
 * @returns {number}
 */
function readVmHwmKb(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0; // the process has just exited
  }
}

/**
 * @typedef {object} Service
 * @property {RegExpExecArray} ready the match of the readiness line
 * @property {number | undefined} pid
 * @property {() => Promise<void>} stop SIGTERM, then SIGKILL after 5 s
 */

/**
 * Starts a long-running process and waits for a stderr line matching `readyPattern`.
 * @param {string} command
 * @param {readonly string[]} args
 * @param {RegExp} readyPattern
 * @param {{ env?: NodeJS.ProcessEnv, timeoutMs?: number }} [options]
 * @returns {Promise<Service>}
 */
export function startService(command, args, readyPattern, options = {}) {
  const child = spawn(command, args, {
    env: options.env ?? process.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise((resolve) => child.on('close', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
  };
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => {
      void stop();
      reject(
        new Error(
          `${command} ${args.join(' ')} not ready after ${options.timeoutMs ?? 15_000} ms: ${stderr.trim()}`,
        ),
      );
    }, options.timeoutMs ?? 15_000);
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
      const ready = readyPattern.exec(stderr);
      if (ready) {
        clearTimeout(timer);
        child.stderr.removeAllListeners('data');
        child.stderr.resume(); // keep draining so the child never blocks on a full pipe
        resolve({ ready, pid: child.pid, stop });
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited ${code} before it was ready: ${stderr.trim()}`));
    });
  });
}

/** Kernel clock ticks per second, the unit of /proc/<pid>/stat times. */
let clockTicks = 0;

/**
 * CPU time (user + system) a process has used so far, in ms: the cost of work on a busy
 * machine, where wall-clock rates also measure the neighbours.
 * @param {number | undefined} pid
 * @returns {number | null} null when the process is gone
 */
export function cpuTimeMs(pid) {
  if (!clockTicks) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return null;
  }
}
