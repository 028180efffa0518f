// @ts-check
/** Runs the BUILT product the way a user does: `node bin/oracle.js ...`. */
import { join } from 'node:path';
import { ROOT } from './workspace.js';
import { run, runChecked } from './proc.js';

export const ORACLE_BIN = join(ROOT, 'bin', 'oracle.js');

/**
 * Node flags for the product's processes: `--cpu-prof` into `profileDir` when profiling.
 * @param {string | null} profileDir
 * @returns {string[]}
 */
export function nodeFlags(profileDir) {
  return profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
}

/**
 * `node bin/oracle.js --db <db> ...args`.
 * @param {string} db
 * @param {readonly string[]} args
 * @param {import('./proc.js').RunOptions & { profileDir?: string | null }} [options]
 */
export function oracle(db, args, options = {}) {
  return run(
    process.execPath,
    [...nodeFlags(options.profileDir ?? null), ORACLE_BIN, '--db', db, ...args],
    options,
  );
}

/**
 * Like `oracle` but throws on a non-zero exit.
 * @param {string} db
 * @param {readonly string[]} args
 * @param {import('./proc.js').RunOptions} [options]
 */
export function oracleChecked(db, args, options = {}) {
  return runChecked(process.execPath, [ORACLE_BIN, '--db', db, ...args], options);
}
