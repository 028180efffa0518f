// @module-tag sqlite-only: the in-process harness's streams, environment and clock: the same on every store
/**
 * `run(argv, deps)` (src/cli/main.ts), what the in-process harness stands on: a run reads and
 * writes only what it is given (streams, environment, clock, store opener) and returns its exit
 * code, leaving the process's alone.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenOptions, Store } from '../../src/store/store.js';
import { openStore } from '../../src/store/open-store.js';
import { runOracle } from '../_cli.js';
import { databaseWith, tempDir, testProduct } from '../_setup.js';

describe('a run of the program in process', () => {
  const saved = { exitCode: process.exitCode, db: process.env.ORACLE_DB };
  afterEach(() => {
    process.exitCode = saved.exitCode;
    if (saved.db === undefined) delete process.env.ORACLE_DB;
    else process.env.ORACLE_DB = saved.db;
  });

  it('writes --version and --help to its stdout and returns 0', async () => {
    expect(await runOracle(['--version'])).toEqual({ code: 0, signal: null, stdout: '0.1.0\n', stderr: '' });
    const help = await runOracle(['price', '--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: oracle price \[options\] \[product_key\]\n/);
  });

  it('writes a usage error to its stderr and returns 2, leaving process.exitCode alone', async () => {
    process.exitCode = undefined;
    expect(await runOracle(['pricee'])).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr: "oracle: unknown command 'pricee'\n(Did you mean price?)\n(run with --help for usage)\n",
    });
    expect(process.exitCode).toBeUndefined();
  });

  it("reads its options' variables from its environment, not the process's; a flag still beats a variable", async () => {
    const dir = tempDir();
    process.env.ORACLE_DB = join(dir, 'from-process.db');
    const missing = (name: string) => `oracle: database ${join(dir, name)} does not exist`;
    expect((await runOracle(['catalog'], { env: { ORACLE_DB: join(dir, 'from-env.db') } })).stderr).toContain(
      missing('from-env.db'),
    );
    expect(
      (
        await runOracle(['--db', join(dir, 'from-flag.db'), 'catalog'], {
          env: { ORACLE_DB: join(dir, 'from-env.db') },
        })
      ).stderr,
    ).toContain(missing('from-flag.db'));
    // Without the variable in its environment, the default (test/cli/db-location.test.ts): here,
    // asked of the opener, the user's database of the run's environment, not of the process's.
    const asked: string[] = [];
    const opener = async (location: string): Promise<Store> => {
      asked.push(location);
      throw new Error('not opened by this test');
    };
    await runOracle(['catalog'], { openStore: opener, env: { XDG_DATA_HOME: dir } });
    expect(asked.map((location) => resolve(location))).toEqual([
      existsSync('oracle.db') ? join(process.cwd(), 'oracle.db') : join(dir, 'oracle', 'oracle.db'),
    ]);
    expect(
      (await runOracle(['serve', '--port', '1'], { env: { ORACLE_RATE_LIMIT: 'many' } })).stderr,
    ).toMatch(/^oracle: --rate-limit \(ORACLE_RATE_LIMIT\) must be/);
    const deadline = await runOracle(['serve', '--port', '1', '--db-connect-timeout', '0'], {
      env: { ORACLE_DB_STATEMENT_TIMEOUT: '2s' },
    });
    expect(deadline.code).toBe(2);
    expect(deadline.stderr).toMatch(
      /^oracle: --db-(connect|statement)-timeout \(ORACLE_DB_(CONNECT|STATEMENT)_TIMEOUT\) must be a whole number of milliseconds, 1 or more/,
    );
  });

  it('checks --at against its clock', async () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const result = await runOracle(['price', 'x', '--at', '2026-01-02T00:00:00Z'], { now });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(
      /^oracle: --at "2026-01-02T00:00:00Z" is in the future \(now is 2026-01-01T00:00:00Z\)/,
    );
  });

  it('prints the stack of an error on its stderr under ORACLE_DEBUG=1 of its environment', async () => {
    const missing = join(tempDir(), 'missing.db');
    const plain = await runOracle(['--db', missing, 'catalog']);
    expect(plain.stderr.trim().split('\n')).toHaveLength(1);
    const debug = await runOracle(['--db', missing, 'catalog'], { env: { ORACLE_DEBUG: '1' } });
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(
      /^DatabaseUnavailableError: database .*missing\.db does not exist[^\n]*\n\s+at /,
    );
  });

  it("opens its store with the opener it is given and closes what that gave it, so a test's store lent to it stays open", async () => {
    const product = testProduct();
    const store = await openStore(await databaseWith([product], []));
    try {
      const opened: [string, OpenOptions][] = [];
      let closes = 0;
      // The test keeps its store: it lends a view whose close() only counts.
      const lend = async (location: string, options: OpenOptions): Promise<Store> => {
        opened.push([location, options]);
        return { ...store, close: async () => void (closes += 1) };
      };
      // A location the real opener would refuse (no such file): the run's opener decides.
      const result = await runOracle(['--db', 'lent-store', 'catalog', '--json'], { openStore: lend });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(result.stdout).products.map((p: { product_key: string }) => p.product_key)).toEqual([
        product.productKey,
      ]);
      expect(opened).toEqual([['lent-store', { notice: expect.any(Function) }]]);
      expect(closes).toBe(1);
      // The store itself was never closed by the command: the test still reads it.
      expect(await store.products.count()).toBe(1);
    } finally {
      await store.close();
    }
  });
});
