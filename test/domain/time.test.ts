// @module-tag sqlite-only: a pure domain function: no store
import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  HOUR_MS,
  parseCalendarDate,
  parseInstant,
  parseInstantInput,
  toUtcDate,
} from '../../src/domain/time.js';

/** Epoch ms of a UTC date-time, computed by hand-checked arithmetic, not by the parser under test. */
const utc = (year: number, month: number, day: number, h = 0, m = 0, s = 0, ms = 0) =>
  Date.UTC(year, month - 1, day, h, m, s, ms);

describe('parseInstant accepts ISO-8601 date-times with a zone', () => {
  it.each<[string, number]>([
    ['2026-11-22T05:00:00Z', utc(2026, 11, 22, 5)],
    ['2026-11-22T05:00Z', utc(2026, 11, 22, 5)],
    ['2026-11-22 05:00:00Z', utc(2026, 11, 22, 5)],
    ['2026-11-22t05:00:00z', utc(2026, 11, 22, 5)],
    ['2026-11-22T10:30:00+05:30', utc(2026, 11, 22, 5)],
    ['2026-11-22T10:30:00+0530', utc(2026, 11, 22, 5)],
    ['2026-11-22T00:00:00-05:00', utc(2026, 11, 22, 5)],
    ['2026-11-22T05:00:00+00:00', utc(2026, 11, 22, 5)],
    // RFC 3339: -00:00 is UTC with the local offset unknown; the instant is the same.
    ['2026-11-22T05:00:00-00:00', utc(2026, 11, 22, 5)],
    ['2026-11-22T23:59:59+23:59', utc(2026, 11, 22, 0, 0, 59)],
    ['2026-11-22T05:00:00.5Z', utc(2026, 11, 22, 5, 0, 0, 500)],
    ['2026-11-22T05:00:00.123Z', utc(2026, 11, 22, 5, 0, 0, 123)],
    // Fractions beyond the millisecond are cut, not rounded: the instant stays in its second.
    ['2026-11-22T05:00:59.999999999Z', utc(2026, 11, 22, 5, 0, 59, 999)],
    ['2024-02-29T12:00:00Z', utc(2024, 2, 29, 12)],
    ['2000-02-29T12:00:00Z', utc(2000, 2, 29, 12)],
    ['2026-12-31T23:59:59Z', utc(2026, 12, 31, 23, 59, 59)],
    ['1970-01-01T00:00:00Z', 0],
    ['1969-12-31T23:59:59Z', -1000],
    ['1999-01-09T00:00:00Z', utc(1999, 1, 9)],
    ['1000-01-01T00:00:00Z', -30_610_224_000_000],
    ['9999-12-31T23:59:59Z', 253_402_300_799_000],
  ])('%s is %d', (text, expected) => {
    expect(parseInstant(text)).toBe(expected);
  });

  it('agrees with Date.parse on every valid day of a leap and a common year', () => {
    for (let day = 0; day < 366 + 365; day += 1) {
      const iso = new Date(utc(2024, 1, 1) + day * 86_400_000 + 3_723_456).toISOString();
      expect(parseInstant(iso)).toBe(Date.parse(iso));
    }
  });
});

describe('parseInstant refuses what is no instant, with the reason', () => {
  it.each<[string, string]>([
    ['2026-02-30T10:00:00Z', '"2026-02-30T10:00:00Z" is not a real date: February 2026 has 28 days'],
    ['2025-02-29T10:00:00Z', '"2025-02-29T10:00:00Z" is not a real date: February 2025 has 28 days'],
    ['1900-02-29T10:00:00Z', '"1900-02-29T10:00:00Z" is not a real date: February 1900 has 28 days'],
    ['2026-04-31T10:00:00Z', '"2026-04-31T10:00:00Z" is not a real date: April 2026 has 30 days'],
    ['2026-13-01T10:00:00Z', '"2026-13-01T10:00:00Z" is not a real date: there is no month 13'],
    ['2026-00-10T10:00:00Z', '"2026-00-10T10:00:00Z" is not a real date: there is no month 00'],
    ['2026-01-00T10:00:00Z', '"2026-01-00T10:00:00Z" is not a real date: there is no day 00'],
    [
      '2026-03-01T24:00:00Z',
      '"2026-03-01T24:00:00Z" is not a real time: there is no hour 24 (midnight is 00:00 of the next day)',
    ],
    [
      '2026-03-01T25:00:00Z',
      '"2026-03-01T25:00:00Z" is not a real time: there is no hour 25 (midnight is 00:00 of the next day)',
    ],
    ['2026-03-01T10:60:00Z', '"2026-03-01T10:60:00Z" is not a real time: there is no minute 60'],
    [
      '2026-12-31T23:59:60Z',
      '"2026-12-31T23:59:60Z" is not a real time: leap second 60 is not accepted (use 59)',
    ],
    ['2026-03-01T10:00:61Z', '"2026-03-01T10:00:61Z" is not a real time: there is no second 61'],
    ['2026-03-01T10:00:00+24:00', '"2026-03-01T10:00:00+24:00" has an offset that does not exist: +24:00'],
    ['2026-03-01T10:00:00+05:60', '"2026-03-01T10:00:00+05:60" has an offset that does not exist: +05:60'],
    [
      '2026-03-01T10:00:00',
      '"2026-03-01T10:00:00" has no time zone: add Z or an offset (a local time is ambiguous)',
    ],
    [
      '2026-03-01 10:00',
      '"2026-03-01 10:00" has no time zone: add Z or an offset (a local time is ambiguous)',
    ],
    ['2026-03-01', '"2026-03-01" has no time zone: add Z or an offset (a local time is ambiguous)'],
  ])('%s', (text, problem) => {
    expect(parseInstant(text)).toBe(problem);
  });

  it.each([
    '',
    'yesterday',
    ' 2026-03-01T10:00:00Z',
    '2026-03-01T10:00:00Z ',
    '2026-03-01T10:00:00Z\n',
    '2026-3-01T10:00:00Z',
    '2026-03-01T1:00:00Z',
    '2026-03-01T10:00:0Z',
    '2026-03-01T10Z',
    '2026-03-01T10:00:00.Z',
    '2026-03-01T10:00:00.1234567890Z',
    '2026-03-01T10:00:00+05',
    '2026-03-01T10:00:00+5:30',
    '2026-03-01T10:00:00+05:30Z',
    '2026-03-01T10:00:00ZZ',
    '2026-03-01T10:00:00 Z',
    '+02026-03-01T10:00:00Z',
    '2026/03/01T10:00:00Z',
    '2026-03-01X10:00:00Z',
    '２０２６-03-01T10:00:00Z',
  ])('%j is no ISO-8601 date-time with a zone', (text) => {
    expect(parseInstant(text)).toBe(
      `must be an ISO-8601 date-time with Z or an offset, such as 2026-11-22T05:00:00Z (got ${JSON.stringify(text)})`,
    );
  });

  it('cuts a long text short in the reason', () => {
    expect(parseInstant('x'.repeat(1000))).toBe(
      `must be an ISO-8601 date-time with Z or an offset, such as 2026-11-22T05:00:00Z (got "${'x'.repeat(60)}…")`,
    );
  });
});

describe('parseCalendarDate', () => {
  it.each<[string, number]>([
    ['2026-11-22', utc(2026, 11, 22)],
    ['2024-02-29', utc(2024, 2, 29)],
    ['2000-02-29', utc(2000, 2, 29)],
    ['2026-12-31', utc(2026, 12, 31)],
    ['1999-01-09', utc(1999, 1, 9)],
  ])('%s is 00:00Z of that day', (text, expected) => {
    expect(parseCalendarDate(text)).toBe(expected);
  });

  it.each<[string, string]>([
    ['2025-02-29', '"2025-02-29" is not a real date: February 2025 has 28 days'],
    ['1900-02-29', '"1900-02-29" is not a real date: February 1900 has 28 days'],
    ['2026-02-30', '"2026-02-30" is not a real date: February 2026 has 28 days'],
    ['2026-06-31', '"2026-06-31" is not a real date: June 2026 has 30 days'],
    ['2026-13-01', '"2026-13-01" is not a real date: there is no month 13'],
    ['2026-11-00', '"2026-11-00" is not a real date: there is no day 00'],
    ['2026-11-2', 'must be a date as YYYY-MM-DD (got "2026-11-2")'],
    ['22/11/2026', 'must be a date as YYYY-MM-DD (got "22/11/2026")'],
    ['2026-11-22T00:00:00Z', 'must be a date as YYYY-MM-DD (got "2026-11-22T00:00:00Z")'],
    [' 2026-11-22', 'must be a date as YYYY-MM-DD (got " 2026-11-22")'],
    ['', 'must be a date as YYYY-MM-DD (got "")'],
  ])('%j is refused: %s', (text, problem) => {
    expect(parseCalendarDate(text)).toBe(problem);
  });
});

describe('parseInstantInput reads instants as people write them', () => {
  const NOW = utc(2026, 11, 27, 11, 30);
  it.each<[string, number]>([
    ['now', NOW],
    ['NOW', NOW],
    ['30d', NOW - 30 * DAY_MS],
    ['12h', NOW - 12 * HOUR_MS],
    ['2w', NOW - 14 * DAY_MS],
    ['2W', NOW - 14 * DAY_MS],
    ['90d ago', NOW - 90 * DAY_MS],
    ['0d', NOW],
    ['2026-11-01T00:00:00Z', utc(2026, 11, 1)],
    ['2026-11-01T02:00+02:00', utc(2026, 11, 1)],
  ])('%s', (text, expected) => {
    expect(parseInstantInput(text, NOW)).toBe(expected);
    expect(parseInstantInput(text, NOW, 'start')).toBe(expected);
  });

  it('reads a date alone as the last millisecond of its UTC day (the price at its close), or as its start for the start of a span', () => {
    expect(parseInstantInput('2026-10-28', NOW)).toBe(utc(2026, 10, 28, 23, 59, 59, 999));
    expect(parseInstantInput('2026-10-28', NOW, 'start')).toBe(utc(2026, 10, 28));
    expect(parseInstantInput('2024-02-29', NOW)).toBe(utc(2024, 2, 29, 23, 59, 59, 999));
    expect(parseInstantInput('2026-12-31', NOW)).toBe(utc(2026, 12, 31, 23, 59, 59, 999));
  });

  it('reads today as now when it stands for the end of the day, which has not come', () => {
    expect(parseInstantInput('2026-11-27', NOW)).toBe(NOW);
    expect(parseInstantInput('2026-11-27', NOW, 'start')).toBe(utc(2026, 11, 27));
    // A date after today stays after now: the caller refuses it as in the future.
    expect(parseInstantInput('2026-11-28', NOW)).toBe(utc(2026, 11, 28, 23, 59, 59, 999));
  });

  it.each<[string, string]>([
    ['2026-02-30', '"2026-02-30" is not a real date: February 2026 has 28 days'],
    ['2025-02-29', '"2025-02-29" is not a real date: February 2025 has 28 days'],
    ['2026-13-01', '"2026-13-01" is not a real date: there is no month 13'],
    ['2026-02-30T00:00:00Z', '"2026-02-30T00:00:00Z" is not a real date: February 2026 has 28 days'],
    ['0999-12-31', '"0999-12-31" is outside the years 1000 to 9999'],
    ['0026-11-01T00:00:00Z', '"0026-11-01T00:00:00Z" is outside the years 1000 to 9999'],
    [
      '2026-11-01T00:00:00',
      '"2026-11-01T00:00:00" has no time zone: add Z or an offset (a local time is ambiguous)',
    ],
    [
      'yesterday',
      'must be an ISO-8601 date-time with Z or an offset (2026-10-28T12:00:00Z), a date alone (2026-10-28), a span before now (30d, 12h, 2w) or now (got "yesterday")',
    ],
    [
      '30',
      'must be an ISO-8601 date-time with Z or an offset (2026-10-28T12:00:00Z), a date alone (2026-10-28), a span before now (30d, 12h, 2w) or now (got "30")',
    ],
    [
      '30m',
      'must be an ISO-8601 date-time with Z or an offset (2026-10-28T12:00:00Z), a date alone (2026-10-28), a span before now (30d, 12h, 2w) or now (got "30m")',
    ],
    [
      '10000d',
      'must be an ISO-8601 date-time with Z or an offset (2026-10-28T12:00:00Z), a date alone (2026-10-28), a span before now (30d, 12h, 2w) or now (got "10000d")',
    ],
    [
      '-3d',
      'must be an ISO-8601 date-time with Z or an offset (2026-10-28T12:00:00Z), a date alone (2026-10-28), a span before now (30d, 12h, 2w) or now (got "-3d")',
    ],
    [
      '28/10/2026',
      'must be an ISO-8601 date-time with Z or an offset (2026-10-28T12:00:00Z), a date alone (2026-10-28), a span before now (30d, 12h, 2w) or now (got "28/10/2026")',
    ],
  ])('%j is refused: %s', (text, problem) => {
    expect(parseInstantInput(text, NOW)).toBe(problem);
  });

  it('takes or refuses a text whatever the clock, so a schema without one can check it', () => {
    for (const text of [
      'now',
      '30d',
      '2026-10-28',
      '2026-11-27',
      '2026-02-30',
      'yesterday',
      '2026-11-01T00:00:00Z',
    ]) {
      expect(typeof parseInstantInput(text, 0)).toBe(typeof parseInstantInput(text, NOW));
    }
  });
});

describe('the year range (issue 24)', () => {
  it.each(['0000-01-01T00:00:00Z', '0999-12-31T23:59:59Z', '0001-01-01T00:00:00+00:00'])(
    'parseInstant refuses %s naming the range',
    (text) => {
      expect(parseInstant(text)).toBe(`${JSON.stringify(text)} is outside the years 1000 to 9999`);
    },
  );

  it('parseCalendarDate refuses 0000-01-01 and takes 1000-01-01 and 9999-12-31', () => {
    expect(parseCalendarDate('0000-01-01')).toBe('"0000-01-01" is outside the years 1000 to 9999');
    expect(toUtcDate(parseCalendarDate('1000-01-01') as number)).toBe('1000-01-01');
    expect(toUtcDate(parseCalendarDate('9999-12-31') as number)).toBe('9999-12-31');
  });
});
