/** `oracle sales` and `oracle movers` in process over a real database (SQLite, or PostgreSQL in the `postgres` project). */
import { beforeAll, describe, expect, it } from 'vitest';
import type { PricingBundle } from '../../src/domain/bundle.js';
import { toIsoUtc } from '../../src/domain/time.js';
import { runOracle } from '../_cli.js';
import { tempDir } from '../_setup.js';
import { AS_OF, AS_OF_MS, marketDatabase, OUTLIER_AT } from './_market-database.js';

const DAY = 86_400_000;
let db: string;
const cli = (...args: string[]) => runOracle(['--db', db, ...args], { now: AS_OF_MS });

async function json(...args: string[]) {
  const result = await cli(...args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

const bundleAt = (key: string, at: number): Promise<PricingBundle> => json('price', key, '--at', toIsoUtc(at), '--json');

beforeAll(async () => {
  db = await marketDatabase(tempDir());
});

describe.concurrent('oracle sales', () => {
  it("lists every condition's points newest first, each kept or not exactly as explain has it", async () => {
    const sales = await json('sales', 'rising', '--at', AS_OF, '--limit', '1000', '--json');
    expect(sales).toMatchObject({ product_key: 'rising', product_name: 'Rising Card', condition: null, as_of: AS_OF, since: null, limit: 1000 });
    const times = sales.sales.map((p: { observed_at: string }) => p.observed_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(sales.sales[0]).toMatchObject({ observed_at: OUTLIER_AT, price_minor: 200_000, kept: false });
    expect(sales.sales[0].reason).toMatch(/^outlier: robust z \+/);
    for (const slot of ['ungraded', 'psa10']) {
      const explained = (await json('explain', 'rising', '--slot', slot, '--at', AS_OF, '--json')).points.filter((p: { condition: string }) => p.condition === slot);
      expect(explained.length).toBeGreaterThan(0);
      expect(sales.sales.filter((p: { condition: string }) => p.condition === slot)).toEqual(explained);
    }
    expect(sales.total).toBe(sales.sales.length);
    expect(sales.kept).toBe(sales.sales.filter((p: { kept: boolean }) => p.kept).length);
  });

  it('takes one condition as written, a span and a limit', async () => {
    const sales = await json('sales', 'rising', '--at', AS_OF, '--condition', 'PSA 10', '--span', '2d', '--json');
    expect(sales.condition).toBe('psa10');
    expect(sales.since).toBe(toIsoUtc(AS_OF_MS - 2 * DAY));
    // A PSA 10 every 12 hours: 12, 24, 36 and 48 hours before AS_OF.
    expect(sales.sales.map((p: { observed_at: string }) => p.observed_at)).toEqual([12, 24, 36, 48].map((h) => toIsoUtc(AS_OF_MS - h * 3_600_000)));
    expect(sales.sales.every((p: { condition: string; kept: boolean }) => p.condition === 'psa10' && p.kept)).toBe(true);
    const limited = await json('sales', 'rising', '--at', AS_OF, '--limit', '3', '--json');
    expect(limited.sales).toHaveLength(3);
    expect(limited.total).toBeGreaterThan(3);
  });

  it('shows a table within 80 columns, and CSV with the reason in full', async () => {
    const table = await cli('sales', 'rising', '--at', AS_OF, '--limit', '5');
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(lines[0]).toBe('Rising Card · rising');
    expect(table.stdout).toMatch(/^2026-10-15 07:00 +ungraded +ebay +\$2,000\.00 +outlier, z \+\d+\.\d\d$/m);
    expect(table.stdout).toMatch(/^newest 5 of \d+ observations, \d+ kept \(window 24 h, outlier threshold 2 sd\)$/m);
    const csv = await cli('sales', 'rising', '--at', AS_OF, '--limit', '5', '--csv');
    const rows = csv.stdout.trimEnd().split('\n');
    expect(rows[0]).toBe('observed_at,condition,source,price_minor,kept,reason,z,weight,sales_volume,matched_by');
    expect(rows).toHaveLength(6);
    expect(rows[1]).toMatch(new RegExp(`^${OUTLIER_AT},ungraded,ebay,200000,false,"?outlier: robust z`));
  });

  it('refuses a bad condition, span or limit and an unknown product with exit 2', async () => {
    for (const [args, message] of [
      [['--condition', 'psa11'], /--condition must be/],
      [['--span', '3x'], /--span must be a span like 12h, 30d or 2w/],
      [['--limit', '0'], /--limit must be an integer from 1 to 1000/],
    ] as const) {
      const result = await cli('sales', 'rising', ...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    const unknown = await cli('sales', 'risng');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('rising');
  });
});

describe.concurrent('oracle movers', () => {
  it("ranks the gainers and losers by the prices oracle price gives at the span's two ends; a thin card is left out", async () => {
    const movers = await json('movers', '--at', AS_OF, '--json');
    const from = AS_OF_MS - 7 * DAY;
    expect(movers).toMatchObject({ condition: 'ungraded', span: '7d', from: toIsoUtc(from), to: AS_OF, min_observations: 5, candidates: 3, priced: 3 });
    expect(movers.gainers.map((m: { product_key: string }) => m.product_key)).toEqual(['rising', 'steady']);
    expect(movers.losers.map((m: { product_key: string }) => m.product_key)).toEqual(['falling']);
    for (const m of [movers.gainers[0], movers.losers[0]]) {
      const [then, now] = await Promise.all([bundleAt(m.product_key, from), bundleAt(m.product_key, AS_OF_MS)]);
      expect([m.from_minor, m.to_minor]).toEqual([then.ungraded.price_minor, now.ungraded.price_minor]);
      expect(m.change_minor).toBe(m.to_minor - m.from_minor);
      expect(m.change_pct).toBe(Math.round(((m.to_minor - m.from_minor) / m.from_minor) * 1000) / 10);
    }
    expect(movers.gainers[0].change_pct).toBeGreaterThan(40);
    expect(movers.losers[0].change_pct).toBeLessThan(-35);
  });

  it('takes a slot as written, a span and a limit; the table fits 80 columns', async () => {
    const movers = await json('movers', '--at', AS_OF, '--condition', 'PSA 10', '--span', '30d', '--limit', '1', '--json');
    expect(movers.condition).toBe('psa10');
    const then = await bundleAt('rising', AS_OF_MS - 30 * DAY);
    expect(movers.gainers).toHaveLength(1);
    expect(movers.gainers[0]).toMatchObject({ product_key: 'rising', from_minor: then.graded.PSA['10'].price_minor });
    const table = await cli('movers', '--at', AS_OF);
    for (const line of table.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(table.stdout).toMatch(/^rising +Rising Card +\$\d+\.\d\d +\$\d+\.\d\d +\+\d+\.\d%/m);
    expect(table.stdout).toMatch(/^falling +Falling Card .* -\d+\.\d%/m);
  });

  it('refuses a slot outside the matrix with exit 2', async () => {
    const result = await cli('movers', '--condition', 'BGS 9.5');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--condition must be ungraded or a grader and a grade 7-10/);
  });
});
