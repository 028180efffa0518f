// @module-tag sqlite-only: the CLI's export formats; the export's PostgreSQL reads, page by page, are test/service/export.test.ts's
/** `oracle export` over a generated catalog of more products than one page; a closed pipe in a process of its own. */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../src/domain/product.js';
import { toIsoUtc } from '../../src/domain/time.js';
import { EXPORT_PAGE_SIZE } from '../../src/service/pricing.js';
import { runOracle } from '../_cli.js';
import { BIN, childEnv, databaseWith, tempDir } from '../_setup.js';

const HOUR = 3_600_000;
const AT_MS = Date.parse('2026-10-15T12:00:00Z');
const AT = toIsoUtc(AT_MS);
/** More than two pages of the export's product cursor. */
const PRODUCTS = 2 * EXPORT_PAGE_SIZE + 137;

const product = (i: number): Product => ({
  productKey: `card-${String(i).padStart(5, '0')}`,
  refsourceId: String(100_000 + i),
  productName: `Card ${i}`,
  subtitle: `${i}/999`,
  setName: i % 2 ? 'Odd Set' : 'Even, "Quoted" Set',
  imageUrl: '',
  productType: 'single_card',
  era: 'modern',
  releaseDate: null,
  tcgplayerId: null,
});

let dir: string;
let db: string;
const cli = (...args: string[]) => runOracle(['--db', db, 'export', ...args]);

beforeAll(async () => {
  dir = tempDir();
  const products = Array.from({ length: PRODUCTS }, (_, i) => product(i));
  // Every 100th product has a day of sales; the rest are unpriced.
  const rows = [];
  for (let i = 0; i < PRODUCTS; i += 100) {
    for (let h = 1; h <= 12; h++) {
      rows.push({
        productKey: products[i]!.productKey,
        source: 'ebay',
        observedAt: AT_MS - h * HOUR,
        priceMinor: 1_000 + i + h,
        grader: 'ungraded',
        grade: null,
        externalId: `${i}-${h}`,
      });
    }
  }
  db = await databaseWith(products, rows);
});

describe.concurrent('oracle export', () => {
  it('writes one NDJSON bundle per product, each the bundle oracle price gives by refsource id', async () => {
    const result = await cli('--at', AT);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(PRODUCTS);
    const bundles = lines.map((l) => JSON.parse(l));
    expect(new Set(bundles.map((b) => b.product_key)).size).toBe(PRODUCTS);
    for (const i of [0, 100, 1_100, 1_136]) {
      const single = await runOracle([
        '--db',
        db,
        'price',
        '--refsource',
        product(i).refsourceId!,
        '--at',
        AT,
        '--json',
      ]);
      expect(bundles.find((b) => b.product_key === product(i).productKey)).toEqual(JSON.parse(single.stdout));
    }
    expect(bundles.filter((b) => b.ungraded.price_minor !== null)).toHaveLength(Math.ceil(PRODUCTS / 100));
  });

  // One export of the whole catalog for both: the format and the destination are chosen apart.
  it('--format csv --out: a header and one row per product, every slot with price and interval, the file written whole with the count named; no .partial stays', async () => {
    const out = join(dir, 'prices.csv');
    const result = await cli('--at', AT, '--format', 'csv', '--out', out);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`exported ${PRODUCTS.toLocaleString('en-US')} products to ${out}\n`);
    expect(existsSync(`${out}.partial`)).toBe(false);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(PRODUCTS + 1);
    const header = lines[0]!.split(',');
    expect(header.slice(0, 6)).toEqual([
      'product_key',
      'refsource_id',
      'at',
      'ungraded_price_minor',
      'ungraded_low_minor',
      'ungraded_high_minor',
    ]);
    expect(header).toHaveLength(3 + 17 * 3);
    const first = lines[1]!.split(',');
    expect(first).toHaveLength(header.length);
    expect(first.slice(0, 3)).toEqual([product(0).productKey, product(0).refsourceId, AT]);
    expect(Number(first[3])).toBeGreaterThan(1_000);
  });

  it('exits 2 for a bad --format or --at, writing nothing', async () => {
    const out = join(dir, 'never.csv');
    const format = await cli('--format', 'xml', '--out', out);
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(
      /^oracle: option '--format <format>' argument 'xml' is invalid\. Allowed choices are ndjson, csv\.\n/,
    );
    const future = await cli('--at', toIsoUtc(Date.now() + 86_400_000), '--out', out);
    expect(future.code).toBe(2);
    expect(future.stderr).toMatch(/--at .*in the future/);
    expect(existsSync(out) || existsSync(`${out}.partial`)).toBe(false);
  });
});

describe('oracle export and its reader', () => {
  it('stops quietly with 141 when its reader closes the pipe (oracle export | head)', async () => {
    const child = spawn(process.execPath, [BIN, '--db', db, 'export', '--at', AT], {
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    // The reader goes away before the first bundle is written (head -c 0): every write after it fails with EPIPE.
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) =>
      child.on('close', (exitCode) => resolve(exitCode)),
    );
    expect(stderr).toBe('');
    expect(code).toBe(141);
  });
});
