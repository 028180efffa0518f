// @module-tag sqlite-only: a format's parser: no store
/** tcgcsv's groups, catalog rows, prices dates and response envelope, on the real fixtures of test/fixtures/tcgcsv. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/domain/errors.js';
import {
  createTcgcsvKeyAllocator,
  mapTcgcsvProduct,
  sealedKind,
  tcgcsvKeySlug,
} from '../../../src/ingest/formats/tcgcsv-catalog.js';
import { parseTcgcsvGroups } from '../../../src/ingest/formats/tcgcsv-groups.js';
import { pricesObservedAt } from '../../../src/ingest/formats/tcgplayer-prices.js';
import { tcgcsvQuoteTime } from '../../../src/ingest/formats/tcgplayer.js';
import { RowRejection } from '../../../src/ingest/formats/types.js';
import { JsonResultsReader } from '../../../src/ingest/read/json-results.js';
import { ROOT } from '../../_setup.js';

const FIXTURES = join(ROOT, 'test/fixtures/tcgcsv');
const read = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

describe('parseTcgcsvGroups', () => {
  it('reads Groups.csv (CRLF, True/False, dates with a time) by column name', () => {
    const groups = parseTcgcsvGroups(read('pokemon-Groups.csv'), 'Groups.csv');
    expect(groups.size).toBe(34);
    expect(groups.get('604')).toEqual({
      groupId: '604',
      name: 'Base Set',
      releaseDate: '1999-01-09',
      releaseProblem: null,
      categoryId: '3',
    });
    expect(groups.get('23237')).toMatchObject({
      name: 'SV: Scarlet & Violet 151',
      releaseDate: '2023-09-22',
    });
  });

  it('reads the groups JSON, its names unescaped (\\u0026 is &)', () => {
    const groups = parseTcgcsvGroups(read('pokemon-groups.first-63.json'), 'groups.json');
    expect(groups.size).toBe(63);
    expect(groups.get('23237')).toMatchObject({
      name: 'SV: Scarlet & Violet 151',
      releaseDate: '2023-09-22',
      categoryId: '3',
    });
  });

  it('keeps a date that does not exist as the reason to reject its products, never shifting it', () => {
    const groups = parseTcgcsvGroups(
      'groupId,name,publishedOn\r\n1,Odd Set,2023-02-30T00:00:00\r\n',
      'g.csv',
    );
    expect(groups.get('1')).toMatchObject({
      releaseDate: null,
      releaseProblem: expect.stringMatching(/^publishedOn "2023-02-30T00:00:00": /),
    });
  });

  it('refuses a file that is no groups file, naming it', () => {
    expect(() => parseTcgcsvGroups('productId,name\n1,x\n', 'p.csv')).toThrow(
      /p\.csv:1: not a tcgcsv groups file: it has productId/,
    );
    expect(() => parseTcgcsvGroups('groupId,name\n604,Base Set\n', 'g.csv')).toThrow(
      /g\.csv:1: not a tcgcsv groups file: the header lacks publishedOn/,
    );
    // The header of the real ProductsAndPrices.csv, which has groupId and name too.
    expect(() => parseTcgcsvGroups(read('pokemon-base-set-604.ProductsAndPrices.csv'), 'P.csv')).toThrow(
      /P\.csv:1: not a tcgcsv groups file: it has productId/,
    );
    expect(() => parseTcgcsvGroups('{"results": [{"groupId": 1, "name": "x"}]}', 'g.json')).toThrow(
      /g\.json:1: .*no publishedOn key/,
    );
    expect(() =>
      parseTcgcsvGroups(
        '{"results": [{"productId": 1, "groupId": 1, "name": "x", "publishedOn": ""}]}',
        'p.json',
      ),
    ).toThrow(/it has productId/);
    expect(() => parseTcgcsvGroups('{"success": true}', 'g.json')).toThrow(/no "results" array/);
  });
});

describe('tcgcsv catalog rows', () => {
  const groups = parseTcgcsvGroups(read('pokemon-Groups.csv'), 'Groups.csv');
  const row = (fields: Record<string, string>) => ({
    productId: '42382',
    name: 'Charizard',
    groupId: '604',
    categoryId: '3',
    extNumber: '004/102',
    extRarity: 'Holo Rare',
    subTypeName: 'Holofoil',
    ...fields,
  });

  it('slugs set, name and number, the number once when the name has it, the printing only when not regular', () => {
    expect(tcgcsvKeySlug('Base Set', 'Charizard', '004/102', 'Holofoil', null)).toBe(
      'base-set-charizard-004-102',
    );
    expect(
      tcgcsvKeySlug('SV: Scarlet & Violet 151', 'Zapdos - 145/165', '145/165', 'Reverse Holofoil', null),
    ).toBe('sv-scarlet-and-violet-151-zapdos-145-165-reverse-holofoil');
    expect(tcgcsvKeySlug('SV2a: Pokemon Card 151', 'Mew ex', '151/165', 'Holofoil', 'Japanese')).toBe(
      'japanese-sv2a-pokemon-card-151-mew-ex-151-165',
    );
  });

  it('names Pokemon Japan (category 85) cards Japanese', () => {
    const product = mapTcgcsvProduct(row({ categoryId: '85' }), groups, createTcgcsvKeyAllocator());
    expect(product).toMatchObject({
      language: 'Japanese',
      product_key: 'japanese-base-set-charizard-004-102',
    });
    expect(mapTcgcsvProduct(row({}), groups, createTcgcsvKeyAllocator()).language).toBeNull();
  });

  it('gives a second regular printing of one productId its printing in the key, and another productId its id', () => {
    const allocate = createTcgcsvKeyAllocator();
    expect(mapTcgcsvProduct(row({ subTypeName: 'Normal' }), groups, allocate).product_key).toBe(
      'base-set-charizard-004-102',
    );
    expect(mapTcgcsvProduct(row({ subTypeName: 'Holofoil' }), groups, allocate).product_key).toBe(
      'base-set-charizard-004-102-holofoil',
    );
    expect(
      mapTcgcsvProduct(row({ productId: '99', subTypeName: 'Normal' }), groups, allocate).product_key,
    ).toBe('base-set-charizard-004-102-99');
    // The same row again keeps its key.
    expect(mapTcgcsvProduct(row({ subTypeName: 'Normal' }), groups, allocate).product_key).toBe(
      'base-set-charizard-004-102',
    );
  });

  it('rejects a row whose group the file lacks or has no date for', () => {
    expect(() => mapTcgcsvProduct(row({ groupId: '1' }), groups, createTcgcsvKeyAllocator())).toThrow(
      RowRejection,
    );
    const undated = parseTcgcsvGroups('groupId,name,publishedOn\n604,Base Set,\n', 'g.csv');
    expect(() => mapTcgcsvProduct(row({}), undated, createTcgcsvKeyAllocator())).toThrow(
      /no publishedOn date, so the era/,
    );
  });

  it.each([
    ['Base Set Booster Box [Revised Unlimited Edition]', 'Booster Box'],
    ['Scarlet & Violet 151 Booster Display Case', 'Booster Box Case'],
    ['Base Set Booster Pack [Revised Unlimited Edition]', 'Booster Pack'],
    ['Base Set Theme Deck - "Zap!" (Revised Base Set Reprint Run)', 'Theme Deck'],
    ['Pokemon 2-Player Starter Set (Revised Base Set Reprint Run)', 'Starter Set'],
    ['Scarlet & Violet 151 Elite Trainer Box', 'Elite Trainer Box'],
    ['Mystery Thing', 'Sealed product'],
  ])('calls %s a %s', (name, kind) => {
    expect(sealedKind(name)).toBe(kind);
  });
});

describe('pricesObservedAt', () => {
  const now = Date.UTC(2026, 10, 27, 9);
  it.each([
    ['archive/2025-10-20/3/604/prices', '2025-10-20T20:00:00.000Z'],
    ['pokemon-sv151-23237.prices.2025-09-21.json', '2025-09-21T20:00:00.000Z'],
    ['https://example.org/2024-02-29/3/604/prices', '2024-02-29T20:00:00.000Z'],
    ['prices', '2026-11-26T20:00:00.000Z'], // no date: the latest 20:00Z at or before now
  ])('dates %s at %s', (source, expected) => {
    expect(pricesObservedAt({ source, observedAt: undefined, now })).toBe(expected);
  });

  it('prefers --observed-at, and refuses a date in the path that does not exist', () => {
    expect(
      pricesObservedAt({ source: '2025-10-20/3/604/prices', observedAt: Date.UTC(2025, 0, 1), now }),
    ).toBe('2025-01-01T00:00:00.000Z');
    expect(() => pricesObservedAt({ source: '2025-02-30/3/604/prices', observedAt: undefined, now })).toThrow(
      InputError,
    );
  });

  it("refuses today's date before its 20:00Z, naming the path's date and --observed-at", () => {
    expect(() =>
      pricesObservedAt({ source: 'archive/2026-11-27/3/604/prices', observedAt: undefined, now }),
    ).toThrow(
      /the date 2026-11-27 in the path dates these prices 2026-11-27T20:00:00Z, which is in the future.*--observed-at/,
    );
    expect(
      pricesObservedAt({
        source: 'archive/2026-11-27/3/604/prices',
        observedAt: undefined,
        now: Date.UTC(2026, 10, 27, 20),
      }),
    ).toBe('2026-11-27T20:00:00.000Z');
  });
});

describe('tcgcsvQuoteTime', () => {
  it.each([
    [Date.UTC(2026, 10, 27, 9), '2026-11-26T20:00:00.000Z'],
    [Date.UTC(2026, 10, 27, 20), '2026-11-27T20:00:00.000Z'],
    [Date.UTC(2026, 10, 27, 23, 59), '2026-11-27T20:00:00.000Z'],
    [Date.UTC(2026, 0, 1, 0), '2025-12-31T20:00:00.000Z'],
  ])('dates a quote read at %s at %s', (now, expected) => {
    expect(tcgcsvQuoteTime({ observedAt: undefined, now })).toBe(expected);
  });

  it('takes --observed-at', () => {
    expect(tcgcsvQuoteTime({ observedAt: Date.UTC(2025, 0, 1), now: Date.UTC(2026, 0, 1) })).toBe(
      '2025-01-01T00:00:00.000Z',
    );
  });
});

describe('JsonResultsReader', () => {
  const text = read('archive/2025-10-20/3/604/prices');
  const expected = (JSON.parse(text) as { results: unknown[] }).results;

  function readAll(chunks: string[]): { values: unknown[]; keys: string[] } {
    const values: unknown[] = [];
    const keys: string[] = [];
    const reader = new JsonResultsReader(
      'prices',
      { value: (v) => values.push(v), invalid: (line, reason) => values.push({ invalid: reason }) },
      (key) => keys.push(key),
    );
    for (const chunk of chunks) reader.push(chunk);
    reader.end();
    return { values, keys };
  }

  it('hands on every result, whatever the chunks the text arrives in', () => {
    expect(readAll([text])).toEqual({ values: expected, keys: ['success', 'errors'] });
    for (const size of [1, 7, 64, 1000]) {
      const chunks = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
      expect(readAll(chunks).values).toEqual(expected);
    }
  });

  it('reads keys after the results too, and stops at a truncated or envelope-less file', () => {
    expect(readAll(['{"results": [{"a": 1}], "totalItems": 1}'])).toEqual({
      values: [{ a: 1 }],
      keys: ['totalItems'],
    });
    expect(() => readAll([text.slice(0, -2)])).toThrow(/not closed/);
    expect(() => readAll(['{"success": true, "errors": []}'])).toThrow(/no "results" array/);
  });
});
