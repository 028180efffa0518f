/**
 * Hostile data in the catalog (issue 24): keys and names a spreadsheet would evaluate as a
 * formula reach every CSV the CLI writes inert, and raw in --json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CsvParser } from '../../src/domain/csv.js';
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
  const products = FORMULAS.map((key, i) => testProduct({ productKey: key, refsourceId: String(500 + i), productName: `Card ${i}` }));
  const rows = FORMULAS.flatMap((key, i) =>
    [1, 2, 3].map((h) => ({ productKey: key, source: 'ebay', observedAt: AT_MS - h * HOUR, priceMinor: 1_000 + h, grader: 'ungraded', grade: null, externalId: `${i}-${h}` })),
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
    writeFileSync(collection, `product_key,condition,quantity,cost_basis_minor\n"${FORMULAS[0]!.replaceAll('"', '""')}",ungraded,1,100000\n`);
    const csv = await cli('value', collection, '--at', AT, '--csv');
    expect(csv.stderr).toBe('');
    const [head, line] = parseCsv(csv.stdout);
    expect(line![head!.indexOf('product_key')]).toBe(`'${FORMULAS[0]}`);
    expect(line![head!.indexOf('gain_minor')]).toMatch(/^-\d+$/);
    const json = JSON.parse((await cli('value', collection, '--at', AT, '--json')).stdout);
    expect(json.lines[0].product_key).toBe(FORMULAS[0]);
  });
});
