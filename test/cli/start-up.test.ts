/**
 * What a command loads: the parts only a server's repeated calls use (the bundle cache, key
 * verification, both over lru-cache) and the upstream resolver with its circuit breaker stay
 * off the start-up of the commands that make one call. The modules are read from the source
 * maps of the dist/ files the child resolved (bench/children/import-trace.js records them).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, runCommand, tempDir, testProduct, databaseWith } from '../_setup.js';

const TRACE = join(ROOT, 'bench', 'children', 'import-trace.js');
const REPEATED_CALL_PARTS = ['lru-cache', 'service/bundle-cache.ts', 'service/key-verifier.ts', 'service/upstream-resolver.ts', 'upstream/circuit-breaker.ts'];

/** The source modules (`src/...`, `lru-cache`) of the dist/ files `oracle ...args` loads. */
async function modulesLoaded(args: readonly string[]): Promise<string[]> {
  const log = join(tempDir('start-up-'), 'imports.log');
  const result = await runCommand(process.execPath, ['--import', TRACE, BIN, ...args], { env: { BENCH_IMPORT_LOG: log } });
  expect(result.code, result.stderr).toBe(0);
  const files = new Set(
    readFileSync(log, 'utf8')
      .split('\n')
      .filter((url) => url.startsWith('file:') && url.includes('/dist/'))
      .map((url) => fileURLToPath(url)),
  );
  const sources = [...files].flatMap((file) => (JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] }).sources);
  return sources.map((source) => (source.includes('node_modules/lru-cache/') ? 'lru-cache' : source.replace(/^.*?\/src\//, '')));
}

const partsAmong = (modules: readonly string[]) => REPEATED_CALL_PARTS.filter((part) => modules.includes(part));

let db: string;
const product = testProduct();
beforeAll(async () => {
  db = await databaseWith([product], []);
});

describe('start-up', () => {
  it('oracle catalog --json and oracle price --json load neither the caches, key verification nor the upstream resolver', async () => {
    const catalog = await modulesLoaded(['--db', db, 'catalog', '--json']);
    expect(catalog).toContain('service/oracle-service.ts'); // it does go through the one service
    expect(partsAmong(catalog)).toEqual([]);
    const price = await modulesLoaded(['--db', db, 'price', product.productKey, '--json']);
    expect(price).toContain('service/oracle-service.ts');
    expect(partsAmong(price)).toEqual([]);
  });

  it('oracle keys create, which hashes a key, loads key verification when it runs', async () => {
    const modules = await modulesLoaded(['--db', db, 'keys', 'create', '--label', 'start-up test']);
    expect(partsAmong(modules)).toEqual(['lru-cache', 'service/key-verifier.ts']);
  });
});
