/** `oracle sales`, `oracle movers` and `oracle value`'s cost basis and --history in process over a real database (SQLite, or PostgreSQL in the `postgres` project). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PricingBundle } from '../../src/domain/bundle.js';
import { toIsoUtc } from '../../src/domain/time.js';
import { runOracle } from '../_cli.js';
import { tempDir } from '../_setup.js';
import { AS_OF, AS_OF_MS, marketDatabase, OUTLIER_AT } from './_market-database.js';

const DAY = 86_400_000;
let db: string;
let dir: string;
const cli = (...args: string[]) => runOracle(['--db', db, ...args], { now: AS_OF_MS });

async function json(...args: string[]) {
  const result = await cli(...args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

const bundleAt = (key: string, at: number): Promise<PricingBundle> =>
  json('price', key, '--at', toIsoUtc(at), '--json');

beforeAll(async () => {
  dir = tempDir();
  db = await marketDatabase(dir);
});

describe.concurrent('oracle sales', () => {
  it("lists every condition's points newest first, each kept or not exactly as explain has it", async () => {
    const sales = await json('sales', 'rising', '--at', AS_OF, '--limit', '1000', '--json');
    expect(sales).toMatchObject({
      product_key: 'rising',
      product_name: 'Rising Card',
      condition: null,
      as_of: AS_OF,
      since: null,
      limit: 1000,
    });
    const times = sales.sales.map((p: { observed_at: string }) => p.observed_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(sales.sales[0]).toMatchObject({ observed_at: OUTLIER_AT, price_minor: 200_000, kept: false });
    expect(sales.sales[0].reason).toMatch(/^outlier: robust z \+/);
    for (const slot of ['ungraded', 'psa10']) {
      const explained = (
        await json('explain', 'rising', '--slot', slot, '--at', AS_OF, '--json')
      ).points.filter((p: { condition: string }) => p.condition === slot);
      expect(explained.length).toBeGreaterThan(0);
      expect(sales.sales.filter((p: { condition: string }) => p.condition === slot)).toEqual(explained);
    }
    expect(sales.total).toBe(sales.sales.length);
    expect(sales.kept).toBe(sales.sales.filter((p: { kept: boolean }) => p.kept).length);
  });

  it('takes one condition as written, a span and a limit', async () => {
    const sales = await json(
      'sales',
      'rising',
      '--at',
      AS_OF,
      '--condition',
      'PSA 10',
      '--span',
      '2d',
      '--json',
    );
    expect(sales.condition).toBe('psa10');
    expect(sales.since).toBe(toIsoUtc(AS_OF_MS - 2 * DAY));
    // A PSA 10 every 12 hours: 12, 24, 36 and 48 hours before AS_OF.
    expect(sales.sales.map((p: { observed_at: string }) => p.observed_at)).toEqual(
      [12, 24, 36, 48].map((h) => toIsoUtc(AS_OF_MS - h * 3_600_000)),
    );
    expect(
      sales.sales.every((p: { condition: string; kept: boolean }) => p.condition === 'psa10' && p.kept),
    ).toBe(true);
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
    expect(table.stdout).toMatch(
      /^newest 5 of \d+ observations, \d+ kept \(window 24 h, outlier threshold 2 sd\)$/m,
    );
    const csv = await cli('sales', 'rising', '--at', AS_OF, '--limit', '5', '--csv');
    const rows = csv.stdout.trimEnd().split('\n');
    expect(rows[0]).toBe(
      'observed_at,condition,source,price_minor,kept,reason,z,weight,sales_volume,matched_by',
    );
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
    expect(movers).toMatchObject({
      condition: 'ungraded',
      span: '7d',
      from: toIsoUtc(from),
      to: AS_OF,
      min_observations: 5,
      candidates: 3,
      priced: 3,
    });
    expect(movers.gainers.map((m: { product_key: string }) => m.product_key)).toEqual(['rising', 'steady']);
    expect(movers.losers.map((m: { product_key: string }) => m.product_key)).toEqual(['falling']);
    for (const m of [movers.gainers[0], movers.losers[0]]) {
      const [then, now] = await Promise.all([
        bundleAt(m.product_key, from),
        bundleAt(m.product_key, AS_OF_MS),
      ]);
      expect([m.from_minor, m.to_minor]).toEqual([then.ungraded.price_minor, now.ungraded.price_minor]);
      expect(m.change_minor).toBe(m.to_minor - m.from_minor);
      expect(m.change_pct).toBe(Math.round(((m.to_minor - m.from_minor) / m.from_minor) * 1000) / 10);
    }
    expect(movers.gainers[0].change_pct).toBeGreaterThan(40);
    expect(movers.losers[0].change_pct).toBeLessThan(-35);
  });

  it('takes a slot as written, a span and a limit; the table fits 80 columns', async () => {
    const movers = await json(
      'movers',
      '--at',
      AS_OF,
      '--condition',
      'PSA 10',
      '--span',
      '30d',
      '--limit',
      '1',
      '--json',
    );
    expect(movers.condition).toBe('psa10');
    const then = await bundleAt('rising', AS_OF_MS - 30 * DAY);
    expect(movers.gainers).toHaveLength(1);
    expect(movers.gainers[0]).toMatchObject({
      product_key: 'rising',
      from_minor: then.graded.PSA['10'].price_minor,
    });
    const table = await cli('movers', '--at', AS_OF);
    for (const line of table.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(table.stdout).toMatch(/^rising +Rising Card +\$\d+\.\d\d +\$\d+\.\d\d +\+\d+\.\d%/m);
    expect(table.stdout).toMatch(/^falling +Falling Card .* -\d+\.\d%/m);
  });

  it('refuses a slot outside the matrix, and a span reaching back before the year 1000, with exit 2', async () => {
    const result = await cli('movers', '--condition', 'BGS 9.5');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--condition must be ungraded or a grader and a grade 7-10/);
    const early = await cli('movers', '--at', '1000-01-03');
    expect(early.code).toBe(2);
    expect(early.stderr).toMatch(/the span reaches back before 1000-01-01T00:00:00Z/);
  });
});

describe.concurrent('oracle value: cost basis in dollars, names, --history', () => {
  const collection = (name: string, lines: string[]) => {
    const path = join(dir, name);
    writeFileSync(path, lines.join('\n'));
    return path;
  };

  it('reads cost_basis in dollars exactly, shows names beside keys, and the gain per line and in total', async () => {
    const path = collection('dollars.csv', [
      'product_key,condition,quantity,cost_basis,cost_basis_minor',
      'rising,ungraded,2,$150.00,',
      'falling,PSA 10,1,"1,500.50",',
      'steady,ungraded,3,0.1,',
      'steady,ungraded,1,,1234',
      'steady,ungraded,1,$1.234,',
      'steady,ungraded,1,$5,500',
    ]);
    const result = await cli('value', path, '--at', AS_OF, '--json');
    expect(result.code).toBe(3);
    const v = JSON.parse(result.stdout);
    expect(v.lines.map((l: any) => [l.product_key, l.product_name, l.cost_basis_minor])).toEqual([
      ['rising', 'Rising Card', 15_000],
      ['falling', 'Falling Card', 150_050],
      ['steady', 'Steady Card', 10],
      ['steady', 'Steady Card', 1_234],
    ]);
    for (const l of v.lines) expect(l.gain_minor).toBe(l.subtotal_minor - l.cost_basis_minor);
    expect(v.total.gain_minor).toBe(v.total.value_minor - (15_000 + 150_050 + 10 + 1_234));
    expect(v.problems.map((p: any) => p.line)).toEqual([6, 7]);
    expect(v.problems[0].reason).toMatch(/^cost_basis must be dollars .*got "\$1\.234"/);
    expect(v.problems[1].reason).toBe('give cost_basis (dollars) or cost_basis_minor (cents), not both');
    const table = await cli('value', path, '--at', AS_OF);
    expect(table.stdout).toMatch(
      /^ +2 +rising +Rising Card +ungraded +2 +\$\d+\.\d\d +\$\d+\.\d\d +\+\$\d+\.\d\d$/m,
    );
    for (const line of table.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it("--history: the collection's value at each step is its lines' bundle prices times their quantities", async () => {
    const path = collection('history.csv', [
      'product_key,condition,quantity,cost_basis',
      'rising,ungraded,2,$150',
      'falling,psa10,1,$1500',
    ]);
    const h = await json(
      'value',
      path,
      '--history',
      '--from',
      toIsoUtc(AS_OF_MS - 14 * DAY),
      '--to',
      AS_OF,
      '--every',
      '1w',
      '--json',
    );
    expect(h).toMatchObject({
      from: toIsoUtc(AS_OF_MS - 14 * DAY),
      to: AS_OF,
      every: '1w',
      lines: 2,
      cost_basis_minor: 165_000,
      problems: [],
    });
    expect(h.points.map((p: { at: string }) => p.at)).toEqual(
      [14, 7, 0].map((d) => toIsoUtc(AS_OF_MS - d * DAY)),
    );
    for (const [i, d] of [
      [0, 14],
      [2, 0],
    ] as const) {
      const [rising, falling] = await Promise.all([
        bundleAt('rising', AS_OF_MS - d * DAY),
        bundleAt('falling', AS_OF_MS - d * DAY),
      ]);
      expect(h.points[i]).toEqual({
        at: toIsoUtc(AS_OF_MS - d * DAY),
        value_minor: 2 * rising.ungraded.price_minor! + falling.graded.PSA['10'].price_minor!,
        priced_lines: 2,
      });
    }
    // The span as people write it (the run's clock is AS_OF): the same points.
    expect(
      (await json('value', path, '--history', '--from', '14d', '--every', '1w', '--json')).points,
    ).toEqual(h.points);
    expect(h.change_minor).toBe(h.points[2].value_minor - h.points[0].value_minor);
    expect(h.gain_minor).toBe(h.points[2].value_minor - 165_000);
    const chart = await cli('value', path, '--history', '--to', AS_OF);
    expect(chart.code).toBe(0);
    expect(chart.stdout).toMatch(
      /^Collection value, 2 lines, every 1d, 91 points\n\S+Z -> 2026-10-15T12:00:00Z$/m,
    );
    expect(chart.stdout).toMatch(/┤/);
    expect(chart.stdout).toMatch(/^cost basis: +\$1,650\.00 +gain [+-]\$/m);
    for (const line of chart.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    const csv = await cli('value', path, '--history', '--to', AS_OF, '--every', '1w', '--csv');
    expect(csv.stdout.split('\n')[0]).toBe('at,value_minor,priced_lines');
  });

  it('refuses --from, --to or --every without --history, and --at with it', async () => {
    const path = collection('one.csv', ['product_key,condition,quantity', 'rising,ungraded,1']);
    const alone = await cli('value', path, '--every', '1w');
    expect([alone.code, alone.stderr]).toEqual([2, 'oracle: --from, --to and --every go with --history\n']);
    const both = await cli('value', path, '--history', '--at', AS_OF);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--history.*cannot be used with.*--at/);
  });
});
