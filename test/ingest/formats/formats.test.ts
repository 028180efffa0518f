// @module-tag sqlite-only: a format's parser: no store
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/domain/errors.js';
import { chooseCsvFormat } from '../../../src/ingest/formats/detect.js';
import {
  CONTAINER_FORMATS,
  FEED_FORMATS,
  FORMAT_NAMES,
  JSON_FEED_FORMATS,
} from '../../../src/ingest/formats/index.js';
import { ECB_RATES_FORMAT } from '../../../src/ingest/formats/ecb-rates.js';
import { pricechartingFormat } from '../../../src/ingest/formats/pricecharting.js';
import { tcgplayerFormat } from '../../../src/ingest/formats/tcgplayer.js';
import { type FormatOptions, type RecordSink } from '../../../src/ingest/formats/types.js';
import type { CanonicalRecord } from '../../../src/ingest/validate/record.js';

const PC_HEADER = [
  'id',
  'console-name',
  'product-name',
  'loose-price',
  'cib-price',
  'new-price',
  'graded-price',
  'box-only-price',
  'manual-only-price',
  'bgs-10-price',
  'tcg-id',
  'release-date',
];
const PC_ROW = [
  '630417',
  'Pokemon Base Set',
  'Charizard #4',
  '$296.62',
  '',
  '',
  '',
  '',
  '$29,643.13',
  '',
  '42382',
  '1999-01-09',
];
const TCG_HEADER = ['extNumber', 'productId', 'name', 'lowPrice', 'marketPrice', 'subTypeName', 'extRarity'];

const OPTIONS: FormatOptions = {
  source: 'test.csv',
  observedAt: undefined,
  subtype: undefined,
  kind: undefined,
  now: Date.UTC(2026, 10, 20, 6),
};

/** A sink that keeps what a mapper hands it. */
function collect() {
  const got = {
    observations: [] as CanonicalRecord[],
    products: [] as CanonicalRecord[],
    skipped: {} as Record<string, number>,
  };
  const sink: RecordSink = {
    observation: (r) => got.observations.push(r),
    product: (r) => got.products.push(r),
    skip: (reason, count = 1) => (got.skipped[reason] = (got.skipped[reason] ?? 0) + count),
  };
  return { got, sink };
}

describe('the --format names', () => {
  it('are the containers, every format of the registry and the ECB rates, no more', () => {
    const registry = [
      ...CONTAINER_FORMATS,
      ...FEED_FORMATS.map((f) => f.name),
      ...JSON_FEED_FORMATS.map((f) => f.name),
      ECB_RATES_FORMAT,
    ];
    expect([...FORMAT_NAMES].sort()).toEqual(registry.sort());
  });
});

describe('feed format detection', () => {
  it('recognises a PriceCharting download and a tcgcsv file by their headers alone', () => {
    expect(chooseCsvFormat(PC_HEADER, undefined, undefined)).toBe(pricechartingFormat);
    expect(chooseCsvFormat(PC_HEADER, undefined, 'catalog')).toBe(pricechartingFormat);
    expect(chooseCsvFormat(TCG_HEADER, undefined, undefined)).toBe(tcgplayerFormat);
  });

  it('takes --kind catalog for TCGplayer rows only with the groups file, which names their sets', () => {
    const format = chooseCsvFormat(TCG_HEADER, 'tcgplayer', 'catalog');
    expect(() => format.open(TCG_HEADER, { ...OPTIONS, kind: 'catalog' })).toThrow(
      /the header lacks groupId/,
    );
    const header = ['productId', 'name', 'groupId', 'subTypeName', 'marketPrice'];
    expect(() => format.open(header, { ...OPTIONS, kind: 'catalog' })).toThrow(
      /needs its category's groups .*--groups/,
    );
  });

  it('stops with the missing columns named when --format does not fit the header', () => {
    expect(() => pricechartingFormat.open(['id', 'product-name', 'loose-price'], OPTIONS)).toThrow(
      /lacks console-name, cib-price/,
    );
    expect(() => tcgplayerFormat.open(['productId', 'name'], OPTIONS)).toThrow(
      /lacks marketPrice, subTypeName/,
    );
  });
});

describe('pricechartingFormat', () => {
  it("reads observations by default, stamped 00:00 UTC of the command clock's day (the guide's value for that day), and counts blank prices", () => {
    const { got, sink } = collect();
    pricechartingFormat.open(PC_HEADER, OPTIONS)({ line: 2, fields: PC_ROW }, sink);
    expect(got.products).toEqual([]);
    expect(got.observations).toEqual([
      {
        refsource_id: '630417',
        source: 'pricecharting',
        observed_at: '2026-11-20T00:00:00.000Z',
        price_minor: 29662,
        grader: 'ungraded',
        grade: null,
      },
      {
        refsource_id: '630417',
        source: 'pricecharting',
        observed_at: '2026-11-20T00:00:00.000Z',
        price_minor: 2964313,
        grader: 'PSA',
        grade: 10,
      },
    ]);
    expect(got.skipped).toEqual({ 'blank price': 5 });
  });

  it('stamps observations with --observed-at, normalised to UTC', () => {
    const { got, sink } = collect();
    pricechartingFormat.open(PC_HEADER, { ...OPTIONS, observedAt: Date.parse('2026-11-19T20:00:00-05:00') })(
      { line: 2, fields: PC_ROW },
      sink,
    );
    expect(got.observations[0]?.observed_at).toBe('2026-11-20T01:00:00.000Z');
  });

  it('reads products with --kind catalog', () => {
    const { got, sink } = collect();
    pricechartingFormat.open(PC_HEADER, { ...OPTIONS, kind: 'catalog' })({ line: 2, fields: PC_ROW }, sink);
    expect(got.observations).toEqual([]);
    expect(got.products).toEqual([
      {
        product_key: 'pokemon-base-set-charizard-4',
        refsource_id: '630417',
        product_name: 'Charizard #4',
        set_name: 'Pokemon Base Set',
        product_type: 'single_card',
        era: 'vintage',
        release_date: '1999-01-09',
        tcgplayer_id: '42382',
        printing: null,
      },
    ]);
  });

  it('stops at a row of another category than trading cards, naming the column and the category', () => {
    const header = [...PC_HEADER, 'genre'];
    const game = [
      '3924',
      'Nintendo 64',
      'Super Mario 64',
      '$39.48',
      '$137.84',
      '$1,629.85',
      '$3,999.99',
      '$41.29',
      '$14.50',
      '',
      '',
      '1996-09-26',
      'Platformer',
    ];
    for (const kind of [undefined, 'catalog'] as const) {
      const { got, sink } = collect();
      const map = () =>
        pricechartingFormat.open(header, { ...OPTIONS, kind })({ line: 7, fields: game }, sink);
      expect(map).toThrow(InputError);
      expect(map).toThrow(/^test\.csv:7: genre "Platformer" is not a trading-card or sports-card category/);
      expect(got.observations).toEqual([]);
      expect(got.products).toEqual([]);
    }
  });

  it('rejects a row whose width differs from the header', () => {
    const { sink } = collect();
    expect(() => pricechartingFormat.open(PC_HEADER, OPTIONS)({ line: 3, fields: ['1', 'x'] }, sink)).toThrow(
      /expected 12 fields/,
    );
  });
});

describe('tcgplayerFormat', () => {
  it('finds its columns by name and reports skipped rows by reason', () => {
    const { got, sink } = collect();
    const map = tcgplayerFormat.open(TCG_HEADER, { ...OPTIONS, observedAt: Date.UTC(2026, 10, 20, 5) });
    map({ line: 2, fields: ['145/165', '517096', 'Zapdos', '1.10', '1.45', 'Holofoil', 'Rare'] }, sink);
    map(
      { line: 3, fields: ['145/165', '517096', 'Zapdos', '1.75', '2.10', 'Reverse Holofoil', 'Rare'] },
      sink,
    );
    map({ line: 4, fields: ['165/165', '517200', 'Poke Ball', '0.02', '', 'Normal', 'Common'] }, sink);
    const zapdos = {
      tcgplayer_id: '517096',
      source: 'tcgplayer',
      observed_at: '2026-11-20T05:00:00.000Z',
      grader: 'ungraded',
      grade: null,
    };
    expect(got.observations).toEqual([
      { ...zapdos, printing: 'Holofoil', price_minor: 145 },
      { ...zapdos, printing: 'Reverse Holofoil', price_minor: 210 },
    ]);
    expect(got.skipped).toEqual({ 'no market price': 1 });
  });

  it("skips a row without a printing or a price (tcgcsv's sealed rows), and puts a priced one on the product without a printing", () => {
    const { got, sink } = collect();
    const map = tcgplayerFormat.open(TCG_HEADER, OPTIONS);
    map({ line: 2, fields: ['', '185731', 'Base Set Booster Box', '', '', ' ', ''] }, sink);
    expect(got.skipped).toEqual({ 'no market price': 1 });
    map({ line: 3, fields: ['145/165', '517096', 'Zapdos', '1.10', '1.45', ' ', 'Rare'] }, sink);
    expect(got.observations).toEqual([expect.not.objectContaining({ printing: expect.anything() })]);
    expect(got.observations[0]).toMatchObject({ tcgplayer_id: '517096', price_minor: 145 });
  });

  it('reads only the printing --subtype names', () => {
    const { got, sink } = collect();
    const map = tcgplayerFormat.open(TCG_HEADER, { ...OPTIONS, subtype: 'Reverse Holofoil' });
    map({ line: 2, fields: ['145/165', '517096', 'Zapdos', '1.10', '1.45', 'Holofoil', 'Rare'] }, sink);
    map(
      { line: 3, fields: ['145/165', '517096', 'Zapdos', '1.75', '2.10', 'Reverse Holofoil', 'Rare'] },
      sink,
    );
    expect(got.observations.map((r) => r.price_minor)).toEqual([210]);
  });
});
