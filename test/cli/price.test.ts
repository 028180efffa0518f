import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PricingBundle } from '../../src/domain/bundle.js';
import { GRADERS, MATRIX_GRADES } from '../../src/domain/conditions.js';
import { createPricing } from '../../src/service/pricing.js';
import { openStore } from '../../src/store/open-store.js';
import { runCli, tempDir } from '../_setup.js';
import { AS_OF, AS_OF_MS, pricedDatabase } from './_priced-database.js';

let db: string;

beforeAll(async () => {
  db = await pricedDatabase();
});

async function priceJson(args: string[]): Promise<PricingBundle> {
  const result = await runCli(['--db', db, 'price', ...args, '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as PricingBundle;
}

describe.concurrent('oracle price', () => {
  it('prints exactly the bundle the service computes, with id null on the key route', async () => {
    const bundle = await priceJson(['charizard base/set é', '--at', AS_OF]);
    const store = await openStore(db);
    const oracle = createPricing(store);
    const expected = await oracle.price(await oracle.productByKey('charizard base/set é'), { windowHours: 24, outlierStddevs: 2, asOf: AS_OF_MS }, null);
    await store.close();
    expect(bundle).toEqual(expected);
    expect(bundle.id).toBeNull();
    expect(bundle.window_hours).toBe(24);
    expect(bundle.outlier_stddevs).toBe(2);
    expect(Object.keys(bundle.graded)).toEqual([...GRADERS]);
    for (const g of GRADERS) expect(Object.keys(bundle.graded[g])).toEqual(MATRIX_GRADES.map(String));
    expect(bundle.ungraded.price_minor).toBeGreaterThan(39_000);
    expect(bundle.ungraded.price_minor).toBeLessThan(41_000);
    expect(bundle.ungraded.window_end).toBe(AS_OF);
  });

  it('passes --window-hours and --outlier-stddevs through to the bundle', async () => {
    const bundle = await priceJson(['charizard base/set é', '--at', AS_OF, '--window-hours', '72', '--outlier-stddevs', '5']);
    expect(bundle.window_hours).toBe(72);
    expect(bundle.outlier_stddevs).toBe(5);
    expect(bundle.ungraded.window_start).toBe('2026-10-12T12:00:00Z');
  });

  it('addresses a product by its reference-source id and sets id', async () => {
    const bundle = await priceJson(['--refsource', '6910', '--at', AS_OF]);
    expect(bundle.id).toBe('6910');
    expect(bundle.product_key).toBe('charizard base/set é');
  });

  it('gives every slot no_observations for a product without data, inside a normal bundle', async () => {
    const bundle = await priceJson(['empty-product', '--at', AS_OF]);
    const slots = [bundle.ungraded, ...GRADERS.flatMap((g) => Object.values(bundle.graded[g]))];
    expect(slots).toHaveLength(17);
    for (const slot of slots) {
      expect(slot.price_minor).toBeNull();
      expect(slot.error).toBe('no_observations');
    }
  });

  it('gives no_observations when --at is before all data', async () => {
    const bundle = await priceJson(['charizard base/set é', '--at', '2020-01-01T00:00:00Z']);
    expect(bundle.ungraded.error).toBe('no_observations');
  });

  it('shows a person the ungraded price, the matrix, the window and the methodology', async () => {
    const result = await runCli(['--db', db, 'price', 'charizard base/set é', '--at', AS_OF]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Ungraded: \$4\d\d\.\d\d/);
    for (const g of GRADERS) expect(result.stdout).toContain(`│ ${g} `);
    expect(result.stdout).toContain('grade 10');
    expect(result.stdout).toContain(`window:      2026-10-14T12:00:00Z -> ${AS_OF}`);
    expect(result.stdout).toMatch(/methodology: \S+/);
  });

  it.each([
    [['charizard base/set é', '--window-hours', '73'], /--window-hours must be an integer from 1 to 72/],
    [['charizard base/set é', '--window-hours', '1.5'], /--window-hours must be an integer from 1 to 72/],
    [['charizard base/set é', '--outlier-stddevs', '0'], /--outlier-stddevs must be an integer from 1 to 10/],
    [['charizard base/set é', '--at', '2026-10-15T12:00:00'], /^oracle: --at "2026-10-15T12:00:00" has no time zone: add Z or an offset/],
    [['charizard base/set é', '--at', 'yesterday'], /^oracle: --at must be an ISO-8601 date-time with Z or an offset/],
    [['charizard base/set é', '--at', '2026-02-30T12:00:00Z'], /^oracle: --at "2026-02-30T12:00:00Z" is not a real date: February 2026 has 28 days\n$/],
    [['charizard base/set é', '--at', '2026-10-15T24:00:00Z'], /^oracle: --at "2026-10-15T24:00:00Z" is not a real time: there is no hour 24/],
    [['charizard base/set é', '--at', '2999-01-01T00:00:00Z'], /^oracle: --at "2999-01-01T00:00:00Z" is in the future \(now is \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)/],
    [['charizard base/set é', '--window-hours', '024'], /^oracle: --window-hours must be an integer from 1 to 72, written as digits only .*\(got "024"\)/],
    [['charizard base/set é', '--window-hours', '+24'], /^oracle: --window-hours must be an integer from 1 to 72, written as digits only .*\(got "\+24"\)/],
    [['charizard base/set é', '--window-hours', ' 24'], /^oracle: --window-hours must be an integer from 1 to 72, written as digits only .*\(got " 24"\)/],
    [['charizard base/set é', '--outlier-stddevs', '1e1'], /^oracle: --outlier-stddevs must be an integer from 1 to 10, written as digits only .*\(got "1e1"\)/],
    [['no-such-card'], /unknown product_key "no-such-card"/],
    [['--refsource', '999'], /no catalog mapping for refsource id "999"/],
    // The API's refsource_id in the same words (domain/params.ts parseRefsourceId).
    [['--refsource', 'abc'], /^oracle: --refsource must be a string of 1 to 20 digits \(got "abc"\)\n/],
    [['--refsource', '1'.repeat(21)], /^oracle: --refsource must be a string of 1 to 20 digits \(got "1{21}"\)\n/],
    [[], /either a product_key or --refsource/],
    [['charizard base/set é', '--refsource', '6910'], /either a product_key or --refsource/],
  ])('exits 2 with one clear line for %j', async (args, message) => {
    const result = await runCli(['--db', db, 'price', ...args]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits 1 naming the file when the database does not exist, without a stack trace', async () => {
    const missing = join(tempDir(), 'missing.db');
    const result = await runCli(['--db', missing, 'price', 'x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(missing);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("exits 2 for --db '' before or after the command, creating nothing; an empty ORACLE_DB still means the default", async () => {
    const cwd = tempDir();
    const message = "oracle: --db must not be empty: give a value, or leave the flag out for ORACLE_DB or the default\n";
    for (const args of [['--db', '', 'ingest', '-'], ['ingest', '-', '--db', ' '], ['--db=', 'catalog']]) {
      const result = await runCli(args, { cwd, input: 'product_key,refsource_id,product_name\nx,1,X\n' });
      expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }, args.join(' ')).toEqual({ code: 2, stdout: '', stderr: message });
    }
    expect(readdirSync(cwd)).toEqual([]);
    const unset = await runCli(['catalog'], { cwd, env: { ORACLE_DB: '' } });
    expect(unset.stderr).toContain(`database ${join(cwd, 'oracle.db')} does not exist`);
  });

  it('reads the database path from ORACLE_DB when --db is absent', async () => {
    const result = await runCli(['price', '--refsource', '6910', '--at', AS_OF, '--json'], { env: { ORACLE_DB: db } });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).id).toBe('6910');
  });
});
