import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PricingBundle } from '../../src/domain/bundle.js';
import { GRADERS, MATRIX_GRADES } from '../../src/domain/conditions.js';
import type { Product } from '../../src/domain/product.js';
import { createOracle } from '../../src/service/oracle.js';
import { openStore } from '../../src/store/store.js';
import { databaseWith, runCli, tempDir } from '../_setup.js';

const HOUR = 3_600_000;
const AS_OF = '2026-10-15T12:00:00Z';
const AS_OF_MS = Date.parse(AS_OF);

const base: Omit<Product, 'productKey' | 'refsourceId' | 'productName'> = {
  subtitle: '4/102',
  setName: 'Pokemon Base Set',
  imageUrl: 'https://img.example/charizard.jpg',
  productType: 'single_card',
  era: 'vintage',
  releaseDate: '1999-01-09',
  tcgplayerId: null,
};

let db: string;

beforeAll(async () => {
  const key = 'charizard base/set é';
  const rows = [];
  // Ten days of hourly-ish ungraded sales around $400 and PSA 9 sales around $12,000.
  for (let h = 1; h <= 240; h += 2) {
    const observedAt = AS_OF_MS - h * HOUR;
    rows.push({ productKey: key, source: 'ebay', observedAt, priceMinor: 40_000 + (h % 5) * 100, grader: 'ungraded', grade: null, externalId: `u${h}` });
    if (h % 6 === 1) rows.push({ productKey: key, source: 'ebay', observedAt, priceMinor: 1_200_000, grader: 'PSA', grade: 9, externalId: `g${h}` });
  }
  db = await databaseWith(
    [
      { ...base, productKey: key, refsourceId: '6910', productName: 'Charizard' },
      { ...base, productKey: 'empty-product', refsourceId: '42', productName: 'Nothing Sold Yet' },
    ],
    rows,
  );
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
    const oracle = createOracle({ store });
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

  it('reads the database path from ORACLE_DB when --db is absent', async () => {
    const result = await runCli(['price', '--refsource', '6910', '--at', AS_OF, '--json'], { env: { ORACLE_DB: db } });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).id).toBe('6910');
  });
});

describe.concurrent('oracle snapshot', () => {
  it('prices one UTC day with window_hours 24 and id set', async () => {
    const result = await runCli(['--db', db, 'snapshot', '6910', '--date', '2026-10-14', '--json']);
    expect(result.code).toBe(0);
    const bundle = JSON.parse(result.stdout) as PricingBundle;
    expect(bundle.id).toBe('6910');
    expect(bundle.window_hours).toBe(24);
    // The window shown is the one the price read: the day, or earlier when a thin day was topped up.
    expect(Date.parse(bundle.ungraded.window_start)).toBeLessThanOrEqual(Date.parse('2026-10-14T00:00:00Z'));
    expect(bundle.ungraded.window_end).toBe('2026-10-15T00:00:00Z');
    expect(bundle.ungraded.price_minor).toBeGreaterThan(0);
  });

  it.each([
    ['2999-01-01', /--date 2999-01-01 is in the future/],
    ['2026-13-01', /^oracle: --date "2026-13-01" is not a real date: there is no month 13\n$/],
    ['2026-02-30', /^oracle: --date "2026-02-30" is not a real date: February 2026 has 28 days\n$/],
    ['2025-02-29', /^oracle: --date "2025-02-29" is not a real date: February 2025 has 28 days\n$/],
    ['14/10/2026', /^oracle: --date must be a date as YYYY-MM-DD \(got "14\/10\/2026"\)\n$/],
  ])('exits 2 for --date %s', async (date, message) => {
    const result = await runCli(['--db', db, 'snapshot', '6910', '--date', date]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('given a product_key, exits 2 naming its refsource id and the oracle price command over the same day', async () => {
    const result = await runCli(['--db', db, 'snapshot', 'empty-product', '--date', '2026-10-14']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      "oracle: snapshot takes a refsource id, not a product_key: for empty-product run 'oracle snapshot 42 --date 2026-10-14' (its refsource id) or 'oracle price empty-product --at 2026-10-15T00:00:00Z' (the same 24 hours)\n",
    );
    // What it suggests is the same bundle: the snapshot's window is the 24 hours before that instant.
    const snapshot = JSON.parse((await runCli(['--db', db, 'snapshot', '6910', '--date', '2026-10-14', '--json'])).stdout) as PricingBundle;
    const price = JSON.parse((await runCli(['--db', db, 'price', 'charizard base/set é', '--at', '2026-10-15T00:00:00Z', '--json'])).stdout) as PricingBundle;
    expect(price.ungraded).toEqual(snapshot.ungraded);
  });

  it('given neither a refsource id nor a product_key, exits 2 saying what it takes', async () => {
    const result = await runCli(['--db', db, 'snapshot', 'no-such-card', '--date', '2026-10-14']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe('oracle: snapshot takes a refsource id (digits), not "no-such-card", which is no product_key either (see oracle catalog --search)\n');
  });

  it('exits 2 when --date is missing', async () => {
    const result = await runCli(['--db', db, 'snapshot', '6910']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--date/);
  });
});
