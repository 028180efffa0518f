/** `oracle value` run as a child process over a real SQLite file and a collection CSV. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PricingBundle } from '../../src/domain/bundle.js';
import { toIsoUtc } from '../../src/domain/time.js';
import { runOracle } from '../_cli.js';
import { tempDir } from '../_setup.js';
import { newTestDatabase } from '../_pg.js';

const HOUR = 3_600_000;
const AT_MS = Date.parse('2026-10-15T12:00:00Z');
const AT = toIsoUtc(AT_MS);

let dir: string;
let db: string;
const cli = (...args: string[]) => runOracle(['--db', db, ...args]);

function collection(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function bundle(key: string): Promise<PricingBundle> {
  const result = await cli('price', key, '--at', AT, '--json');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

beforeAll(async () => {
  dir = tempDir();
  db = await newTestDatabase(dir);
  const catalog = [
    'product_key,refsource_id,product_name,set_name',
    'charizard,631245,Charizard,Base Set',
    'blastoise,631212,Blastoise,Base Set',
    'unsold,609914,Nothing Sold,Base Set',
  ].join('\n');
  const sales = ['product_key,source,observed_at,price_minor,grader,grade,external_id'];
  for (let h = 1; h <= 48; h += 1) {
    const at = toIsoUtc(AT_MS - h * HOUR);
    sales.push(`charizard,ebay,${at},${40_000 + (h % 3) * 500},,,c${h}`);
    if (h % 4 === 0) sales.push(`charizard,ebay,${at},${1_300_000 + (h % 5) * 1_000},PSA,10,p${h}`);
    if (h % 2 === 0) sales.push(`blastoise,ebay,${at},${20_000 + (h % 7) * 100},,,b${h}`);
  }
  writeFileSync(join(dir, 'catalog.csv'), catalog);
  writeFileSync(join(dir, 'sales.csv'), sales.join('\n'));
  const ingest = await runOracle(['--db', db, 'ingest', join(dir, 'catalog.csv'), join(dir, 'sales.csv')]);
  expect(ingest.code, ingest.stderr).toBe(0);
});

describe.concurrent('oracle value', () => {
  it('values each line at its bundle price times its quantity, and totals them', async () => {
    const path = collection(
      'good.csv',
      [
        'product_key,refsource_id,condition,quantity,cost_basis_minor',
        'charizard,,psa10,1,1000000',
        'charizard,,ungraded,3,',
        ',631212,UNGRADED,2,30000',
      ].join('\n'),
    );
    const result = await cli('value', path, '--at', AT, '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const v = JSON.parse(result.stdout);
    const charizard = await bundle('charizard');
    const blastoise = await bundle('blastoise');
    const psa10 = charizard.graded.PSA['10'].price_minor!;
    const ungraded = charizard.ungraded.price_minor!;
    const blast = blastoise.ungraded.price_minor!;
    expect(v.at).toBe(AT);
    expect(
      v.lines.map((l: any) => [
        l.line,
        l.product_key,
        l.condition,
        l.quantity,
        l.unit_price_minor,
        l.subtotal_minor,
      ]),
    ).toEqual([
      [2, 'charizard', 'psa10', 1, psa10, psa10],
      [3, 'charizard', 'ungraded', 3, ungraded, 3 * ungraded],
      [4, 'blastoise', 'ungraded', 2, blast, 2 * blast],
    ]);
    expect(v.lines[0].gain_minor).toBe(psa10 - 1_000_000);
    expect(v.lines[1].gain_minor).toBeNull();
    expect(v.total).toMatchObject({
      value_minor: psa10 + 3 * ungraded + 2 * blast,
      priced_lines: 3,
      unpriced_lines: 0,
      cost_basis_minor: 1_030_000,
      gain_minor: psa10 - 1_000_000 + 2 * blast - 30_000,
    });
    // Every line's slot carries its 80 % interval (methodology v2): the total's is the sums of
    // the lines' lows and highs, each times its quantity.
    const bounds = (slot: { meta: Record<string, unknown> }) =>
      slot.meta.confidence as { low_minor: number; high_minor: number };
    const lines = [
      [bounds(charizard.graded.PSA['10']), 1],
      [bounds(charizard.ungraded), 3],
      [bounds(blastoise.ungraded), 2],
    ] as const;
    expect(v.total.low_minor).toBe(lines.reduce((a, [c, q]) => a + q * c.low_minor, 0));
    expect(v.total.high_minor).toBe(lines.reduce((a, [c, q]) => a + q * c.high_minor, 0));
    expect(v.problems).toEqual([]);
  });

  it('names every bad row with its line number, still values the good ones, and exits 3', async () => {
    const path = collection(
      'mixed.csv',
      [
        'product_key,condition,quantity,cost_basis_minor',
        'charizard,ungraded,2,',
        'charzard,ungraded,1,',
        'charizard,psa11,1,',
        'charizard,ungraded,0,',
        'charizard,ungraded,1.5,',
        'charizard,ungraded,1,-5',
        ',ungraded,1,',
        'blastoise,ungraded,1,',
      ].join('\n'),
    );
    const result = await cli('value', path, '--at', AT);
    expect(result.code).toBe(3);
    const errors = result.stderr.trimEnd().split('\n');
    expect(errors).toEqual([
      expect.stringMatching(
        new RegExp(`^oracle: ${path}:3: unknown product_key "charzard" \\(did you mean "charizard"`),
      ),
      `oracle: ${path}:4: condition must be ungraded, or a grader and a grade 1-10 in steps of 0.5 (PSA 10, psa10, BGS 9.5, bgs9.5, TAG 10, CGC Pristine 10, BGS Black Label 10) (got "psa11")`,
      expect.stringMatching(new RegExp(`^oracle: ${path}:5: quantity must be an integer from 1 to 1000000`)),
      expect.stringMatching(new RegExp(`^oracle: ${path}:6: quantity must be an integer`)),
      expect.stringMatching(new RegExp(`^oracle: ${path}:7: cost_basis_minor must be an integer from 0`)),
      `oracle: ${path}:8: product_key or refsource_id is required`,
      'oracle: 6 of 8 rows could not be valued; the others are above',
    ]);
    expect(result.stdout).toMatch(/^ +2 +charizard +Charizard +ungraded +2 /m);
    expect(result.stdout).toMatch(/^ +9 +blastoise +Blastoise +ungraded +1 /m);
    expect(result.stdout).toContain('2 lines priced');
  });

  it('prints a table that fits 80 columns, the total, the gain and the instant', async () => {
    const path = collection(
      'table.csv',
      [
        'refsource_id,condition,quantity,cost_basis_minor',
        '631245,ungraded,1,100',
        '609914,ungraded,1,',
      ].join('\n'),
    );
    const result = await cli('value', path, '--at', AT);
    expect(result.code).toBe(0);
    const price = (await bundle('charizard')).ungraded.price_minor!;
    const dollars = (c: number) =>
      `$${Math.trunc(c / 100).toLocaleString('en-US')}.${String(c % 100).padStart(2, '0')}`;
    expect(result.stdout).toMatch(/^ +3 +unsold +Nothing Sold +ungraded +1 +no price +- +-$/m);
    expect(result.stdout).toContain(
      `total:       ${dollars(price)}  (1 line priced, 1 without a price (not counted))`,
    );
    expect(result.stdout).toContain(`cost basis:  $1.00  gain +${dollars(price - 100)}`);
    expect(result.stdout).toContain(`as of:       ${AT}`);
    for (const line of result.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('--csv: one row per line and a total row', async () => {
    const path = collection(
      'csv.csv',
      ['product_key,condition,quantity', 'charizard,ungraded,2', 'blastoise,ungraded,1'].join('\n'),
    );
    const result = await cli('value', path, '--at', AT, '--csv');
    expect(result.code).toBe(0);
    const rows = result.stdout
      .trimEnd()
      .split('\n')
      .map((r) => r.split(','));
    expect(rows[0]!.slice(0, 5)).toEqual(['line', 'product_key', 'refsource_id', 'condition', 'quantity']);
    expect(rows.map((r) => r[0])).toEqual(['line', '2', '3', 'total']);
    expect(Number(rows[3]![8])).toBe(Number(rows[1]![8]) + Number(rows[2]![8]));
  });

  it('exits 2 for --json with --csv before reading the collection', async () => {
    const result = await runOracle(['--db', db, 'value', '-', '--at', AT, '--csv', '--json'], {
      input: 'product_key,condition,quantity\ncharizard,ungraded,1\n',
    });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/^oracle: option '--csv' cannot be used with option '--json'\n/);
  });

  it('reads the collection from stdin with -', async () => {
    const result = await runOracle(['--db', db, 'value', '-', '--at', AT, '--json'], {
      input: 'product_key,condition,quantity\ncharizard,ungraded,1\n',
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).lines).toHaveLength(1);
  });

  it('refuses an unusable file: exit 2 for unknown or missing columns, 1 for a missing file', async () => {
    const unknown = await cli(
      'value',
      collection('u.csv', 'product_key,condition,qty\ncharizard,ungraded,1\n'),
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/u\.csv:1: unknown column "qty"/);
    const missing = await cli('value', collection('m.csv', 'condition,quantity\nungraded,1\n'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/m\.csv:1: missing column product_key or refsource_id/);
    const nofile = await cli('value', join(dir, 'nope.csv'));
    expect(nofile.code).toBe(1);
    expect(nofile.stderr).toMatch(/cannot read .*nope\.csv/);
    const future = await cli(
      'value',
      collection('f.csv', 'product_key,condition,quantity\ncharizard,ungraded,1\n'),
      '--at',
      toIsoUtc(Date.now() + 86_400_000),
    );
    expect(future.code).toBe(2);
    expect(future.stderr).toMatch(/--at .*in the future/);
  });
});
