// @module-tag sqlite-only: a format's parser: no store
import { describe, expect, it } from 'vitest';
import { createTcgplayerMapper, isTcgplayerHeader } from '../../../src/ingest/formats/tcgplayer.js';
import { RowRejection } from '../../../src/ingest/formats/types.js';

const AT = '2026-11-20T06:00:00Z';

function row(productId: string, subTypeName: string, marketPrice: string) {
  return {
    productId,
    name: 'Zapdos - 145/165',
    lowPrice: '1.00',
    midPrice: '2.00',
    marketPrice,
    subTypeName,
    extNumber: '145/165',
  };
}

describe('isTcgplayerHeader', () => {
  it('recognises a tcgcsv header whatever the order of its ext* columns', () => {
    expect(
      isTcgplayerHeader([
        'extRarity',
        'productId',
        'name',
        'lowPrice',
        'midPrice',
        'highPrice',
        'marketPrice',
        'directLowPrice',
        'subTypeName',
        'extNumber',
      ]),
    ).toBe(true);
  });
  it('does not take a PriceCharting header for one', () => {
    expect(isTcgplayerHeader(['id', 'console-name', 'product-name', 'loose-price', 'tcg-id'])).toBe(false);
  });
});

describe('createTcgplayerMapper', () => {
  it('maps the market price to an ungraded observation keyed by the TCGplayer id', () => {
    const map = createTcgplayerMapper({ observedAt: AT });
    expect(map(row('517045', 'Holofoil', '118.37'))).toEqual({
      record: {
        tcgplayer_id: '517045',
        printing: 'Holofoil',
        source: 'tcgplayer',
        observed_at: AT,
        price_minor: 11837,
        grader: 'ungraded',
        grade: null,
      },
    });
  });

  it('keeps every printing of a product, each with its own printing named in TCGplayer spelling', () => {
    const map = createTcgplayerMapper({ observedAt: AT });
    expect(map(row('1', 'Holofoil', '1.45'))).toMatchObject({
      record: { printing: 'Holofoil', price_minor: 145 },
    });
    expect(map(row('1', 'reverse  holofoil', '2.10'))).toMatchObject({
      record: { printing: 'Reverse Holofoil', price_minor: 210 },
    });
    expect(map(row('1', '1st Edition Holofoil', '30.00'))).toMatchObject({
      record: { printing: '1st Edition Holofoil', price_minor: 3000 },
    });
  });

  it('reads only the printing named by subtype, in any case', () => {
    const map = createTcgplayerMapper({ observedAt: AT, subtype: 'reverse holofoil' });
    expect(map(row('1', 'Holofoil', '1.45'))).toEqual({ skipped: 'other printing' });
    expect(map(row('1', 'Reverse Holofoil', '2.10'))).toMatchObject({ record: { price_minor: 210 } });
  });

  it('reports a row without a market price instead of falling back to another printing', () => {
    const map = createTcgplayerMapper({ observedAt: AT });
    expect(map(row('1', 'Normal', ''))).toEqual({ skipped: 'no market price' });
    expect(map(row('1', 'Reverse Holofoil', '0.50'))).toMatchObject({
      record: { printing: 'Reverse Holofoil', price_minor: 50 },
    });
  });

  it('throws on a malformed productId or market price', () => {
    const map = createTcgplayerMapper({ observedAt: AT });
    expect(() => map(row('x1', 'Normal', '1.00'))).toThrow(RowRejection);
    expect(() => map(row('x1', 'Normal', '1.00'))).toThrow(/productId must be digits/);
    expect(() => map(row('1', 'Normal', '1.005'))).toThrow(/marketPrice/);
  });
});
