/**
 * `--currency` beyond `price` (issue 33, item 3): `snapshot` and `history` take it as `price`
 * does, through the same service path (service/currency.ts), showing the figures in that
 * currency and the rate dates beside SPEC.md's US cents. Three 10.00 EUR observations convert
 * back to exactly €10.00 at their own days' rates (the ECB fixture of test/fixtures/ecb).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runOracle } from '../_cli.js';
import { ROOT, tempDir } from '../_setup.js';
import { getJson, pricingPath, startServer } from '../http/_helpers.js';
import { salesResponse } from '../../src/http/schemas.js';
import { valueResponse } from '../../src/http/value-schemas.js';

const HISTORY = join(ROOT, 'test/fixtures/ecb/eurofxref-hist.csv');
const KEY = 'mtg-test-card';
const REFSOURCE = '4242';

let db: string;
const oracle = (args: string[], input?: string) => runOracle(['--db', db, ...args], { input });

beforeEach(async () => {
  const dir = tempDir('oracle-currency-commands-');
  db = join(dir, 'oracle.db');
  const catalog = join(dir, 'catalog.csv');
  writeFileSync(
    catalog,
    `product_key,refsource_id,product_name,set_name,release_date\n${KEY},${REFSOURCE},Test Card,Test Set,2020-01-01\n`,
  );
  expect((await oracle(['ingest', '--kind', 'catalog', catalog])).code).toBe(0);
  expect((await oracle(['ingest', HISTORY])).code).toBe(0);
  const observations = ['2025-12-23', '2025-12-24', '2025-12-26']
    .map((day) =>
      JSON.stringify({
        product_key: KEY,
        source: 'cardmarket',
        observed_at: `${day}T10:00:00Z`,
        price: '10.00',
        currency: 'EUR',
      }),
    )
    .join('\n');
  expect((await oracle(['ingest', '-'], observations)).code).toBe(0);
});

describe('oracle snapshot --currency', () => {
  it('adds the day`s figures in euros and their rate day beside the unchanged US cents', async () => {
    const args = ['snapshot', REFSOURCE, '--date', '2025-12-24'];
    const usd = JSON.parse((await oracle([...args, '--json'])).stdout);
    const run = await oracle([...args, '--currency', 'eur', '--json']);
    expect(run.code).toBe(0);
    const eur = JSON.parse(run.stdout);
    expect(eur.ungraded.price_minor).toBe(usd.ungraded.price_minor);
    expect(eur.ungraded.currency).toBe('USD');
    expect(eur.ungraded.meta.converted).toMatchObject({
      currency: 'EUR',
      price_minor: 1000,
      rate_source: 'ecb',
      // The points the pricing read, the day before's included (as `price` reads them).
      rate_dates: { first: '2025-12-23', last: '2025-12-24' },
    });
    expect(usd.ungraded.meta.converted).toBeUndefined();
    const text = await oracle([...args, '--currency', 'EUR']);
    expect(text.stdout).toMatch(/in EUR: €10\.00 .*ECB reference rates of 2025-12-23 to\s+2025-12-24/s);
  });

  it('refuses a currency without stored rates, naming those that have them', async () => {
    const run = await oracle(['snapshot', REFSOURCE, '--date', '2025-12-24', '--currency', 'XYZ']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/currency XYZ: no reference rate is stored for it/);
  });
});

describe('oracle history --currency', () => {
  const args = [
    'history',
    KEY,
    '--slots',
    'ungraded',
    '--from',
    '2025-12-24T12:00:00Z',
    '--to',
    '2025-12-27T12:00:00Z',
    '--every',
    '1d',
  ];

  it('gives each point`s figures in euros beside its US cents, and the last one with its rate days', async () => {
    const usd = JSON.parse((await oracle([...args, '--json'])).stdout);
    const run = await oracle([...args, '--currency', 'EUR', '--json']);
    expect(run.code).toBe(0);
    const eur = JSON.parse(run.stdout);
    expect(eur.points.map((p: { ungraded: { price_minor: number } }) => p.ungraded.price_minor)).toEqual(
      usd.points.map((p: { ungraded: { price_minor: number } }) => p.ungraded.price_minor),
    );
    const last = eur.points.at(-1).ungraded;
    expect(last.converted).toMatchObject({ currency: 'EUR', price_minor: 1000, rate_source: 'ecb' });
    expect(usd.points.at(-1).ungraded.converted).toBeUndefined();
    const text = await oracle([...args, '--currency', 'EUR']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/last in EUR: €10\.00.*ECB reference rates of 2025-12-2\d/s);
  });
});

describe('oracle explain --currency', () => {
  it('adds the slot`s figures in euros with their rate days, its US cents and points unchanged', async () => {
    const args = ['explain', KEY, '--slot', 'ungraded', '--at', '2025-12-27'];
    const usd = JSON.parse((await oracle([...args, '--json'])).stdout);
    const run = await oracle([...args, '--currency', 'EUR', '--json']);
    expect(run.code).toBe(0);
    const eur = JSON.parse(run.stdout);
    expect(eur.price_minor).toBe(usd.price_minor);
    expect(eur.points).toEqual(usd.points);
    expect(eur.converted).toMatchObject({
      currency: 'EUR',
      price_minor: 1000,
      rate_source: 'ecb',
      rate_dates: { first: '2025-12-23', last: '2025-12-24' },
    });
    expect(usd.converted).toBeUndefined();
    const text = await oracle([...args, '--currency', 'EUR']);
    expect(text.stdout).toMatch(/^in EUR: €10\.00 .*ECB reference rates of 2025-12-23 to\s+2025-12-24/ms);
  });
});

describe('oracle value --currency', () => {
  const collection = () => {
    const file = join(tempDir('oracle-currency-value-'), 'cards.csv');
    writeFileSync(file, `product_key,condition,quantity,cost_basis\n${KEY},ungraded,3,$20.00\n`);
    return file;
  };

  it('gives each line and the total in euros with their rate days, the US cents and gain unchanged', async () => {
    const args = ['value', collection(), '--at', '2025-12-27'];
    const usd = JSON.parse((await oracle([...args, '--json'])).stdout);
    const run = await oracle([...args, '--currency', 'EUR', '--json']);
    expect(run.code).toBe(0);
    const eur = JSON.parse(run.stdout);
    expect(eur.lines[0].subtotal_minor).toBe(usd.lines[0].subtotal_minor);
    expect(eur.total.gain_minor).toBe(usd.total.gain_minor);
    const dates = { first: '2025-12-23', last: '2025-12-24' };
    expect(eur.lines[0].converted).toMatchObject({
      unit_price_minor: 1000,
      subtotal_minor: 3000,
      rate_dates: dates,
    });
    expect(eur.total.converted).toMatchObject({
      currency: 'EUR',
      value_minor: 3000,
      rate_source: 'ecb',
      rate_dates: dates,
    });
    expect(usd.lines[0].converted).toBeUndefined();
    expect(usd.total.converted).toBeUndefined();
    const text = await oracle([...args, '--currency', 'EUR']);
    expect(text.stdout).toMatch(/in EUR/);
    expect(text.stdout).toMatch(/\$35\.37\s+€30\.00\s+\+\$15\.37/);
    expect(text.stdout).toMatch(
      /total in EUR: €30\.00 .*ECB reference rates of 2025-12-23\s+to\s+2025-12-24/s,
    );
  });

  it('refuses --currency with --history rather than show dollars', async () => {
    const run = await oracle(['value', collection(), '--history', '--currency', 'EUR']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--currency.*--history/);
  });
});

describe('oracle sales --currency', () => {
  it('gives each sale in euros at its own day`s rate beside its unchanged US cents', async () => {
    const args = ['sales', KEY, '--at', '2025-12-27'];
    const usd = JSON.parse((await oracle([...args, '--json'])).stdout);
    const run = await oracle([...args, '--currency', 'EUR', '--json']);
    expect(run.code).toBe(0);
    const eur = JSON.parse(run.stdout);
    expect(eur.sales.map((s: { price_minor: number }) => s.price_minor)).toEqual(
      usd.sales.map((s: { price_minor: number }) => s.price_minor),
    );
    // Three 10.00 EUR observations, each back to exactly €10.00 at its own day's rate.
    expect(eur.sales.map((s: { converted_minor: number }) => s.converted_minor)).toEqual([1000, 1000, 1000]);
    expect(eur.converted).toEqual({
      currency: 'EUR',
      rate_source: 'ecb',
      rate_dates: { first: '2025-12-23', last: '2025-12-24' },
    });
    expect(usd.converted).toBeUndefined();
    const text = await oracle([...args, '--currency', 'EUR']);
    expect(text.stdout).toMatch(/in EUR: each sale .*ECB reference rates of 2025-12-23 to\s+2025-12-24/s);
    expect(text.stdout.match(/€10\.00/g)).toHaveLength(3);
  });
});

describe('oracle movers --currency', () => {
  it('gives each move in euros, each end at its observations` days` rates, ranked as in dollars', async () => {
    // 12.00 EUR before the span, 10.00 EUR in it: a loser, five observations in the span.
    const earlier = ['2025-12-15', '2025-12-16', '2025-12-17', '2025-12-18', '2025-12-19'].map((day) => [
      day,
      '12.00',
    ]);
    const later = ['2025-12-20', '2025-12-22'].map((day) => [day, '10.00']);
    const records = [...earlier, ...later]
      .map(([day, price]) =>
        JSON.stringify({
          product_key: KEY,
          source: 'cardmarket',
          observed_at: `${day}T10:00:00Z`,
          price,
          currency: 'EUR',
        }),
      )
      .join('\n');
    expect((await oracle(['ingest', '-'], records)).code).toBe(0);
    const args = ['movers', '--at', '2025-12-27', '--span', '8d'];
    const usd = JSON.parse((await oracle([...args, '--json'])).stdout);
    const run = await oracle([...args, '--currency', 'EUR', '--json']);
    expect(run.code).toBe(0);
    const eur = JSON.parse(run.stdout);
    expect(usd.losers).toHaveLength(1);
    expect(eur.losers[0]).toMatchObject({
      ...usd.losers[0],
      converted: { from_minor: 1200, to_minor: 1000 },
    });
    expect(eur.losers[0].converted.change_pct).toBe(-16.7);
    expect(eur.converted).toMatchObject({ currency: 'EUR', rate_source: 'ecb' });
    expect(usd.losers[0].converted).toBeUndefined();
    const text = await oracle([...args, '--currency', 'EUR']);
    expect(text.stdout).toMatch(/in EUR: .*ECB reference rates of 2025-12-/s);
    expect(text.stdout).toMatch(/€10\.00 -16\.7%/);
  });
});

describe('the sales, movers and value routes with currency=', () => {
  it('add the same figures as the commands, in their documented shapes, beside the unchanged US cents', async () => {
    const server = await startServer({ dbPath: db });
    const auth = { authorization: 'Bearer ork_test-env-key-0123456789abcdef' };
    try {
      const sales = await getJson(
        `${server.url}${pricingPath(KEY, '/sales?at=2025-12-27&currency=eur')}`,
        auth,
      );
      // The schema keeps only the keys it documents: the converted figures must be among them.
      expect(salesResponse.parse(sales)).toEqual(sales);
      expect(sales.sales.map((s: { converted_minor: number }) => s.converted_minor)).toEqual([
        1000, 1000, 1000,
      ]);
      expect(sales.converted.currency).toBe('EUR');
      const csv = encodeURIComponent(`product_key,condition,quantity\n${KEY},ungraded,2\n`);
      const value = await getJson(
        `${server.url}/api/v1/developer/value?csv=${csv}&at=2025-12-27&currency=EUR`,
        auth,
      );
      expect(valueResponse.parse(value)).toEqual(value);
      expect(value.total.converted).toMatchObject({ currency: 'EUR', value_minor: 2000 });
      const movers = await fetch(`${server.url}/api/v1/developer/movers?at=2025-12-27&currency=XYZ`, {
        headers: auth,
      });
      expect(movers.status).toBe(400);
      expect(((await movers.json()) as { detail: string }).detail).toMatch(/currency XYZ: no reference rate/);
    } finally {
      await server.close();
    }
  });
});
