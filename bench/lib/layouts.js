// @ts-check
/**
 * The CLI in build layouts the product does not ship, for the build-layout figures of the CLI
 * start benchmark, each run in the same rounds as the shipped one (bin/oracle.js: one CommonJS
 * bundle, compiled from the V8 code cache the build saved for it):
 * - `no-code-cache`: the shipped bin and bundle without that cache, compiled at every start;
 * - `esm-chunks`: ES modules with code splitting, each command a chunk loaded when it runs
 *   (what dist/ held before the code cache);
 * - `per-module`: one file per module, as tsc emits src/ (esbuild without bundling).
 * Each is built under bench/.work/layouts/<name>/, whose root mirrors the package's: dist/ two
 * levels above every module, drizzle/ and package.json (linked) beside it, node_modules found
 * by walking up to the package's. The bundles take their options from scripts/build-options.js.
 */
import { build } from 'esbuild';
import { copyFileSync, cpSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESM_CHUNKS } from '../../scripts/build-options.js';
import { ROOT, WORK_DIR } from './workspace.js';

/** The bin of the ES module layouts: what bin/oracle.js was before the code cache. */
const ESM_BIN =
  "import { main } from '../dist/cli/main.js';\n\nprocess.exitCode = await main(process.argv);\n";

/**
 * A fresh layout directory with the package's drizzle/ and package.json linked in.
 * @param {string} name
 */
function layoutDir(name) {
  const dir = join(WORK_DIR, 'layouts', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'bin'), { recursive: true });
  symlinkSync(join(ROOT, 'drizzle'), join(dir, 'drizzle'));
  symlinkSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  return dir;
}

/**
 * The ES module layouts' bin, in `dir`.
 * @param {string} dir
 */
function esmBin(dir) {
  const bin = join(dir, 'bin', 'oracle.js');
  writeFileSync(bin, ESM_BIN);
  return bin;
}

/**
 * The shipped bin and bundle (built by `npm run build`) without the code cache.
 * @returns {string} its bin
 */
export function noCodeCacheBin() {
  const dir = layoutDir('no-code-cache');
  for (const file of readdirSync(join(ROOT, 'bin')))
    copyFileSync(join(ROOT, 'bin', file), join(dir, 'bin', file));
  cpSync(join(ROOT, 'dist'), join(dir, 'dist'), {
    recursive: true,
    filter: (source) => !source.endsWith('.v8cache'),
  });
  return join(dir, 'bin', 'oracle.js');
}

/**
 * ES modules with code splitting.
 * @returns {Promise<string>} its bin
 */
export async function esmChunksBin() {
  const dir = layoutDir('esm-chunks');
  await build({
    ...ESM_CHUNKS,
    entryPoints: { 'cli/main': 'src/cli/main.ts' },
    outdir: relative(ROOT, join(dir, 'dist')),
  });
  return esmBin(dir);
}

/**
 * One file per module.
 * @returns {Promise<string>} its bin
 */
export async function perModuleBin() {
  const dir = layoutDir('per-module');
  /** @type {string[]} */
  const sources = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join('src', f));
  await build({
    absWorkingDir: ROOT,
    entryPoints: sources,
    outbase: 'src',
    outdir: relative(ROOT, join(dir, 'dist')),
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Node.js 20 reads `with { type: 'json' }` (src/cli/version.ts), which esbuild's node20 target would drop.
    supported: { 'import-attributes': true },
    logLevel: 'warning',
  });
  return esmBin(dir);
}
