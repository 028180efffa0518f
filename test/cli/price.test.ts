import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PricingBundle } from '../../src/domain/bundle.js';
import { GRADERS, MATRIX_GRADES } from '../../src/domain/conditions.js';
import { runOracle } from '../_cli.js';
import { databaseWith, runCli, tempDir, testProduct } from '../_setup.js';
import { AS_OF, pricedDatabase } from './_priced-database.js';

let db: string;

beforeAll(async () => {
  db = await pricedDatabase();
});

async function priceJson(args: string[], database = db): Promise<PricingBundle> {
  const result = await runOracle(['--db', database, 'price', ...args, '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as PricingBundle;
}

describe.concurrent('oracle price', () => {
  it('prints the bundle with id null on the key route: every grader with grades 7-10, the window ending at --at', async () => {
    const bundle = await priceJson(['charizard base/set é', '--at', AS_OF]);
    expect(bundle.id).toBeNull();
    expect(bundle.product_key).toBe('charizard base/set é');
    expect(bundle.window_hours).toBe(24);
    expect(bundle.outlier_stddevs).toBe(2);
    expect(Object.keys(bundle.graded)).toEqual([...GRADERS]);
    for (const g of GRADERS) expect(Object.keys(bundle.graded[g])).toEqual(MATRIX_GRADES.map(String));
    // Its sales: $400.00 to $404.00.
    expect(bundle.ungraded.price_minor).toBeGreaterThanOrEqual(40_000);
    expect(bundle.ungraded.price_minor).toBeLessThanOrEqual(40_400);
    expect(bundle.ungraded.window_end).toBe(AS_OF);
  });

  it('prices the worked example of docs/methodology.md §13 to the cent', async () => {
    const asOf = Date.parse('2026-03-01T00:00:00Z');
    const sale = (
      hoursBefore: number,
      priceMinor: number,
      grader: string,
      grade: number | null,
      source = 'ebay',
    ) => ({
      productKey: 'worked-example',
      source,
      observedAt: asOf - hoursBefore * 3_600_000,
      priceMinor,
      grader,
      grade,
      externalId: `${grader}${grade ?? ''}-${hoursBefore}`,
    });
    const database = await databaseWith(
      [testProduct({ productKey: 'worked-example', refsourceId: '1313', era: 'modern' })],
      [
        sale(20, 4600, 'ungraded', null),
        sale(12, 4800, 'ungraded', null, 'mercari'),
        sale(8, 4500, 'ungraded', null),
        sale(4, 4650, 'ungraded', null, 'mercari'),
        sale(2, 46000, 'ungraded', null),
        sale(22, 30000, 'PSA', 10),
        sale(12, 32000, 'PSA', 10),
        sale(6, 31000, 'PSA', 10),
        sale(5, 14000, 'PSA', 9),
        sale(3, 180000, 'CGC', 10),
      ],
    );
    const bundle = await priceJson(['worked-example', '--at', '2026-03-01T00:00:00Z'], database);
    expect(bundle.ungraded).toMatchObject({ price_minor: 4635, included_points: 4, excluded_points: 1 });
    expect(bundle.ungraded.meta).toMatchObject({
      source_counts: { ebay: 2, mercari: 2 },
      confidence: { level: 0.8, low_minor: 4224, high_minor: 5086 },
      newest_observation_at: '2026-02-28T20:00:00Z',
      stale: false,
    });
    const prices = Object.fromEntries(
      GRADERS.map((g) => [
        g,
        MATRIX_GRADES.map((grade) => bundle.graded[g][String(grade) as '10'].price_minor),
      ]),
    );
    expect(prices).toEqual({
      PSA: [6218, 9327, 13997, 31084],
      BGS: [null, null, 14000, 34191],
      CGC: [null, null, 14000, 18650],
      SGC: [null, null, 14000, 21758],
    });
    expect(bundle.graded.PSA['10'].meta.confidence).toEqual({
      level: 0.8,
      low_minor: 27920,
      high_minor: 34607,
    });
    expect(bundle.graded.BGS['7'].meta).toEqual({
      no_price_reason: 'wide_estimate',
      newest_observation_at: '2026-02-28T20:00:00Z',
    });
    // A person reads `no price` in those cells, never a number, and the legend says why, within 80 columns.
    const view = await runOracle(
      ['--db', database, 'price', 'worked-example', '--at', '2026-03-01T00:00:00Z'],
      { env: { COLUMNS: '80' } },
    );
    expect(view.stdout).toMatch(/^BGS +no price +no price +~\$140\.00/m);
    expect(view.stdout).toMatch(/no price: an\s+estimate too\s+uncertain or too stale to publish/);
    expect(Math.max(...view.stdout.split('\n').map((l) => l.length))).toBeLessThanOrEqual(80);
    const why = await runOracle(
      ['--db', database, 'explain', 'worked-example', '--slot', 'bgs7', '--at', '2026-03-01T00:00:00Z'],
      { env: { COLUMNS: '80' } },
    );
    expect(why.stdout).toMatch(/bgs7: no price\. It could only be estimated, too uncertainly to publish/);
    expect(why.stdout).toMatch(
      /no_price, §9\.1: The price would be an estimate whose level's\s+80 %\s+interval\s+\(before\s+the\s+next\s+sale's\s+scatter\)\s+spans\s+2\.48-fold/,
    );
    // Six weeks on, the cells with sales of their own are priced from them, marked stale, with a
    // wider interval (pricing v4, §9.1); the cells that would be estimates from stale data stay unpriced.
    const later = await runOracle(['--db', database, 'price', 'worked-example', '--at', '2026-04-15'], {
      env: { COLUMNS: '80' },
    });
    expect(later.stdout).toMatch(/^Ungraded: \$45\.82 {2}80 %: \$35\.55 - \$59\.04\n.*STALE/m);
    expect(later.stdout).toMatch(/^BGS +no price +no price +no price +no price/m);
    const then = await priceJson(['worked-example', '--at', '2026-02-28'], database);
    expect(then.ungraded.price_minor).toEqual(expect.any(Number));
  });

  it('answers the same from bin/oracle.js in a process of its own', async () => {
    const args = ['--db', db, 'price', 'charizard base/set é', '--at', AS_OF];
    const [inProcess, spawned] = await Promise.all([runOracle(args), runCli(args)]);
    expect(spawned).toEqual(inProcess);
    expect(spawned.code).toBe(0);
  });

  it('passes --window-hours and --outlier-stddevs through to the bundle', async () => {
    const bundle = await priceJson([
      'charizard base/set é',
      '--at',
      AS_OF,
      '--window-hours',
      '72',
      '--outlier-stddevs',
      '5',
    ]);
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
    const result = await runOracle(['--db', db, 'price', 'charizard base/set é', '--at', AS_OF]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Ungraded: \$4\d\d\.\d\d/);
    // A withheld estimate (methodology §9.1) reads `no price`, never a number.
    for (const g of GRADERS)
      expect(result.stdout).toMatch(new RegExp(`^${g} +(~?\\$[\\d,]+\\.\\d\\d|no price)`, 'm'));
    expect(result.stdout).toContain('grade 10');
    expect(result.stdout).toContain(`window:      2026-10-14T12:00:00Z -> ${AS_OF}`);
    expect(result.stdout).toMatch(/methodology: \S+/);
  });

  it.each([
    [['charizard base/set é', '--window-hours', '73'], /--window-hours must be an integer from 1 to 72/],
    [['charizard base/set é', '--window-hours', '1.5'], /--window-hours must be an integer from 1 to 72/],
    [['charizard base/set é', '--outlier-stddevs', '0'], /--outlier-stddevs must be an integer from 1 to 10/],
    [
      ['charizard base/set é', '--at', '2026-10-15T12:00:00'],
      /^oracle: --at "2026-10-15T12:00:00" has no time zone: add Z or an offset/,
    ],
    [
      ['charizard base/set é', '--at', 'yesterday'],
      /^oracle: --at must be an ISO-8601 date-time with Z or an offset/,
    ],
    [
      ['charizard base/set é', '--at', '2026-02-30T12:00:00Z'],
      /^oracle: --at "2026-02-30T12:00:00Z" is not a real date: February 2026 has 28 days\n$/,
    ],
    [
      ['charizard base/set é', '--at', '2026-10-15T24:00:00Z'],
      /^oracle: --at "2026-10-15T24:00:00Z" is not a real time: there is no hour 24/,
    ],
    [
      ['charizard base/set é', '--at', '2999-01-01T00:00:00Z'],
      /^oracle: --at "2999-01-01T00:00:00Z" is in the future \(now is \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)/,
    ],
    [
      ['charizard base/set é', '--window-hours', '024'],
      /^oracle: --window-hours must be an integer from 1 to 72, written as digits only .*\(got "024"\)/,
    ],
    [
      ['charizard base/set é', '--window-hours', '+24'],
      /^oracle: --window-hours must be an integer from 1 to 72, written as digits only .*\(got "\+24"\)/,
    ],
    [
      ['charizard base/set é', '--window-hours', ' 24'],
      /^oracle: --window-hours must be an integer from 1 to 72, written as digits only .*\(got " 24"\)/,
    ],
    [
      ['charizard base/set é', '--outlier-stddevs', '1e1'],
      /^oracle: --outlier-stddevs must be an integer from 1 to 10, written as digits only .*\(got "1e1"\)/,
    ],
    [['no-such-card'], /unknown product_key "no-such-card"/],
    [['--refsource', '999'], /no catalog mapping for refsource id "999"/],
    // The API's refsource_id in the same words (domain/params.ts parseRefsourceId).
    [['--refsource', 'abc'], /^oracle: --refsource must be a string of 1 to 20 digits \(got "abc"\)\n/],
    [
      ['--refsource', '1'.repeat(21)],
      /^oracle: --refsource must be a string of 1 to 20 digits \(got "1{21}"\)\n/,
    ],
    [[], /either a product_key or --refsource/],
    [['charizard base/set é', '--refsource', '6910'], /either a product_key or --refsource/],
  ])('exits 2 with one clear line for %j', async (args, message) => {
    const result = await runOracle(['--db', db, 'price', ...args]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits 1 naming the file when the database does not exist, without a stack trace', async () => {
    const missing = join(tempDir(), 'missing.db');
    const result = await runOracle(['--db', missing, 'price', 'x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(missing);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("exits 2 for --db '' before or after the command, creating nothing; an empty ORACLE_DB still means the default", async () => {
    const cwd = tempDir();
    const message =
      'oracle: --db must not be empty: give a value, or leave the flag out for ORACLE_DB or the default\n';
    for (const args of [
      ['--db', '', 'ingest', '-'],
      ['ingest', '-', '--db', ' '],
      ['--db=', 'catalog'],
    ]) {
      const result = await runCli(args, { cwd, input: 'product_key,refsource_id,product_name\nx,1,X\n' });
      expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }, args.join(' ')).toEqual({
        code: 2,
        stdout: '',
        stderr: message,
      });
    }
    expect(readdirSync(cwd)).toEqual([]);
    const unset = await runCli(['catalog'], {
      cwd,
      env: { ORACLE_DB: '', XDG_DATA_HOME: join(cwd, 'data') },
    });
    expect(unset.stderr).toContain(`database ${join(cwd, 'data', 'oracle', 'oracle.db')} does not exist`);
  });

  it('reads the database path from ORACLE_DB when --db is absent', async () => {
    const result = await runOracle(['price', '--refsource', '6910', '--at', AS_OF, '--json'], {
      env: { ORACLE_DB: db },
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).id).toBe('6910');
  });
});
