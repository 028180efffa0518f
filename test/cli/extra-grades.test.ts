// @module-tag sqlite-only: the CLI's extra-grade views; the same reads on PostgreSQL are test/http/extra-grades.test.ts's
/** `oracle price --extra-grades`, `oracle value` and `oracle explain` with grades outside the matrix (CONTRACT.md additions 6). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
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

beforeAll(async () => {
  dir = tempDir();
  db = await newTestDatabase(dir);
  writeFileSync(
    join(dir, 'catalog.csv'),
    ['product_key,refsource_id,product_name,set_name', 'charizard,631245,Charizard,Base Set'].join('\n'),
  );
  const sales = ['product_key,source,observed_at,price_minor,grader,grade,external_id'];
  for (let h = 1; h <= 48; h += 1) {
    const at = toIsoUtc(AT_MS - h * HOUR);
    sales.push(`charizard,ebay,${at},${40_000 + (h % 3) * 500},,,c${h}`);
    if (h % 4 === 0) sales.push(`charizard,ebay,${at},${1_300_000 + (h % 5) * 1_000},PSA,10,p${h}`);
    if (h % 8 === 0) sales.push(`charizard,ebay,${at},${700_000 + (h % 3) * 1_000},BGS,9.5,b${h}`);
  }
  sales.push(`charizard,ebay,${toIsoUtc(AT_MS - 30 * HOUR)},3000000,CGC-PRISTINE,10,x1`);
  sales.push(`charizard,ebay,${toIsoUtc(AT_MS - 40 * 24 * HOUR)},500000,TAG,10,t1`);
  writeFileSync(join(dir, 'sales.csv'), sales.join('\n'));
  const ingest = await runOracle(['--db', db, 'ingest', join(dir, 'catalog.csv'), join(dir, 'sales.csv')]);
  expect(ingest.code, ingest.stderr).toBe(0);
});

describe.concurrent('extra grades in the CLI', () => {
  it('price --extra-grades lists them under the matrix in 80 columns; without it nothing changes', async () => {
    const plain = await cli('price', 'charizard', '--at', AT);
    const extra = await cli('price', 'charizard', '--at', AT, '--extra-grades');
    expect(extra.code, extra.stderr).toBe(0);
    expect(plain.stdout).not.toContain('Extra grades');
    expect(extra.stdout).toMatch(/Extra grades/);
    expect(extra.stdout).toMatch(/^ {2}BGS 9\.5 +\$7,0\d\d\.\d\d ±\d+% \(6\)/m);
    expect(extra.stdout).toMatch(/^ {2}CGC-PRISTINE 10 +\$30,000\.00/m);
    expect(extra.stdout).not.toContain('TAG 10'); // its only sale is 40 days old: absent
    const section = /\nExtra grades[\s\S]*?\n\n/.exec(extra.stdout)![0];
    for (const line of section.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(extra.stdout.replace(/\nExtra grades[\s\S]*?\n\n/, '\n')).toBe(plain.stdout);
  });

  it('price --json --extra-grades adds extra_grades, the rest as without', async () => {
    const plain = JSON.parse((await cli('price', 'charizard', '--at', AT, '--json')).stdout);
    const extra = JSON.parse(
      (await cli('price', 'charizard', '--at', AT, '--json', '--extra-grades')).stdout,
    );
    expect(plain.extra_grades).toBeUndefined();
    const { extra_grades, ...rest } = extra;
    expect(rest).toEqual(plain);
    expect(Object.keys(extra_grades)).toEqual(['BGS', 'CGC-PRISTINE']);
    expect(extra_grades.BGS['9.5']).toMatchObject({
      company: 'BGS',
      grade: 9.5,
      condition_key: 'bgs9.5',
      included_points: 6,
    });
  });

  it('value accepts conditions as people write them and says why a line has no price', async () => {
    const path = join(dir, 'collection.csv');
    writeFileSync(
      path,
      [
        'product_key,condition,quantity',
        'charizard,BGS 9.5,1',
        'charizard,bgs9.5,1',
        'charizard,PSA 10,1',
        'charizard,psa10,1',
        'charizard,CGC Pristine 10,1',
        'charizard,TAG 10,1',
        'charizard,ungraded,1',
      ].join('\n'),
    );
    const json = await cli('value', path, '--at', AT, '--json');
    expect(json.code, json.stderr).toBe(0);
    const v = JSON.parse(json.stdout);
    const bundle = JSON.parse(
      (await cli('price', 'charizard', '--at', AT, '--json', '--extra-grades')).stdout,
    );
    expect(v.lines.map((l: any) => [l.condition, l.unit_price_minor])).toEqual([
      ['bgs9.5', bundle.extra_grades.BGS['9.5'].price_minor],
      ['bgs9.5', bundle.extra_grades.BGS['9.5'].price_minor],
      ['psa10', bundle.graded.PSA['10'].price_minor],
      ['psa10', bundle.graded.PSA['10'].price_minor],
      ['cgc-pristine10', 3_000_000],
      ['tag10', null],
      ['ungraded', bundle.ungraded.price_minor],
    ]);
    expect(v.lines[5].unpriced_reason).toMatch(/no TAG 10 observation in the 30 days/);
    const table = await cli('value', path, '--at', AT);
    expect(table.stdout).toMatch(/no TAG 10 observation in the 30 days/);
    expect(v.problems).toEqual([]);
  });

  it('value refuses a condition it cannot read, naming what it takes', async () => {
    const path = join(dir, 'bad.csv');
    writeFileSync(path, ['product_key,condition,quantity', 'charizard,PSA 11,1'].join('\n'));
    const v = await cli('value', path, '--at', AT, '--json');
    expect(JSON.stringify(JSON.parse(v.stdout).problems)).toMatch(/BGS 9\.5/);
  });

  it('explain --slot "BGS 9.5" shows its own points and its published price', async () => {
    const e = await cli('explain', 'charizard', '--slot', 'BGS 9.5', '--at', AT, '--json');
    expect(e.code, e.stderr).toBe(0);
    const body = JSON.parse(e.stdout);
    const bundle = JSON.parse(
      (await cli('price', 'charizard', '--at', AT, '--json', '--extra-grades')).stdout,
    );
    expect(body.slot).toBe('bgs9.5');
    expect(body.price_minor).toBe(bundle.extra_grades.BGS['9.5'].price_minor);
    expect(new Set(body.points.map((p: any) => p.condition))).toEqual(new Set(['bgs9.5']));
    const absent = JSON.parse(
      (await cli('explain', 'charizard', '--slot', 'TAG 10', '--at', AT, '--json')).stdout,
    );
    expect(absent.price_minor).toBeNull();
  });
});

describe('a PriceCharting download: the grade 9.5 column and the tiers as extra grades', () => {
  it("prices each column's quote from itself: ANY 9.5, ANY 1-6, CGC-PRISTINE, BGS-BLACK, TAG and ACE 10", async () => {
    const pcDb = await newTestDatabase(tempDir());
    const file = join(import.meta.dirname, '..', 'fixtures', 'pricecharting', 'price-guide-new-header.csv');
    const observedAt = '2026-10-15T00:00:00Z';
    const catalog = await runOracle(['--db', pcDb, 'ingest', '--kind', 'catalog', file]);
    expect(catalog.code, catalog.stderr).toBe(0);
    const quotes = await runOracle([
      '--db',
      pcDb,
      'ingest',
      '--format',
      'pricecharting',
      '--observed-at',
      observedAt,
      file,
    ]);
    expect(quotes.code, quotes.stderr).toBe(0);
    const bundle = JSON.parse(
      (
        await runOracle([
          '--db',
          pcDb,
          'price',
          'pokemon-base-set-charizard-4',
          '--at',
          AT,
          '--json',
          '--extra-grades',
        ])
      ).stdout,
    );
    // The file's row: Charizard #4, box-only (grade 9.5) $4,750.00, condition-9..16 (grades 1-6) $95 ... $290,
    // condition-19 (CGC 10 Pristine) $52,000, -20 (BGS Black Label) $88,000, -21 (TAG 10) $9,100, -22 (ACE 10) $6,400.
    const price = (grader: string, grade: string) => bundle.extra_grades[grader]?.[grade]?.price_minor;
    expect(Object.keys(bundle.extra_grades)).toEqual(['ANY', 'ACE', 'BGS-BLACK', 'CGC-PRISTINE', 'TAG']);
    expect(['1', '2', '3', '4', '5', '6', '9.5'].map((g) => price('ANY', g))).toEqual([
      9_500, 12_000, 15_000, 18_000, 23_000, 29_000, 475_000,
    ]);
    expect([
      price('CGC-PRISTINE', '10'),
      price('BGS-BLACK', '10'),
      price('TAG', '10'),
      price('ACE', '10'),
    ]).toEqual([5_200_000, 8_800_000, 910_000, 640_000]);
    // SPEC's matrix and the rest of the body: the same as without them.
    const plain = JSON.parse(
      (await runOracle(['--db', pcDb, 'price', 'pokemon-base-set-charizard-4', '--at', AT, '--json'])).stdout,
    );
    const { extra_grades: _, ...rest } = bundle;
    expect(rest).toEqual(plain);
  });
});
