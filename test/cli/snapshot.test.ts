/** `oracle snapshot` as users run it: real child processes of bin/oracle.js (build first). */
import { beforeAll, describe, expect, it } from 'vitest';
import type { PricingBundle } from '../../src/domain/bundle.js';
import { runOracle } from '../_cli.js';
import { pricedDatabase } from './_priced-database.js';

let db: string;

beforeAll(async () => {
  db = await pricedDatabase();
});

describe.concurrent('oracle snapshot', () => {
  it('prices one UTC day with window_hours 24 and id set', async () => {
    const result = await runOracle(['--db', db, 'snapshot', '6910', '--date', '2026-10-14', '--json']);
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
    const result = await runOracle(['--db', db, 'snapshot', '6910', '--date', date]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('given a product_key, exits 2 naming its refsource id and the oracle price command over the same day', async () => {
    const result = await runOracle(['--db', db, 'snapshot', 'empty-product', '--date', '2026-10-14']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      "oracle: snapshot takes a refsource id, not a product_key: for empty-product run 'oracle snapshot 42 --date 2026-10-14' (its refsource id) or 'oracle price empty-product --at 2026-10-15T00:00:00Z' (the same 24 hours)\n",
    );
    // What it suggests is the same bundle: the snapshot's window is the 24 hours before that instant.
    const snapshot = JSON.parse(
      (await runOracle(['--db', db, 'snapshot', '6910', '--date', '2026-10-14', '--json'])).stdout,
    ) as PricingBundle;
    const price = JSON.parse(
      (
        await runOracle([
          '--db',
          db,
          'price',
          'charizard base/set é',
          '--at',
          '2026-10-15T00:00:00Z',
          '--json',
        ])
      ).stdout,
    ) as PricingBundle;
    expect(price.ungraded).toEqual(snapshot.ungraded);
  });

  it('given neither a refsource id nor a product_key, exits 2 saying what it takes', async () => {
    const result = await runOracle(['--db', db, 'snapshot', 'no-such-card', '--date', '2026-10-14']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      'oracle: snapshot takes a refsource id (1 to 20 digits), not "no-such-card", which is no product_key either (see oracle catalog --search)\n',
    );
  });

  it('exits 2 when --date is missing', async () => {
    const result = await runOracle(['--db', db, 'snapshot', '6910']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--date/);
  });

  it("takes ids of 1 to 20 digits, the API's refsource_id; a longer one exits 2 saying so", async () => {
    const tooLong = '1'.repeat(21);
    const result = await runOracle(['--db', db, 'snapshot', tooLong, '--date', '2026-10-14']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      `oracle: snapshot takes a refsource id (1 to 20 digits), not "${tooLong}", which is no product_key either (see oracle catalog --search)\n`,
    );
    const unknown = await runOracle(['--db', db, 'snapshot', '9'.repeat(20), '--date', '2026-10-14']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(`oracle: no catalog mapping for refsource id "${'9'.repeat(20)}"\n`);
  });

  it('given the product_key of today, suggests the price of the last 24 hours (today has not ended)', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const result = await runOracle(['--db', db, 'snapshot', 'empty-product', '--date', today]);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      `oracle: snapshot takes a refsource id, not a product_key: for empty-product run 'oracle snapshot 42 --date ${today}' (its refsource id) or 'oracle price empty-product' (the last 24 hours)\n`,
    );
  });
});
