// @module-tag sqlite-only: stored text made inert on output: the store keeps text as given on both stores
// (the store contract)
/**
 * Hostile data in the catalog (issue 24): keys and names a spreadsheet would evaluate as a
 * formula reach every CSV the CLI writes inert, and raw in --json; control and format
 * characters are rejected at ingest and escaped on the terminal whatever is already stored.
 */
import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CsvParser } from '../../src/domain/csv.js';
import { activeCharacter } from '../../src/domain/inert-text.js';
import { runOracle } from '../_cli.js';
import { databaseWith, tempDir, testProduct } from '../_setup.js';

const HOUR = 3_600_000;
const AT_MS = Date.parse('2026-10-15T12:00:00Z');
const AT = '2026-10-15T12:00:00Z';
/** One key per OWASP trigger: `=`, `+`, `-`, `@`, tab and carriage return at the start. */
const FORMULAS = ['=HYPERLINK("http://x.example","y")', '+cmd', '-1+1', '@SUM(A1:A2)', '\t=1+1', '\r=1+1'];

let dir: string;
let db: string;
const cli = (...args: string[]) => runOracle(['--db', db, ...args]);

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  const parser = new CsvParser('out.csv', (fields) => rows.push(fields));
  parser.push(text);
  parser.end();
  return rows;
}

beforeAll(async () => {
  dir = tempDir();
  const products = FORMULAS.map((key, i) =>
    testProduct({ productKey: key, refsourceId: String(500 + i), productName: `Card ${i}` }),
  );
  const rows = FORMULAS.flatMap((key, i) =>
    [1, 2, 3].map((h) => ({
      productKey: key,
      source: 'ebay',
      observedAt: AT_MS - h * HOUR,
      priceMinor: 1_000 + h,
      grader: 'ungraded',
      grade: null,
      externalId: `${i}-${h}`,
    })),
  );
  db = await databaseWith(products, rows);
});

describe('formula cells in CSV output', () => {
  it('oracle export --format csv writes every formula-like key with a leading quote, the numbers as they are', async () => {
    const out = join(dir, 'prices.csv');
    const result = await cli('export', '--at', AT, '--format', 'csv', '--out', out);
    expect(result.code).toBe(0);
    const rows = parseCsv(readFileSync(out, 'utf8')).slice(1);
    expect(rows.map((r) => r[0]).sort()).toEqual(FORMULAS.map((f) => `'${f}`).sort());
    for (const row of rows) expect(row[3]).toMatch(/^\d+$/);
  });

  it('oracle value --csv neutralises the key and keeps a negative gain a number; --json keeps the raw key', async () => {
    const collection = join(dir, 'mine.csv');
    writeFileSync(
      collection,
      `product_key,condition,quantity,cost_basis_minor\n"${FORMULAS[0]!.replaceAll('"', '""')}",ungraded,1,100000\n`,
    );
    const csv = await cli('value', collection, '--at', AT, '--csv');
    expect(csv.stderr).toBe('');
    const [head, line] = parseCsv(csv.stdout);
    expect(line![head!.indexOf('product_key')]).toBe(`'${FORMULAS[0]}`);
    expect(line![head!.indexOf('gain_minor')]).toMatch(/^-\d+$/);
    const json = JSON.parse((await cli('value', collection, '--at', AT, '--json')).stdout);
    expect(json.lines[0].product_key).toBe(FORMULAS[0]);
  });
});

/** U+009B (an 8-bit CSI), U+202E (right-to-left override), U+200B (zero width space), ESC. */
const CSI = '\u009b';
const RLO = '\u202e';

/** Output a terminal shows as written: no active character but the line breaks. */
function expectInert(text: string): void {
  expect(activeCharacter().test(text.replaceAll('\n', ''))).toBe(false);
}

describe('control and format characters', () => {
  let hostile: string;
  const run = (...args: string[]) => runOracle(['--db', hostile, ...args]);

  beforeAll(async () => {
    hostile = await databaseWith(
      [
        testProduct({
          productKey: `evil${CSI}31m`,
          refsourceId: '9001',
          productName: `Name${CSI}2J`,
          subtitle: `4${'\u200b'}/102`,
          setName: `Set${RLO}txt.exe`,
        }),
      ],
      [1, 2, 3].map((h) => ({
        productKey: `evil${CSI}31m`,
        source: 'ebay',
        observedAt: AT_MS - h * HOUR,
        priceMinor: 1_000 + h,
        grader: 'ungraded',
        grade: null,
        externalId: `x-${h}`,
      })),
    );
    expect((await run('keys', 'create', '--label', 'ops')).code).toBe(0);
    const db = new Database(hostile);
    db.prepare('UPDATE api_keys SET label = ?').run(`ops${RLO}${CSI}`);
    db.close();
  });

  it('are rejected at ingest in names, set names and subtitles, naming the code point', async () => {
    for (const [column, value, name] of [
      ['product_name', `Char${CSI}izard`, 'U+009B'],
      ['set_name', `Base${RLO}Set`, 'U+202E'],
      ['subtitle', `4${'\u2066'}/102`, 'U+2066'],
      ['product_name', `Pika${'\u0085'}chu`, 'U+0085'],
    ]) {
      const catalog = join(dir, 'hostile-catalog.csv');
      writeFileSync(
        catalog,
        `product_key,product_name,${column === 'product_name' ? 'set_name' : column}\nk1,${column === 'product_name' ? value : 'Name'},${column === 'product_name' ? 'S' : value}\n`,
      );
      const result = await run('ingest', catalog);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(`${column} must be`);
      expect(result.stderr).toContain(`${name} is a control or format character`);
      expectInert(result.stderr);
    }
  });

  it('are rejected in a key label, naming the code point', async () => {
    const result = await run('keys', 'create', '--label', `ops${RLO}`);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('U+202E is a control or format character');
    expectInert(result.stderr);
  });

  it.each([
    ['catalog', ['catalog']],
    ['catalog --search', ['catalog', '--search', 'evil']],
    ['price', ['price', `evil${CSI}31m`, '--at', AT]],
    ['history', ['history', `evil${CSI}31m`, '--to', AT, '--from', '2026-10-14T12:00:00Z', '--every', '6h']],
    ['keys list', ['keys', 'list']],
    ['an error line', ['price', `nothing${CSI}here`, '--at', AT]],
  ])('already stored, are escaped by %s', async (_name, args) => {
    const result = await run(...args);
    expectInert(result.stdout);
    expectInert(result.stderr);
    expect(`${result.stdout}${result.stderr}`).toContain('\\u{');
  });

  it('in an echoed CSV column name are escaped', async () => {
    const collection = join(dir, 'columns.csv');
    writeFileSync(collection, `product_key,condition,quantity,note${CSI}31m\nk,ungraded,1,x\n`);
    const result = await run('value', collection, '--at', AT);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('note\\u{9b}31m');
    expectInert(result.stderr);
  });
});

describe('collection totals past 2^53 cents', () => {
  const UNIT = 999_999_999_999_999; // the largest price_minor ingest takes (15 digits)
  let rich: string;
  beforeAll(async () => {
    rich = await databaseWith(
      [testProduct({ productKey: 'grail', refsourceId: '777', productName: 'Grail' })],
      [1, 2, 3].map((h) => ({
        productKey: 'grail',
        source: 'ebay',
        observedAt: AT_MS - h * HOUR,
        priceMinor: UNIT,
        grader: 'ungraded',
        grade: null,
        externalId: `g-${h}`,
      })),
    );
  });

  it('a line whose subtotal passes 2^53 cents is a problem of its own, never a rounded number', async () => {
    const path = join(dir, 'grail-line.csv');
    writeFileSync(path, 'product_key,condition,quantity\ngrail,ungraded,10\ngrail,ungraded,1\n');
    const result = await runOracle(['--db', rich, 'value', path, '--at', AT, '--json']);
    const body = JSON.parse(result.stdout);
    expect(body.lines).toHaveLength(1);
    expect(body.total.value_minor).toBe(body.lines[0].unit_price_minor);
    expect(body.problems).toEqual([
      {
        line: 2,
        reason:
          'quantity 10 times the unit price is more than 9007199254740991 cents, the largest amount oracle adds exactly',
      },
    ]);
  });

  it('a total past 2^53 cents is exit 2 naming the bound, not 1.000999999999992e+21', async () => {
    const path = join(dir, 'grail-total.csv');
    writeFileSync(
      path,
      'product_key,condition,quantity,cost_basis_minor\ngrail,ungraded,5,1\ngrail,ungraded,5,1\n',
    );
    const result = await runOracle(['--db', rich, 'value', path, '--at', AT]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("the collection's total is more than 9007199254740991 cents");
    expect(result.stdout).not.toMatch(/e\+/);
  });
});
