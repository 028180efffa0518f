// @module-tag sqlite-only: a feed format read into a SQLite file and checked in its tables; its writes are the shared writer's, which test/ingest/pipeline.test.ts runs on both stores
/**
 * Scryfall's bulk cards file (`--format scryfall`, told by its first record without it) on the
 * first 10 cards of a real `default_cards` file (test/fixtures/scryfall, README.md there): a
 * product per finish, quotes per finish and currency dated by the file's own time, re-runs adding
 * nothing, and the rules for what the file does not say.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { runOracle } from '../../_cli.js';
import { ROOT, tempDir } from '../../_setup.js';

const CARDS = join(ROOT, 'test/fixtures/scryfall/default-cards.json');
const RATES = join(ROOT, 'test/fixtures/ecb/eurofxref-hist.csv');

let dir: string;
let db: string;
const oracle = (args: string[]) => runOracle(['--db', db, ...args]);

function rows<T>(sql: string): T[] {
  const file = new Database(db, { readonly: true });
  try {
    return file.prepare(sql).all() as T[];
  } finally {
    file.close();
  }
}

/** The fixture under the name Scryfall's download_uri gives it, stamped with `stamp`. */
function stamped(stamp: string): string {
  const file = join(dir, `default-cards-${stamp}.json`);
  copyFileSync(CARDS, file);
  return file;
}

beforeEach(() => {
  dir = tempDir('oracle-scryfall-');
  db = join(dir, 'oracle.db');
});

describe('oracle ingest --kind catalog <Scryfall bulk file>', () => {
  it('makes one product per card and finish, keyed by set, name and number, with its TCGplayer id and printing', async () => {
    const run = await oracle(['ingest', '--kind', 'catalog', CARDS]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // 10 cards: 6 in nonfoil and foil, 4 in nonfoil alone.
    expect(run.stdout).toMatch(/read 16, inserted 16, updated 0, duplicates 0, rejected 0/);
    const products = rows<Record<string, unknown>>(
      "SELECT product_key, product_name, set_name, subtitle, era, release_date, tcgplayer_id, printing, language FROM products WHERE product_name IN ('Fury Sliver', 'Web') ORDER BY product_key",
    );
    expect(products).toEqual([
      {
        product_key: 'revised-edition-web-229',
        product_name: 'Web',
        set_name: 'Revised Edition',
        subtitle: '229 rare',
        era: 'vintage',
        release_date: '1994-04-01',
        tcgplayer_id: '1623',
        printing: 'Normal',
        language: null,
      },
      expect.objectContaining({
        product_key: 'time-spiral-fury-sliver-157',
        era: 'modern',
        tcgplayer_id: '14240',
        printing: 'Normal',
      }),
      expect.objectContaining({
        product_key: 'time-spiral-fury-sliver-157-foil',
        subtitle: '157 uncommon',
        tcgplayer_id: '14240',
        printing: 'Foil',
      }),
    ]);
    const again = await oracle(['ingest', '--kind', 'catalog', CARDS]);
    expect(again.stdout).toMatch(/read 16, inserted 0, updated 0, duplicates 16/);
  });

  it("keeps each finish's Scryfall id and Cardmarket id in the identity crosswalk", async () => {
    await oracle(['ingest', '--kind', 'catalog', CARDS]);
    expect(
      rows(
        "SELECT p.product_key, i.scheme, i.value FROM product_identities i JOIN products p ON p.id = i.product_id WHERE p.product_name IN ('Fury Sliver', 'Spirit') ORDER BY p.product_key, i.scheme",
      ),
    ).toEqual([
      {
        product_key: 'modern-masters-2015-tokens-spirit-5',
        scheme: 'scryfall',
        value: '0000a54c-a511-4925-92dc-01b937f9afad',
      },
      { product_key: 'time-spiral-fury-sliver-157', scheme: 'cardmarket', value: '13850' },
      {
        product_key: 'time-spiral-fury-sliver-157',
        scheme: 'scryfall',
        value: '0000579f-7b35-4ed3-b44c-db2a538066fe',
      },
      { product_key: 'time-spiral-fury-sliver-157-foil', scheme: 'cardmarket', value: '13850:foil' },
      {
        product_key: 'time-spiral-fury-sliver-157-foil',
        scheme: 'scryfall',
        value: '0000579f-7b35-4ed3-b44c-db2a538066fe:foil',
      },
    ]);
  });

  it('rejects a card whose Scryfall id another product already holds, changing neither', async () => {
    await oracle(['ingest', '--kind', 'catalog', CARDS]);
    const cards = JSON.parse(readFileSync(CARDS, 'utf8')) as Record<string, unknown>[];
    // The same Scryfall id under another collector number: a wrong mapping, never a second product.
    const file = join(dir, 'moved.json');
    writeFileSync(file, JSON.stringify([{ ...cards[0], collector_number: '999', finishes: ['nonfoil'] }]));
    const run = await oracle(['ingest', '--kind', 'catalog', '--max-rejects', '5', file]);
    expect(run.stdout).toMatch(/inserted 0, .*rejected 1/);
    expect(
      rows("SELECT product_key FROM products WHERE product_key LIKE 'time-spiral-fury-sliver-999%'"),
    ).toEqual([]);
  });

  it('keys another language by its name, an etched foil on its own TCGplayer id, and skips digital cards', async () => {
    const cards = JSON.parse(readFileSync(CARDS, 'utf8')) as Record<string, unknown>[];
    const fury = cards[0]!;
    const derived = [
      { ...fury, id: 'x-ja', lang: 'ja' },
      { ...fury, id: 'x-etched', collector_number: '157e', finishes: ['etched'], tcgplayer_etched_id: 99 },
      { ...fury, id: 'x-arena', collector_number: 'A-157', digital: true },
      { ...fury, id: 'x-bad', collector_number: '158', finishes: ['glossy'] },
    ];
    const file = join(dir, 'derived.json');
    writeFileSync(file, JSON.stringify(derived));
    const run = await oracle(['ingest', '--kind', 'catalog', '--max-rejects', '1', file]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/inserted 3, .*rejected 1, skipped 1 \(digital card 1\)/);
    expect(
      rows<Record<string, unknown>>('SELECT product_key, tcgplayer_id, printing, language FROM products'),
    ).toEqual(
      expect.arrayContaining([
        {
          product_key: 'japanese-time-spiral-fury-sliver-157',
          tcgplayer_id: '14240',
          printing: 'Normal',
          language: 'Japanese',
        },
        {
          product_key: 'time-spiral-fury-sliver-157e-etched',
          tcgplayer_id: '99',
          printing: 'Etched',
          language: null,
        },
      ]),
    );
    const strict = await oracle(['ingest', '--kind', 'catalog', file]);
    expect(strict.stderr).toMatch(/finishes: "glossy" is not nonfoil, foil or etched/);
  });
});

describe('oracle ingest <Scryfall bulk file>: prices', () => {
  beforeEach(async () => {
    expect((await oracle(['ingest', '--kind', 'catalog', CARDS])).code).toBe(0);
    expect((await oracle(['ingest', RATES])).code).toBe(0);
  });

  it("stores each finish's USD and EUR price as TCGplayer's and Cardmarket's quotes at the file's own time, once", async () => {
    const file = stamped('20260105091012');
    const run = await oracle(['ingest', file]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // 32 price fields of the cards' finishes; Spirit has no euro price, Surge of Brilliance no foil euro price.
    expect(run.stdout).toMatch(/read 32, inserted 30, duplicates 0, rejected 0, skipped 2 \(blank price 2\)/);
    const fury = rows<Record<string, unknown>>(
      "SELECT p.product_key, o.source, o.observed_at, o.currency, o.amount_minor, o.price_minor, o.grader FROM observations o JOIN products p ON p.id = o.product_id WHERE p.product_key LIKE 'time-spiral-fury-sliver%' ORDER BY p.product_key, o.source",
    );
    const at = Date.parse('2026-01-05T09:10:12Z');
    expect(fury).toEqual([
      // 0.10 EUR at 5 January's 1.1664 USD a euro: $0.117
      {
        product_key: 'time-spiral-fury-sliver-157',
        source: 'cardmarket',
        observed_at: at,
        currency: 'EUR',
        amount_minor: 10,
        price_minor: 12,
        grader: 'ungraded',
      },
      expect.objectContaining({ source: 'tcgplayer', currency: 'USD', price_minor: 44 }),
      expect.objectContaining({ source: 'cardmarket', currency: 'EUR', amount_minor: 25 }),
      expect.objectContaining({
        product_key: 'time-spiral-fury-sliver-157-foil',
        source: 'tcgplayer',
        price_minor: 448,
      }),
    ]);
    const again = await oracle(['ingest', file]);
    expect(again.stdout).toMatch(/read 32, inserted 0, duplicates 30/);
  });

  it('is never dated today: a file without its stamped name needs --observed-at', async () => {
    const run = await oracle(['ingest', CARDS]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Scryfall's cards carry no date of their own: give --observed-at/);
    const given = await oracle(['ingest', '--observed-at', '2026-01-06T09:00:00Z', CARDS]);
    expect(given.stdout).toMatch(/inserted 30/);
    expect(rows<{ n: number }>('SELECT COUNT(DISTINCT observed_at) AS n FROM observations')).toEqual([
      { n: 1 },
    ]);
  });

  it('refuses a stamp in the future or one that is no real time', async () => {
    const future = await oracle(['ingest', stamped('20990105091012')]);
    expect(future.code).toBe(2);
    expect(future.stderr).toMatch(/the time in the file name 2099-01-05T09:10:12Z is in the future/);
    const bad = await oracle(['ingest', stamped('20260230091012')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no real time/);
  });
});

it('prices before their catalog store nothing and fail, naming --kind catalog', async () => {
  await oracle(['ingest', RATES]);
  const run = await oracle(['ingest', stamped('20260105091012')]);
  expect(run.code).not.toBe(0);
  expect(run.stderr).toMatch(/--kind catalog/);
});
