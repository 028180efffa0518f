// @module-tag sqlite-only: the build's code cache: the same on every store
/**
 * The build saves V8's code cache of dist/cli/main.js, named by the bundle's build id, and
 * bin/oracle.js compiles the bundle from it (bin/compile-cli.js, scripts/warm-code-cache.js). A
 * cache is an optimisation only: one made for another build is never read, a broken one is
 * dropped by V8, and the CLI answers the same either way. ORACLE_DEBUG=1 says which it was.
 */
import {
  cpSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, databaseWith, runCli, runCommand, tempDir, testProduct } from '../_setup.js';

/** What `node <bin> --version` did with the code cache, as ORACLE_DEBUG=1 says it on stderr. */
async function cacheUse(bin: string): Promise<string> {
  const result = await runCommand(process.execPath, [bin, '--version'], { env: { ORACLE_DEBUG: '1' } });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toBe(`${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n`);
  return result.stderr;
}

/** A copy of bin/ and dist/ in a package of its own, linked to this one's node_modules and migrations. */
function copyOfTheBuild(): { root: string; bin: string; cache: string } {
  const root = tempDir('code-cache-');
  mkdirSync(join(root, 'bin'));
  for (const file of readdirSync(join(ROOT, 'bin'))) cpSync(join(ROOT, 'bin', file), join(root, 'bin', file));
  cpSync(join(ROOT, 'dist'), join(root, 'dist'), { recursive: true });
  for (const shared of ['node_modules', 'drizzle', 'package.json'])
    symlinkSync(join(ROOT, shared), join(root, shared));
  const caches = readdirSync(join(root, 'dist', 'cli')).filter((file) => file.endsWith('.v8cache'));
  expect(caches).toHaveLength(1);
  return { root, bin: join(root, 'bin', 'oracle.js'), cache: join(root, 'dist', 'cli', caches[0]!) };
}

let db: string;
let expected: string;
const product = testProduct();
beforeAll(async () => {
  db = await databaseWith([product], []);
  const result = await runCli(['--db', db, 'catalog', '--json']);
  expect(result.code, result.stderr).toBe(0);
  expected = result.stdout;
});

/** `oracle --db <db> catalog --json` through `bin`: its output, after checking it exited 0. */
async function catalogThrough(bin: string): Promise<string> {
  const result = await runCommand(process.execPath, [bin, '--db', db, 'catalog', '--json']);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

describe('the code cache', () => {
  it('is there for the built bundle, and V8 compiles the CLI from it', async () => {
    expect(await cacheUse(BIN)).toBe('oracle: dist/cli/main.js compiled from its code cache\n');
  });

  it('is not read when it was made for another build: the CLI compiles the bundle and answers the same', async () => {
    const copy = copyOfTheBuild();
    renameSync(copy.cache, copy.cache.replace(/\.\w+\.v8cache$/, `.${'0'.repeat(64)}.v8cache`));
    expect(await cacheUse(copy.bin)).toMatch(
      /^oracle: dist\/cli\/main.js no code cache for this build: compiled without one/,
    );
    expect(await catalogThrough(copy.bin)).toBe(expected);
  });

  it('is dropped by V8 when it is not a cache of this bundle, and the CLI answers the same', async () => {
    const copy = copyOfTheBuild();
    writeFileSync(copy.cache, Buffer.alloc(4096, 7));
    expect(await cacheUse(copy.bin)).toMatch(
      /^oracle: dist\/cli\/main.js its code cache does not fit this Node.js or its V8 flags/,
    );
    expect(await catalogThrough(copy.bin)).toBe(expected);
  });
});
