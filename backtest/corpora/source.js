// @ts-check
/**
 * Where a converter reads a corpus's raw files from: a git directory at a pinned commit (the
 * snapshot the corpus was scored on, so the conversion is reproducible to the byte), or a plain
 * directory holding the same paths (a clone checked out at that commit, or a download).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * @typedef {object} RawSource
 * @property {string} label where the files come from, for messages
 * @property {(prefix: string) => string[]} list the file paths under `prefix` (a folder), sorted
 * @property {(path: string) => string} read a file's text
 */

/** Git's output can be large (a day of tcgcsv prices is megabytes): no cap short of this. */
const MAX_BUFFER = 1 << 30;

/**
 * A git directory (`.git`, or a bare repository) read at `commit`.
 * @param {string} gitDir
 * @param {string} commit
 * @returns {RawSource}
 */
export function gitSource(gitDir, commit) {
  const git = (/** @type {string[]} */ ...args) =>
    execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: MAX_BUFFER });
  try {
    git('cat-file', '-e', `${commit}^{commit}`);
  } catch {
    throw new Error(`${gitDir}: commit ${commit} is not there (fetch the repository at that commit)`);
  }
  return {
    label: `${gitDir}@${commit.slice(0, 12)}`,
    list: (prefix) =>
      git('ls-tree', '-r', '--name-only', commit, '--', prefix)
        .split('\n')
        .filter((line) => line !== '')
        .sort(),
    read: (path) => git('show', `${commit}:${path}`),
  };
}

/**
 * A plain directory with the repository's paths under it.
 * @param {string} root
 * @returns {RawSource}
 */
export function directorySource(root) {
  /** @param {string} dir @returns {string[]} */
  const walk = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : [relative(root, join(dir, e.name))],
    );
  return {
    label: root,
    list: (prefix) => (existsSync(join(root, prefix)) ? walk(join(root, prefix)).sort() : []),
    read: (path) => readFileSync(join(root, path), 'utf8'),
  };
}

/**
 * The source at `path`: a git directory (it has HEAD and objects/) read at `commit`, or a plain directory.
 * @param {string} path
 * @param {string} commit
 */
export function openRawSource(path, commit) {
  if (!existsSync(path) || !statSync(path).isDirectory()) throw new Error(`${path}: no such directory`);
  const isGit = existsSync(join(path, 'HEAD')) && existsSync(join(path, 'objects'));
  if (isGit) return gitSource(path, commit);
  if (existsSync(join(path, '.git'))) return gitSource(join(path, '.git'), commit);
  return directorySource(path);
}
