// @module-tag sqlite-only: the pure engine and the ECB file parser: no store
/** Conversion at the ECB's reference rates (docs/methodology.md §16), on rates of the real history file's cut. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertMinor, minorDigits, rateOn, rateTable } from '../../src/engine/currency.js';
import { RATE_CARRY_DAYS } from '../../src/engine/methodology.js';
import { ecbColumns, ecbDay, ecbRates } from '../../src/ingest/formats/ecb-rates.js';
import { ROOT } from '../_setup.js';

/** The fixture's rates, read by the format's own functions. */
function fixtureRates() {
  const [header, ...rows] = readFileSync(join(ROOT, 'test/fixtures/ecb/eurofxref-hist.csv'), 'utf8')
    .trim()
    .split('\n');
  const codes = ecbColumns(header!.split(','));
  return rows.flatMap((line) => {
    const fields = line.split(',');
    const day = ecbDay(fields[0]!);
    return ecbRates(codes, fields).map(([currency, perEuro]) => ({ day, currency, perEuro, source: 'ecb' }));
  });
}

const table = rateTable(fixtureRates());
const at = (iso: string) => Date.parse(iso);

describe('rateOn', () => {
  it.each([
    ['a business day: its own rate', '2025-12-23T15:00:00Z', '2025-12-23', 1.1786],
    ['Christmas Day: the last rate before, 24 December', '2025-12-25T12:00:00Z', '2025-12-24', 1.1787],
    ['the Sunday after Christmas: still 24 December', '2025-12-28T23:59:59Z', '2025-12-24', 1.1787],
    ['New Year: 31 December', '2026-01-01T10:00:00Z', '2025-12-31', 1.175],
    ['the euro`s first day', '1999-01-04T00:00:00Z', '1999-01-04', 1.1789],
  ])('%s', (_, instant, day, perEuro) => {
    expect(rateOn(table, 'USD', at(instant))).toEqual({ day, perEuro });
  });

  it(`gives none more than ${RATE_CARRY_DAYS} days after the last rate, and none before the first`, () => {
    expect(rateOn(table, 'USD', at('2026-01-16T00:00:00Z'))).not.toBeNull(); // 7 days after 01-09
    expect(rateOn(table, 'USD', at('2026-01-17T00:00:00Z'))).toBeNull();
    expect(rateOn(table, 'USD', at('1998-12-31T00:00:00Z'))).toBeNull();
  });

  it('has no rate for a currency the ECB stopped quoting (N/A cells), and the euro is always 1', () => {
    expect(rateOn(table, 'CYP', at('2025-12-23T00:00:00Z'))).toBeNull();
    expect(rateOn(table, 'CYP', at('1999-01-05T00:00:00Z'))).toEqual({ day: '1999-01-05', perEuro: 0.5823 });
    expect(rateOn(table, 'EUR', at('2025-12-23T00:00:00Z'))?.perEuro).toBe(1);
  });
});

describe('convertMinor', () => {
  it.each([
    // amount, from, to, instant, amount x rate in the target's minor units
    [1000, 'EUR', 'USD', '2025-12-26T10:00:00Z', 1000 * 1.1787],
    [1250, 'EUR', 'USD', '2025-12-23T10:00:00Z', 1250 * 1.1786],
    [1500, 'JPY', 'USD', '2025-12-23T10:00:00Z', (1500 / 183.89) * 1.1786 * 100],
    [1179, 'USD', 'EUR', '2025-12-26T10:00:00Z', 1179 / 1.1787],
    [999_999, 'USD', 'GBP', '2026-01-09T10:00:00Z', (999_999 / 1.1642) * 0.8677],
    [4321, 'GBP', 'JPY', '2026-01-05T10:00:00Z', (43.21 / 0.8676) * 182.93],
  ])('%i %s in %s on %s is within a minor unit of amount x rate', (amount, from, to, instant, exact) => {
    const converted = convertMinor(table, amount, from, to, at(instant));
    expect(converted).not.toBeNull();
    expect(Math.abs(converted!.amountMinor - exact)).toBeLessThanOrEqual(0.5 + 1e-9);
  });

  it('keeps an amount in its own currency exactly, and names the rate day', () => {
    expect(convertMinor(table, 1234, 'EUR', 'EUR', at('2025-12-23T10:00:00Z'))?.amountMinor).toBe(1234);
    expect(convertMinor(table, 1000, 'EUR', 'USD', at('2025-12-27T10:00:00Z'))?.rateDay).toBe('2025-12-24');
  });

  it('is null when a rate is missing', () => {
    expect(convertMinor(table, 1000, 'EUR', 'USD', at('2027-01-01T00:00:00Z'))).toBeNull();
    expect(convertMinor(table, 1000, 'XYZ', 'USD', at('2025-12-23T00:00:00Z'))).toBeNull();
  });

  it('counts whole yen, kronur and won, hundredths of the others', () => {
    expect([minorDigits('JPY'), minorDigits('ISK'), minorDigits('KRW'), minorDigits('EUR')]).toEqual([
      0, 0, 0, 2,
    ]);
  });
});

describe('the ECB files', () => {
  it('reads the daily file`s spaced header and written date', () => {
    const [header, row] = readFileSync(join(ROOT, 'test/fixtures/ecb/eurofxref.csv'), 'utf8')
      .trim()
      .split('\n');
    const codes = ecbColumns(header!.split(','));
    expect(codes.slice(0, 3)).toEqual(['USD', 'JPY', 'CZK']);
    const fields = row!.split(',');
    expect(ecbDay(fields[0]!)).toBe('2026-04-13');
    expect(ecbRates(codes, fields).slice(0, 2)).toEqual([
      ['USD', 1.1684],
      ['JPY', 186.75],
    ]);
  });

  it.each([
    ['2026-02-30', /not a date/],
    ['31 Foo 2026', /not a date/],
  ])('refuses the date %s', (cell, message) => {
    expect(() => ecbDay(cell)).toThrow(message);
  });

  it('refuses a header that is not the ECB`s, and a rate that is no number', () => {
    expect(() => ecbColumns(['id', 'name'])).toThrow(/should be Date,USD,JPY/);
    expect(() => ecbColumns(['Date', 'US Dollar'])).toThrow(/not a currency code/);
    expect(() => ecbRates(['USD'], ['2026-01-02', '1,17'])).toThrow(/USD: not a rate/);
    expect(() => ecbRates(['USD'], ['2026-01-02', '-1'])).toThrow(/USD: not a rate/);
  });
});
