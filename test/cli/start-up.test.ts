// @module-tag sqlite-only: which modules the built bundle runs at start: the same on every store
/**
 * What a command runs: the parts only a server's repeated calls use (the bundle cache and the
 * key cache, both over lru-cache), key hashing, and the upstream resolver with its circuit
 * breaker stay off the start-up of the commands that make one call. dist/cli/main.js is one bundle in which
 * esbuild runs each module's top level, on first use, in a function named after the module's
 * path (`"src/http/bundle-cache.ts"() {...}`); V8's coverage (NODE_V8_COVERAGE) of the child
 * counts the calls of each.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCommand, tempDir, testProduct, databaseWith } from '../_setup.js';

const REPEATED_CALL_PARTS = [
  'lru-cache',
  'http/bundle-cache.ts',
  'http/key-cache.ts',
  'service/keys.ts',
  'service/upstream-resolver.ts',
  'upstream/circuit-breaker.ts',
];

interface Coverage {
  result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
}

const moduleName = (functionName: string) =>
  functionName.startsWith('node_modules/lru-cache/') ? 'lru-cache' : functionName.replace(/^src\//, '');

/**
 * The source modules (`service/oracle.ts`, `lru-cache`) whose top level `oracle ...args`
 * ran. It also checks that each part of REPEATED_CALL_PARTS is a module run on first use: one
 * on the program's static path would have no init function to count, and would pass unseen.
 */
async function modulesRun(args: readonly string[]): Promise<string[]> {
  const dir = tempDir('start-up-');
  const result = await runCommand(process.execPath, [BIN, ...args], { env: { NODE_V8_COVERAGE: dir } });
  expect(result.code, result.stderr).toBe(0);
  const scripts = readdirSync(dir).flatMap(
    (file) => (JSON.parse(readFileSync(join(dir, file), 'utf8')) as Coverage).result,
  );
  const bundle = scripts.filter((script) => script.url.endsWith('/dist/cli/main.js'));
  expect(bundle).toHaveLength(1);
  const inits = bundle[0]!.functions.filter((fn) => /^(src|node_modules)\//.test(fn.functionName));
  expect(partsAmong(inits.map((fn) => moduleName(fn.functionName)))).toEqual(REPEATED_CALL_PARTS);
  return inits.filter((fn) => fn.ranges[0]!.count > 0).map((fn) => moduleName(fn.functionName));
}

const partsAmong = (modules: readonly string[]) =>
  REPEATED_CALL_PARTS.filter((part) => modules.includes(part));

let db: string;
const product = testProduct();
beforeAll(async () => {
  db = await databaseWith([product], []);
});

describe('start-up', () => {
  it('oracle catalog --json and oracle price --json run neither the caches, key hashing nor the upstream resolver', async () => {
    const catalog = await modulesRun(['--db', db, 'catalog', '--json']);
    expect(catalog).toContain('service/oracle.ts'); // it does go through the one service
    expect(partsAmong(catalog)).toEqual([]);
    const price = await modulesRun(['--db', db, 'price', product.productKey, '--json']);
    expect(price).toContain('service/oracle.ts');
    expect(partsAmong(price)).toEqual([]);
  });

  it('oracle keys create, which hashes a key, runs key hashing and no cache', async () => {
    const modules = await modulesRun(['--db', db, 'keys', 'create', '--label', 'start-up test']);
    expect(partsAmong(modules)).toEqual(['service/keys.ts']);
  });
});
