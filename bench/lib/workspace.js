// @ts-check
/**
 * bench/.work/ (gitignored): generated data and databases, reused between runs while the
 * manifest that produced them matches (10M rows take minutes to make).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/lib/ is two levels down). */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const WORK_DIR = join(ROOT, 'bench', '.work');

/**
 * A digest of every file under the given repository paths, so an artifact is rebuilt when the
 * code that made it changes (e.g. a new migration or a different generator).
 * @param {readonly string[]} paths relative to the repository root
 * @returns {string}
 */
export function codeFingerprint(paths) {
  const hash = createHash('sha256');
  /** @param {string} path */
  const walk = (path) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) if (!name.endsWith('.map')) walk(join(path, name));
    } else {
      hash.update(path.slice(ROOT.length)).update(readFileSync(path));
    }
  };
  for (const p of paths) walk(join(ROOT, p));
  return hash.digest('hex').slice(0, 16);
}

/**
 * @typedef {object} Artifact
 * @property {string} dir
 * @property {boolean} reused
 * @property {number} buildSeconds how long it took to build (now or when it was built)
 * @property {Record<string, unknown>} info what `build` returned (sizes, counts)
 */

/**
 * Returns bench/.work/<name>, building it with `build(dir)` unless a previous build with the
 * same `params` is there.
 * @param {string} name
 * @param {Record<string, unknown>} params everything the artifact depends on
 * @param {(dir: string) => Promise<Record<string, unknown> | void>} build
 * @param {{ fresh?: boolean, log?: (line: string) => void }} [options]
 * @returns {Promise<Artifact>}
 */
export async function cached(name, params, build, options = {}) {
  const dir = join(WORK_DIR, name);
  const manifestPath = join(dir, 'manifest.json');
  const wanted = JSON.stringify(params);
  if (!options.fresh && existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    if (JSON.stringify(manifest.params) === wanted) {
      options.log?.(`reusing ${name} (built in ${manifest.buildSeconds} s)`);
      return { dir, reused: true, buildSeconds: manifest.buildSeconds, info: manifest.info ?? {} };
    }
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  options.log?.(`building ${name} ...`);
  const started = performance.now();
  const info = (await build(dir)) ?? {};
  const buildSeconds = Math.round((performance.now() - started) / 100) / 10;
  writeFileSync(
    manifestPath,
    JSON.stringify({ params, buildSeconds, builtAt: new Date().toISOString(), info }, null, 2),
  );
  options.log?.(`built ${name} in ${buildSeconds} s`);
  return { dir, reused: false, buildSeconds, info };
}

/**
 * A scratch directory under bench/.work/tmp, emptied first.
 * @param {string} name
 * @returns {string}
 */
export function scratchDir(name) {
  const dir = join(WORK_DIR, 'tmp', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Removes a SQLite file and its WAL companions.
 * @param {string} path
 */
export function removeDatabase(path) {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
  mkdirSync(dirname(path), { recursive: true });
}
