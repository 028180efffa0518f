// @module-tag sqlite-only: a format's parser: no store
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseUsdCents } from '../../../src/ingest/formats/usd-cents.js';

describe('parseUsdCents', () => {
  it.each([
    ['$2,325.00', 232500],
    ['$1,234,567.89', 123456789],
    ['$0.29', 29],
    ['0.1', 10],
    ['6.31', 631],
    ['118', 11800],
    ['  $5.05 ', 505],
  ])('parses %j to %i cents exactly', (text, cents) => {
    expect(parseUsdCents(text)).toBe(cents);
  });

  it.each(['', '   ', '$0.00', '0'])('returns null for a blank or zero amount %j', (text) => {
    expect(parseUsdCents(text)).toBeNull();
  });

  it.each(['$2,32.00', '1.234', '-5.00', '$', 'USD 5', '1e3', '5,00', '$1,2345.00'])(
    'throws on %j, naming it',
    (text) => {
      expect(() => parseUsdCents(text)).toThrow(JSON.stringify(text));
    },
  );

  it('agrees with integer arithmetic for every amount with thousands separators', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 12 }), (cents) => {
        const dollars = Math.floor(cents / 100).toLocaleString('en-US');
        const text = `$${dollars}.${String(cents % 100).padStart(2, '0')}`;
        expect(parseUsdCents(text)).toBe(cents);
      }),
    );
  });
});
