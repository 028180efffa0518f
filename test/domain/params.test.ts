// @module-tag sqlite-only: a pure domain function: no store
/**
 * The input schemas of src/domain (and the clock's checks beside them), read as an edge reads
 * them: the value, or an error whose message is the schema's words after the parameter's name.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidDateError, InvalidParameterError } from '../../src/domain/errors.js';
import { readInput } from '../../src/domain/input.js';
import {
  asOf,
  instant,
  INSTANT_PATTERN,
  observedAt,
  outlierStddevs,
  refsourceId,
  snapshotDate,
  snapshotWindow,
  windowHours,
} from '../../src/domain/params.js';

const NOW = Date.parse('2026-11-22T05:30:00Z');

const parseWindowHours = (raw: string | undefined, name = 'window_hours') =>
  readInput(windowHours, raw, name);
const parseOutlierStddevs = (raw: string | undefined, name = 'outlier_stddevs') =>
  readInput(outlierStddevs, raw, name);
const parseRefsourceId = (raw: string, name = 'refsource_id') => readInput(refsourceId, raw, name);
const parseAsOf = (raw: string | undefined, now: number, name = 'at') =>
  asOf(raw === undefined ? undefined : readInput(instant, raw, name), now, name);
const parseObservedAt = (raw: string, now: number, name = '--observed-at') =>
  observedAt(readInput(instant, raw, name), now, name);
/** A snapshot date's refusal is the API's 422 (InvalidDateError), whichever check refused it. */
function parseSnapshotDate(raw: string | undefined, now: number, name = 'date') {
  const result = snapshotDate.safeParse(raw);
  if (!result.success) throw new InvalidDateError(name, `${name} ${result.error.issues[0]?.message}`);
  return snapshotWindow(result.data, now, name);
}

describe('pricing parameters', () => {
  it.each([
    [undefined, 24],
    ['1', 1],
    ['72', 72],
  ])('window_hours %j gives %d', (raw, expected) => {
    expect(parseWindowHours(raw)).toBe(expected);
  });

  it.each(['0', '73', '-1', '1.5', 'abc', '', '1e2', '24h', '-0'])(
    'window_hours %j is refused naming the range',
    (raw) => {
      expect(() => parseWindowHours(raw)).toThrow(InvalidParameterError);
      expect(() => parseWindowHours(raw)).toThrow(
        `window_hours must be an integer from 1 to 72 (got ${JSON.stringify(raw)})`,
      );
    },
  );

  // A canonical decimal integer only: another spelling of a value in range says how to write it.
  it.each([' 24', '24 ', '+24', '024', '24\n', '24.0', '2.4e1', '0x18', ' 12 '])(
    'window_hours %j is refused, naming the spelling',
    (raw) => {
      expect(() => parseWindowHours(raw)).toThrow(
        `window_hours must be an integer from 1 to 72, written as digits only (no sign, spaces, leading zeros or decimals) (got ${JSON.stringify(raw)})`,
      );
    },
  );

  it.each([
    [undefined, 2],
    ['1', 1],
    ['10', 10],
  ])('outlier_stddevs %j gives %d', (raw, expected) => {
    expect(parseOutlierStddevs(raw)).toBe(expected);
  });

  it.each(['0', '11', '2.5', 'two', '1e1', '+2', '02', ' 2'])(
    'outlier_stddevs %j is refused naming the range',
    (raw) => {
      expect(() => parseOutlierStddevs(raw, '--outlier-stddevs')).toThrow(
        '--outlier-stddevs must be an integer from 1 to 10',
      );
    },
  );

  it('names the parameter the way the caller spells it', () => {
    expect(() => parseWindowHours('99', '--window-hours')).toThrow(/^--window-hours must be/);
  });
});

describe('as-of time', () => {
  it('defaults to now', () => {
    expect(parseAsOf(undefined, NOW)).toBe(NOW);
  });
  it.each([
    ['2026-11-01T00:00:00Z', Date.parse('2026-11-01T00:00:00Z')],
    ['2026-11-01T02:00:00+02:00', Date.parse('2026-11-01T00:00:00Z')],
    ['2026-11-01T00:00Z', Date.parse('2026-11-01T00:00:00Z')],
  ])('%s is read with its zone', (raw, expected) => {
    expect(parseAsOf(raw, NOW)).toBe(expected);
  });
  it('accepts now itself', () => {
    expect(parseAsOf('2026-11-22T05:30:00Z', NOW)).toBe(NOW);
    expect(parseAsOf('now', NOW)).toBe(NOW);
  });
  it.each([
    ['2026-11-01', Date.parse('2026-11-01T23:59:59.999Z')],
    ['2026-11-22', NOW],
    ['30d', NOW - 30 * 86_400_000],
    ['12h', NOW - 12 * 3_600_000],
  ])('%s, as people write it, is the instant the price on that date or that long ago is', (raw, expected) => {
    expect(parseAsOf(raw, NOW)).toBe(expected);
  });
  it.each<[string, RegExp]>([
    ['2026-11-01T00:00:00', /^--at "2026-11-01T00:00:00" has no time zone/],
    ['2026-11-01T00:00', /^--at "2026-11-01T00:00" has no time zone/],
    [
      'yesterday',
      /^--at must be an ISO-8601 date-time with Z or an offset \(2026-10-28T12:00:00Z\), a date alone \(2026-10-28\), a span before now \(30d, 12h, 2w\) or now \(got "yesterday"\)$/,
    ],
    ['2026-11-23', /^--at "2026-11-23" is in the future \(now is 2026-11-22T05:30:00Z\)/],
    ['0999-01-01', /^--at "0999-01-01" is outside the years 1000 to 9999$/],
    ['2026-02-30T00:00:00Z', /^--at "2026-02-30T00:00:00Z" is not a real date: February 2026 has 28 days$/],
    ['2026-11-01T24:00:00Z', /^--at "2026-11-01T24:00:00Z" is not a real time: there is no hour 24/],
    ['2026-11-22T05:30:01Z', /^--at "2026-11-22T05:30:01Z" is in the future \(now is 2026-11-22T05:30:00Z\)/],
    ['2027-01-01T00:00:00Z', /^--at "2027-01-01T00:00:00Z" is in the future/],
  ])('%s is refused: %s', (raw, message) => {
    expect(() => parseAsOf(raw, NOW, '--at')).toThrow(InvalidParameterError);
    expect(() => parseAsOf(raw, NOW, '--at')).toThrow(message);
  });
  it('names the API parameter at by default', () => {
    let error: unknown;
    try {
      parseAsOf('2030-01-01T00:00:00Z', NOW);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect((error as InvalidParameterError).parameter).toBe('at');
    expect((error as Error).message).toMatch(/^at "2030-01-01T00:00:00Z" is in the future/);
  });
});

describe('--observed-at', () => {
  it.each<[string, number]>([
    ['2026-11-22T05:00:00Z', Date.parse('2026-11-22T05:00:00Z')],
    // Five minutes of clock skew are tolerated, as for every ingested observation.
    ['2026-11-22T05:35:00Z', Date.parse('2026-11-22T05:35:00Z')],
    // A date alone is its start, as a price guide's daily file is dated; a span is before now.
    ['2026-11-20', Date.parse('2026-11-20T00:00:00Z')],
    ['2d', NOW - 2 * 86_400_000],
  ])('%s is read', (raw, expected) => {
    expect(parseObservedAt(raw, NOW)).toBe(expected);
  });
  it.each<[string, RegExp]>([
    [
      '2026-11-22T05:35:01Z',
      /^--observed-at 2026-11-22T05:35:01Z is in the future \(more than 5 minutes after now, 2026-11-22T05:30:00Z\)$/,
    ],
    [
      '2025-02-29T00:00:00Z',
      /^--observed-at "2025-02-29T00:00:00Z" is not a real date: February 2025 has 28 days$/,
    ],
  ])('%s is refused: %s', (raw, message) => {
    expect(() => parseObservedAt(raw, NOW)).toThrow(message);
  });
});

describe('snapshot date', () => {
  it('spans 00:00Z of the date to 00:00Z of the next day', () => {
    expect(parseSnapshotDate('2026-02-28', NOW)).toEqual({
      start: Date.parse('2026-02-28T00:00:00Z'),
      end: Date.parse('2026-03-01T00:00:00Z'),
    });
  });
  it('accepts today (UTC)', () => {
    expect(parseSnapshotDate('2026-11-22', NOW).start).toBe(Date.parse('2026-11-22T00:00:00Z'));
  });
  it.each([
    [undefined, /required/],
    ['', /required/],
    ['2026-11-23', /in the future/],
    ['2026-02-30', /^date "2026-02-30" is not a real date: February 2026 has 28 days$/],
    ['2025-02-29', /^date "2025-02-29" is not a real date/],
    ['2026-13-01', /^date "2026-13-01" is not a real date: there is no month 13$/],
    ['22/11/2026', /^date must be a date as YYYY-MM-DD \(got "22\/11\/2026"\)$/],
    ['2026-11-2', /YYYY-MM-DD/],
  ])('%j is refused: %s', (raw, message) => {
    expect(() => parseSnapshotDate(raw, NOW)).toThrow(InvalidDateError);
    expect(() => parseSnapshotDate(raw, NOW)).toThrow(message);
  });
});

describe('refsource ids', () => {
  it.each(['0', '631245', '9'.repeat(20)])('%j is one', (raw) => {
    expect(parseRefsourceId(raw)).toBe(raw);
  });

  it.each(['', '1'.repeat(21), '12ab', ' 1', '1 ', '-1', '1.0', '\u0663'])(
    '%j is refused naming the parameter as the caller spells it',
    (raw) => {
      expect(() => parseRefsourceId(raw)).toThrow(
        new InvalidParameterError(
          'refsource_id',
          `refsource_id must be a string of 1 to 20 digits (got ${JSON.stringify(raw)})`,
        ),
      );
      expect(() => parseRefsourceId(raw, '--refsource')).toThrow(
        `--refsource must be a string of 1 to 20 digits (got ${JSON.stringify(raw)})`,
      );
    },
  );
});

describe('the pattern the API document gives instants', () => {
  it('matches exactly the texts an instant input takes', () => {
    const pattern = new RegExp(INSTANT_PATTERN);
    const near = fc.oneof(
      fc.stringMatching(
        /^[0-9]{4}-[0-9]{2}-[0-9]{2}([Tt ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,10})?)?([zZ]|[+-][0-9]{2}:?[0-9]{2})?)?$/,
      ),
      fc.stringMatching(/^[0-9]{1,5} ?[hdwmHDW]( ago| AGO)?$/),
      fc.stringMatching(new RegExp(INSTANT_PATTERN)),
      fc.constantFrom(
        'now',
        'Now',
        'nOW',
        'now ',
        '2024-02-29',
        '2100-02-29',
        '2000-02-29',
        '1900-02-29',
        '0999-12-31',
        '1000-01-01',
      ),
    );
    fc.assert(
      fc.property(near, (text) => {
        expect(pattern.test(text), text).toBe(instant.safeParse(text).success);
      }),
      { numRuns: 600, seed: 20261127 },
    );
  });
});
