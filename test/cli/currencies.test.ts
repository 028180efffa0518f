/**
 * Currencies end to end (docs/methodology.md §16): the ECB's real rate files ingested like any
 * feed, observations in euros, yen and pounds converted to US cents at their own day's rate
 * (their own amounts kept exactly), `oracle price --currency` and the API's `currency=` beside
 * SPEC.md's US cents. Fixtures: test/fixtures/ecb (README.md there says where they were cut).
 */
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { runOracle } from '../_cli.js';
import { ROOT, tempDir } from '../_setup.js';
import { getJson, pricingPath, startServer } from '../http/_helpers.js';
import { writeFileSync } from 'node:fs';

const HISTORY = join(ROOT, 'test/fixtures/ecb/eurofxref-hist.csv');
const DAILY = join(ROOT, 'test/fixtures/ecb/eurofxref.csv');
const KEY = 'mtg-test-card';

let db: string;
let dir: string;

const oracle = (args: string[], input?: string) => runOracle(['--db', db, ...args], { input });

/** The observations table's own columns, oldest id first: what a reader of the database file sees. */
function rawObservations(): {
  source: string;
  price_minor: number;
  currency: string;
  amount_minor: number | null;
}[] {
  const file = new Database(db, { readonly: true });
  try {
    return file
      .prepare('SELECT source, price_minor, currency, amount_minor FROM observations ORDER BY id')
      .all() as never;
  } finally {
    file.close();
  }
}

const line = (fields: Record<string, string>) => JSON.stringify({ product_key: KEY, ...fields });

beforeEach(async () => {
  dir = tempDir('oracle-currencies-');
  db = join(dir, 'oracle.db');
  const catalog = join(dir, 'catalog.csv');
  writeFileSync(
    catalog,
    `product_key,product_name,set_name,release_date\n${KEY},Test Card,Test Set,2020-01-01\n`,
  );
  expect((await oracle(['ingest', '--kind', 'catalog', catalog])).code).toBe(0);
});

describe('the ECB rates feed', () => {
  it('ingests the history and the daily file, and a re-run adds nothing', async () => {
    const first = await oracle(['ingest', HISTORY, DAILY]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    // 19 days x 30 currencies quoted then (BGN until 2025-12-31), the 1999 days' 34, the daily file's 29.
    expect(first.stdout).toMatch(/eurofxref-hist\.csv: read 558, inserted 558, duplicates 0, rejected 0/);
    expect(first.stdout).toMatch(/eurofxref\.csv: read 29, inserted 29, duplicates 0, rejected 0/);
    const again = await oracle(['ingest', HISTORY]);
    expect(again.stdout).toMatch(/read 558, inserted 0, duplicates 558, rejected 0/);
  });

  it('reads a file of another name with --format ecb-rates, and rejects a bad row naming it', async () => {
    const file = join(dir, 'rates.csv');
    writeFileSync(file, 'Date,USD,JPY,\n2026-01-05,1.1664,182.93,\n2026-01-06,1.17x,183.14,\n');
    const run = await oracle(['ingest', '--format', 'ecb-rates', '--max-rejects', '1', file]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/read 3, inserted 2, duplicates 0, rejected 1/);
    const strict = await oracle(['ingest', '--format', 'ecb-rates', file]);
    expect(strict.code).toBe(3);
    expect(strict.stderr).toMatch(/rates\.csv:3: .*USD: not a rate .*"1\.17x"/);
  });
});

describe('observations in other currencies', () => {
  const observations = [
    line({ source: 'cardmarket', observed_at: '2025-12-26T10:00:00Z', price: '10.00', currency: 'EUR' }),
    line({ source: 'cardmarket', observed_at: '2025-12-23T10:00:00Z', price: '12.50', currency: 'eur' }),
    line({ source: 'tcgplayer', observed_at: '2025-12-23T11:00:00Z', price: '14.00' }),
    line({ source: 'shop', observed_at: '2025-12-23T11:00:00Z', price: '1500', currency: 'JPY' }),
  ].join('\n');

  it('are refused until the rates of their day are stored, naming the command that loads them', async () => {
    const run = await oracle(['ingest', '-'], observations);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(
      /no reference rate for EUR on 2025-12-26 or the 7 days before: ingest the ECB rates first \(oracle ingest eurofxref-hist\.csv/,
    );
  });

  it('are stored in US cents at their own day`s rate, their own amount and currency kept exactly', async () => {
    await oracle(['ingest', HISTORY]);
    const run = await oracle(['ingest', '-'], observations);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/read 4, inserted 4/);
    expect(rawObservations()).toEqual([
      // 10 EUR on Friday 26 December (a holiday): 24 December's 1.1787 -> $11.787
      { source: 'cardmarket', price_minor: 1179, currency: 'EUR', amount_minor: 1000 },
      // 12.50 EUR x 1.1786 = $14.7325
      { source: 'cardmarket', price_minor: 1473, currency: 'EUR', amount_minor: 1250 },
      { source: 'tcgplayer', price_minor: 1400, currency: 'USD', amount_minor: null },
      // 1500 JPY / 183.89 x 1.1786 = $9.6139
      { source: 'shop', price_minor: 961, currency: 'JPY', amount_minor: 1500 },
    ]);
    expect((await oracle(['ingest', '-'], observations)).stdout).toMatch(/inserted 0, duplicates 4/);
  });

  it('are refused with a JPY price in fractions, or an amount that is no currency code', async () => {
    await oracle(['ingest', HISTORY]);
    const bad = [
      line({ source: 'shop', observed_at: '2025-12-23T11:00:00Z', price: '1500.5', currency: 'JPY' }),
      line({ source: 'shop', observed_at: '2025-12-23T11:00:00Z', price: '15', currency: 'euro' }),
    ].join('\n');
    const run = await oracle(['ingest', '--max-rejects', '5', '--rejects', join(dir, 'r.ndjson'), '-'], bad);
    expect(run.stdout).toMatch(/inserted 0, duplicates 0, rejected 2/);
  });
});

describe('prices in another currency', () => {
  beforeEach(async () => {
    await oracle(['ingest', HISTORY]);
    const observations = [
      line({ source: 'cardmarket', observed_at: '2025-12-26T10:00:00Z', price: '10.00', currency: 'EUR' }),
      line({ source: 'cardmarket', observed_at: '2025-12-23T10:00:00Z', price: '10.00', currency: 'EUR' }),
      line({ source: 'cardmarket', observed_at: '2025-12-24T10:00:00Z', price: '10.00', currency: 'EUR' }),
    ].join('\n');
    expect((await oracle(['ingest', '-'], observations)).code).toBe(0);
  });

  it('oracle price --currency EUR: the US cents unchanged, the euro figures beside them with the rate days', async () => {
    const usd = JSON.parse((await oracle(['price', KEY, '--at', '2025-12-27', '--json'])).stdout);
    const run = await oracle(['price', KEY, '--at', '2025-12-27', '--currency', 'eur', '--json']);
    expect(run.code).toBe(0);
    const eur = JSON.parse(run.stdout);
    expect(eur.ungraded.price_minor).toBe(usd.ungraded.price_minor);
    expect(eur.ungraded.currency).toBe('USD');
    // Every observation was 10.00 EUR: converted back at its own day's rate, exactly 10.00.
    expect(eur.ungraded.meta.converted).toEqual({
      currency: 'EUR',
      price_minor: 1000,
      low_minor: expect.any(Number),
      high_minor: expect.any(Number),
      rate_source: 'ecb',
      rate_dates: { first: '2025-12-23', last: '2025-12-24' },
    });
    expect(usd.ungraded.meta.converted).toBeUndefined();
    const text = await oracle(['price', KEY, '--at', '2025-12-27', '--currency', 'EUR']);
    expect(text.stdout).toMatch(/in EUR: €10\.00 .*ECB reference rates of 2025-12-23 to\s+2025-12-24/s);
  });

  it('GBP: each point within a penny of its amount x that day`s rate', async () => {
    const run = await oracle(['price', KEY, '--at', '2025-12-27', '--currency', 'GBP', '--json']);
    const converted = JSON.parse(run.stdout).ungraded.meta.converted;
    // 10 EUR at 0.8729 (23rd, 24th, and the 24th's for the 26th): 8.729 GBP each.
    expect(Math.abs(converted.price_minor - 872.9)).toBeLessThanOrEqual(1);
  });

  it('a currency without rates is a usage error naming the currencies that have them', async () => {
    const run = await oracle(['price', KEY, '--at', '2025-12-27', '--currency', 'XYZ']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /currency XYZ: no reference rate is stored for it; .* which quote AUD, .*USD, ZAR/,
    );
    const malformed = await oracle(['price', KEY, '--currency', 'euro']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/--currency must be an ISO 4217 currency code/);
  });

  it('the API: currency= adds meta.converted and keeps SPEC.md`s USD body; an unknown currency is a 400', async () => {
    const server = await startServer({ dbPath: db });
    try {
      const base = `${server.url}${pricingPath(KEY, '?at=2025-12-27')}`;
      const plain = await getJson(base, { authorization: 'Bearer ork_test-env-key-0123456789abcdef' });
      const response = await fetch(`${base}&currency=eur`, {
        headers: { authorization: 'Bearer ork_test-env-key-0123456789abcdef' },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        ungraded: { price_minor: number; currency: string; meta: { converted: { price_minor: number } } };
      };
      expect(body.ungraded.price_minor).toBe(plain.ungraded.price_minor);
      expect(body.ungraded.currency).toBe('USD');
      expect(body.ungraded.meta.converted.price_minor).toBe(1000);
      expect(plain.ungraded.meta.converted).toBeUndefined();
      const unknown = await fetch(`${base}&currency=XYZ`, {
        headers: { authorization: 'Bearer ork_test-env-key-0123456789abcdef' },
      });
      expect(unknown.status).toBe(400);
      expect(((await unknown.json()) as { detail: string }).detail).toMatch(
        /currency XYZ: no reference rate/,
      );
    } finally {
      await server.close();
    }
  });
});
