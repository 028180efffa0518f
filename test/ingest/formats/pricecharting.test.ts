// @module-tag sqlite-only: a format's parser: no store
import { describe, expect, it } from 'vitest';
import {
  createProductKeyAllocator,
  isPriceChartingHeader,
  mapPriceChartingProduct,
  mapPriceChartingRow,
  nonCardCategory,
  priceCents,
  printingFor,
  productKeyFor,
  productTypeFor,
  salesVolumeOf,
} from '../../../src/ingest/formats/pricecharting.js';
import { eraFor, slugify } from '../../../src/ingest/formats/product-naming.js';
import { RowRejection } from '../../../src/ingest/formats/types.js';

const OLD_HEADER =
  'id,console-name,product-name,loose-price,cib-price,new-price,graded-price,box-only-price,manual-only-price,bgs-10-price,condition-17-price,condition-18-price,gamestop-price,gamestop-trade-price,retail-loose-buy,retail-loose-sell,retail-cib-buy,retail-cib-sell,retail-new-buy,retail-new-sell,upc,sales-volume,genre,tcg-id,asin,epid,release-date'.split(
    ',',
  );
const NEW_HEADER =
  'id,console-name,product-name,loose-price,cib-price,new-price,graded-price,box-only-price,manual-only-price,bgs-10-price,condition-9-price,condition-10-price,condition-13-price,condition-14-price,condition-15-price,condition-16-price,condition-17-price,condition-18-price,condition-19-price,condition-20-price,condition-21-price,condition-22-price,gamestop-price,gamestop-trade-price,retail-loose-buy,retail-loose-sell,retail-cib-buy,retail-cib-sell,retail-new-buy,retail-new-sell,upc,sales-volume,genre,tcg-id,asin,epid,release-date'.split(
    ',',
  );

const AT = '2026-11-20T06:00:00Z';

/** A row of the newer header: every column present, blank unless given. */
function row(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(NEW_HEADER.map((c) => [c, values[c] ?? '']));
}

describe('isPriceChartingHeader', () => {
  it('recognises the older header', () => {
    expect(isPriceChartingHeader(OLD_HEADER)).toBe(true);
  });
  it('recognises the newer header with condition-9 ... condition-22', () => {
    expect(isPriceChartingHeader(NEW_HEADER)).toBe(true);
  });
  it('does not take a canonical observation header or a tcgcsv header for one', () => {
    expect(isPriceChartingHeader(['product_key', 'source', 'observed_at', 'price'])).toBe(false);
    expect(isPriceChartingHeader(['productId', 'name', 'marketPrice', 'subTypeName'])).toBe(false);
  });
});

describe('mapPriceChartingRow', () => {
  it.each([
    ['loose-price', 'ungraded', null],
    ['cib-price', 'ANY', 7],
    ['new-price', 'ANY', 8],
    ['graded-price', 'ANY', 9],
    ['box-only-price', 'ANY', 9.5],
    ['manual-only-price', 'PSA', 10],
    ['bgs-10-price', 'BGS', 10],
    ['condition-9-price', 'ANY', 1],
    ['condition-10-price', 'ANY', 2],
    ['condition-13-price', 'ANY', 3],
    ['condition-14-price', 'ANY', 4],
    ['condition-15-price', 'ANY', 5],
    ['condition-16-price', 'ANY', 6],
    ['condition-17-price', 'CGC', 10],
    ['condition-18-price', 'SGC', 10],
    ['condition-19-price', 'CGC-PRISTINE', 10],
    ['condition-20-price', 'BGS-BLACK', 10],
    ['condition-21-price', 'TAG', 10],
    ['condition-22-price', 'ACE', 10],
  ])('stores %s as grader %s grade %s', (column, grader, grade) => {
    const { records } = mapPriceChartingRow(row({ id: '630417', [column]: '$2,325.00' }), AT);
    expect(records).toEqual([
      {
        refsource_id: '630417',
        source: 'pricecharting',
        observed_at: AT,
        price_minor: 232500,
        grader,
        grade,
      },
    ]);
  });

  it('ignores the dealer, GameStop and identifier columns', () => {
    const { records } = mapPriceChartingRow(
      row({
        id: '1',
        'gamestop-price': '$9.99',
        'retail-loose-buy': '$1.00',
        'retail-new-sell': '$2.00',
        upc: '123',
        'sales-volume': '7',
      }),
      AT,
    );
    expect(records).toEqual([]);
  });

  it('skips blank and zero prices and counts them, rather than rejecting the row', () => {
    const result = mapPriceChartingRow(
      row({ id: '7', 'loose-price': '$1.60', 'manual-only-price': '$0.00' }),
      AT,
    );
    expect(result.records.map((r) => r.price_minor)).toEqual([160]);
    expect(result.blank).toBe(18);
  });

  it('maps a row of the older header, which lacks condition-9 ... condition-22', () => {
    const fields = Object.fromEntries(OLD_HEADER.map((c) => [c, '']));
    Object.assign(fields, { id: '42', 'loose-price': '$1.00', 'condition-18-price': '$3.00' });
    const result = mapPriceChartingRow(fields, AT);
    expect(result.records.map((r) => [r.grader, r.grade, r.price_minor])).toEqual([
      ['ungraded', null, 100],
      ['SGC', 10, 300],
    ]);
    expect(result.blank).toBe(7);
  });

  it('reads only the loose price of a sealed box, counting its filled graded columns apart', () => {
    // SportsCardsPro's 2025 Topps Chrome Jumbo Box row (test/fixtures/pricecharting/sportscardspro-baseball-2025-topps-chrome.csv).
    const fields = Object.fromEntries(OLD_HEADER.map((c) => [c, '']));
    Object.assign(fields, {
      id: '10000184',
      'console-name': 'Baseball Cards 2025 Topps Chrome',
      'product-name': 'Jumbo Box',
      'loose-price': '$416.25',
      'new-price': '$378.84',
      'graded-price': '$656.94',
      'box-only-price': '$1242.56',
      'manual-only-price': '$1870.69',
      'bgs-10-price': '$2432.00',
      'condition-17-price': '$1497.00',
      'condition-18-price': '$1122.00',
    });
    const result = mapPriceChartingRow(fields, AT);
    expect(result.records.map((r) => [r.grader, r.grade, r.price_minor])).toEqual([
      ['ungraded', null, 41625],
    ]);
    expect(result).toMatchObject({ blank: 1, sealedGraded: 7 });
    // A card of the same file keeps its graded columns.
    expect(mapPriceChartingRow({ ...fields, 'product-name': 'Aaron Judge #1' }, AT).records).toHaveLength(8);
  });

  it('throws when a price is not a dollar amount, naming the column', () => {
    expect(() => mapPriceChartingRow(row({ id: '1', 'cib-price': 'N/A' }), AT)).toThrow(/cib-price.*"N\/A"/);
  });

  it('throws when the id is not digits', () => {
    expect(() => mapPriceChartingRow(row({ id: 'abc', 'loose-price': '$1.00' }), AT)).toThrow(
      /id must be digits/,
    );
  });
});

describe('price cells', () => {
  it.each([
    ['$2,325.00', 232500],
    ['$18.99', 1899],
    ['18.99', 1899],
    ['232500', 232500],
    ['1899', 1899],
    ['0', null],
    ['$0.00', null],
    ['', null],
  ])('reads %j as %j cents (a bare integer is pennies, as the API gives prices)', (text, cents) => {
    expect(priceCents('loose-price', text)).toBe(cents);
  });

  it('rejects a cell that is no amount, naming the column', () => {
    expect(() => priceCents('cib-price', '$1,2345.00')).toThrow(RowRejection);
    expect(() => priceCents('cib-price', '$1,2345.00')).toThrow(/^cib-price: not a USD amount/);
  });
});

describe('catalog mapping', () => {
  it('maps a row to a product with a readable key, its ids and its dates', () => {
    const product = mapPriceChartingProduct(
      row({
        id: '630417',
        'console-name': 'Pokemon Base Set',
        'product-name': 'Charizard #4',
        'tcg-id': '42382',
        'release-date': '1999-01-09',
      }),
    );
    expect(product).toEqual({
      product_key: 'pokemon-base-set-charizard-4',
      refsource_id: '630417',
      product_name: 'Charizard #4',
      set_name: 'Pokemon Base Set',
      product_type: 'single_card',
      era: 'vintage',
      release_date: '1999-01-09',
      tcgplayer_id: '42382',
      printing: null,
    });
  });

  it('leaves the release date and TCGplayer id null and the era out when the file has none', () => {
    for (const date of ['none', '', '  ']) {
      const product = mapPriceChartingProduct(
        row({
          id: '5',
          'console-name': 'Pokemon Promo',
          'product-name': 'Pikachu',
          'tcg-id': '0',
          'release-date': date,
        }),
      );
      expect(product).toMatchObject({ release_date: null, tcgplayer_id: null });
      expect(product).not.toHaveProperty('era');
    }
  });

  it.each([
    ['1999-01-09', '1999-01-09', 'vintage'],
    ['7/3/2025', '2025-07-03', 'modern'],
    ['12/31/2003', '2003-12-31', 'vintage'],
    ['1/1/2004', '2004-01-01', 'modern'],
    ['02/29/2024', '2024-02-29', 'modern'],
  ])('reads release-date %j as %s (%s)', (text, date, era) => {
    expect(
      mapPriceChartingProduct(row({ id: '5', 'product-name': 'Pikachu', 'release-date': text })),
    ).toMatchObject({ release_date: date, era });
  });

  it.each([
    ['2/30/2025', /^release-date "2\/30\/2025": "2025-02-30" is not a real date: February 2025 has 28 days/],
    ['2025-02-30', /is not a real date: February 2025 has 28 days/],
    ['13/1/2025', /is not a real date/],
    ['2/29/2025', /is not a real date/],
    ['July 3, 2025', /must be YYYY-MM-DD or M\/D\/YYYY/],
    ['2025/07/03', /must be YYYY-MM-DD or M\/D\/YYYY/],
  ])('rejects release-date %j rather than shifting it', (text, reason) => {
    expect(() =>
      mapPriceChartingProduct(row({ id: '5', 'product-name': 'Pikachu', 'release-date': text })),
    ).toThrow(RowRejection);
    expect(() =>
      mapPriceChartingProduct(row({ id: '5', 'product-name': 'Pikachu', 'release-date': text })),
    ).toThrow(reason);
  });

  it.each([
    ['Zapdos [Reverse Holo] #145', 'Reverse Holofoil'],
    ['Charizard [1st Edition] #4', '1st Edition'],
    ["Farfetch'd [1st Edition] #27", '1st Edition'],
    ['Charizard #4', null],
    ['Charizard [Shadowless] #4', null],
    ['Charizard [Holo] #4', null],
    ['Dawn [Regional Championships Staff] #87', null],
  ])('reads the printing of %j as %j', (name, printing) => {
    expect(printingFor(name)).toBe(printing);
  });

  it.each([
    [{ genre: 'Pokemon Card', 'console-name': 'Pokemon Base Set' }, null],
    [{ genre: 'Japanese Pokemon Card', 'console-name': 'Pokemon Japanese Promo' }, null],
    [{ genre: 'Baseball Cards', 'console-name': 'Baseball Cards 1952 Topps' }, null],
    [{ genre: 'Pokemon kortti', 'console-name': 'Pokemon Finnish Promo' }, null],
    [{ genre: '', 'console-name': 'Magic Alpha' }, null],
    [{ genre: 'RPG', 'console-name': 'Super Nintendo' }, 'genre "RPG"'],
    [{ genre: 'Comic Book', 'console-name': 'Comic Books Amazing Spider-Man' }, 'genre "Comic Book"'],
    [{ genre: '', 'console-name': 'Nintendo 64' }, 'console-name "Nintendo 64"'],
    [{ genre: '', 'console-name': 'Baseball Cards 2025 Topps Chrome' }, null],
    [{ genre: '', 'console-name': 'Basketball Cards 2019 Panini Donruss Optic' }, null],
    [{ genre: '', 'console-name': 'Soccer Cards 2026 Topps Chrome Premier League' }, null],
    [{ genre: '', 'console-name': 'UFC Cards 2021 Panini Prizm' }, null],
    [{ genre: '', 'console-name': 'JP Nintendo Switch' }, 'console-name "JP Nintendo Switch"'],
    [{ genre: '', 'console-name': 'Playstation 5' }, 'console-name "Playstation 5"'],
    [
      { genre: '', 'console-name': 'Comic Books Amazing Spider-Man' },
      'console-name "Comic Books Amazing Spider-Man"',
    ],
    [{ genre: '', 'console-name': 'Funko Pop Marvel' }, 'console-name "Funko Pop Marvel"'],
  ])('tells the category of %j: %j', (fields, category) => {
    expect(nonCardCategory(fields)).toBe(category);
  });

  it.each([
    ['Pokemon Scarlet & Violet 151', 'Charizard ex #199', 'pokemon-scarlet-and-violet-151-charizard-ex-199'],
    ['Pokemon Fossil', "Farfetch'd [1st Edition] #27", 'pokemon-fossil-farfetchd-1st-edition-27'],
    ['Pokemon Japanese Promo', 'Poké Ball #165', 'pokemon-japanese-promo-poke-ball-165'],
    ['', 'Black Lotus', 'black-lotus'],
  ])('slugs %j + %j to %j', (consoleName, productName, key) => {
    expect(productKeyFor(consoleName, productName, '1')).toBe(key);
  });

  it('falls back to pricecharting-<id> when the names have nothing to slug', () => {
    expect(productKeyFor('ポケモン', 'リザードン', '77')).toBe('pricecharting-77');
  });

  it('keeps keys within 200 characters', () => {
    expect(productKeyFor('x'.repeat(150), 'y'.repeat(150), '1').length).toBeLessThanOrEqual(200);
  });

  it('slugs the same names to the same key every time', () => {
    expect(slugify('  Base  Set -- Charizard!! ')).toBe('base-set-charizard');
    expect(slugify('Base Set Charizard')).toBe(slugify('base set charizard'));
  });

  it.each([
    ['Booster Box', 'booster_box'],
    ['1st Edition Booster Box', 'booster_box'],
    ['Booster Display', 'booster_box'],
    ['Booster Box Case', 'single_card'],
    ['Booster Pack', 'single_card'],
    ['Elite Trainer Box', 'single_card'],
    ['Charizard #4', 'single_card'],
    ['Hobby Box', 'booster_box'],
    ['Hobby Box [Sapphire]', 'booster_box'],
    ['Jumbo Box', 'booster_box'],
    ['Mega Box', 'booster_box'],
    ['Hobby Box Case', 'single_card'],
    ['Aaron Judge [Black Geometric] #99', 'single_card'],
  ])('types %j as %s', (name, type) => {
    expect(productTypeFor(name)).toBe(type);
  });

  it.each([
    ['1999-01-09', 'vintage'],
    ['2003-12-31', 'vintage'],
    ['2004-01-01', 'modern'],
    [null, null],
  ])('dates released %j as %s', (date, era) => {
    expect(eraFor(date)).toBe(era);
  });

  it('gives a later id whose name slugs like an earlier one the slug plus its id', () => {
    const keyOf = createProductKeyAllocator();
    const a = row({ id: '10', 'console-name': 'Pokemon Jungle', 'product-name': 'Pikachu #60' });
    const b = row({ id: '11', 'console-name': 'Pokemon Jungle', 'product-name': 'Pikachu - #60' });
    expect(keyOf(a)).toBe('pokemon-jungle-pikachu-60');
    expect(keyOf(b)).toBe('pokemon-jungle-pikachu-60-11');
    expect(keyOf(a)).toBe('pokemon-jungle-pikachu-60');
  });
});

describe('sales-volume', () => {
  it.each([
    ['1299', 1299],
    ['0', 0],
    ['1,299', 1299],
    ['', null],
    [undefined, null],
  ])('reads %j as %j', (text, volume) => {
    expect(salesVolumeOf(text)).toBe(volume);
  });

  it('rejects a cell that is not a count, naming the column', () => {
    expect(() => salesVolumeOf('12.5')).toThrow(
      /^sales-volume must be a whole number of sales \(got "12\.5"\)$/,
    );
  });
});
