// @module-tag sqlite-only: a pure domain function: no store
/** A collection's cost basis in dollars, read exactly into cents, and totals refused rather than rounded past 2^53 - 1 cents. */
import { describe, expect, it } from 'vitest';
import { MAX_COST_BASIS_MINOR, parseCollectionCsv } from '../../src/domain/collection.js';
import { parseDollars } from '../../src/domain/money.js';
import { InvalidParameterError } from '../../src/domain/errors.js';
import { exactCents } from '../../src/service/valuation.js';

describe('parseDollars', () => {
  it.each([
    ['12.50', 1_250],
    ['$12.50', 1_250],
    ['$ 12.5', 1_250],
    ['12', 1_200],
    ['0.07', 7],
    ['$1,250', 125_000],
    ['1,234,567.89', 123_456_789],
    [' 9007199254.74 ', 900_719_925_474],
  ])('reads %j as %i cents', (text, cents) => {
    expect(parseDollars(text)).toBe(cents);
  });

  it.each(['', '$', '12.345', '-5', '1,23', '12,50', '1e3', 'USD 5', '$1.2.3', '12345678901234'])(
    'refuses %j',
    (text) => {
      expect(parseDollars(text)).toBeNull();
    },
  );

  it('names a row with a bad or too large cost basis and keeps the others', () => {
    const big = `$${(MAX_COST_BASIS_MINOR / 100 + 1).toLocaleString('en-US')}`;
    const { rows, problems } = parseCollectionCsv(
      `product_key,condition,quantity,cost_basis\na,ungraded,1,$3.10\nb,ungraded,1,"${big}"\n`,
      'c.csv',
    );
    expect(rows.map((r) => r.costBasisMinor)).toEqual([310]);
    expect(problems).toEqual([
      { line: 3, reason: expect.stringMatching(/^cost_basis must be dollars from 0 to \$10,000,000,000/) },
    ]);
  });
});

describe('exactCents', () => {
  it('keeps every cent up to 2^53 - 1 and refuses beyond', () => {
    expect(exactCents(BigInt(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(exactCents(-5n)).toBe(-5);
    expect(() => exactCents(BigInt(Number.MAX_SAFE_INTEGER) + 1n)).toThrow(InvalidParameterError);
  });
});
