// @ts-check
/** What the figures were measured on: they only compare within one run on one machine. */
import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { ROOT } from './workspace.js';
import { RSS_METHOD } from './proc.js';

/**
 * @typedef {object} Machine
 * @property {number} nproc
 * @property {string} cpu
 * @property {number} memoryGiB
 * @property {string} node
 * @property {string} platform
 * @property {string | null} sqlite3 version of the sqlite3 shell, null when it is not installed
 * @property {string} commit
 * @property {string} rssMethod
 * @property {number} loadAverage 1-minute load average when the run started
 */

/** @returns {Machine} */
export function describeMachine() {
  return {
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    sqlite3: sqlite3Version(),
    commit: gitCommit(),
    rssMethod: RSS_METHOD,
    loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}

export const SQLITE3 = '/usr/bin/sqlite3';

/** @returns {string | null} */
export function sqlite3Version() {
  try {
    return execFileSync(SQLITE3, ['--version'], { encoding: 'utf8' }).split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

/** @returns {string} */
function gitCommit() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
    return dirty ? `${head} + uncommitted changes in src/` : head;
  } catch {
    return 'unknown';
  }
}
