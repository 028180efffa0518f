// @ts-check
/**
 * The CLI in the build layout the product does not ship, for the build-layout figures of the
 * CLI start benchmark: one file per module, as tsc emits src/ (built here by esbuild without
 * bundling, into bench/.work/layouts/), beside the bundle of `npm run build`.
 */
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT, WORK_DIR } from './workspace.js';

/**
 * Builds the per-module layout and returns its bin (a copy of bin/oracle.js). The layout's
 * root mirrors the package's: dist/ two levels above every module, drizzle/ and package.json
 * (linked) beside it, node_modules found by walking up to the package's.
 * @returns {Promise<string>}
 */
export async function perModuleBin() {
  const dir = join(WORK_DIR, 'layouts', 'per-module');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'bin'), { recursive: true });
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
    logLevel: 'warning',
  });
  symlinkSync(join(ROOT, 'drizzle'), join(dir, 'drizzle'));
  symlinkSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  const bin = join(dir, 'bin', 'oracle.js');
  copyFileSync(join(ROOT, 'bin', 'oracle.js'), bin);
  return bin;
}
