/**
 * The input schemas of src/domain (and the clock's checks beside them), read as an edge reads
 * them: the value, or an error whose message is the schema's words after the parameter's name.
 */
import { describe, expect, it } from 'vitest';
import { InvalidDateError, InvalidParameterError } from '../../src/domain/errors.js';
import { readInput } from '../../src/domain/input.js';
import { asOf, instant, observedAt, outlierStddevs, refsourceId, snapshotDate, snapshotWindow, windowHours } from '../../src/domain/params.js';

const NOW = Date.parse('2026-11-22T05:30:00Z');

const parseWindowHours = (raw: string | undefined, name = 'window_hours') => readInput(windowHours, raw, name);
const parseOutlierStddevs = (raw: string | undefined, name = 'outlier_stddevs') => readInput(outlierStddevs, raw, name);
const parseRefsourceId = (raw: string, name = 'refsource_id') => readInput(refsourceId, raw, name);
const parseAsOf = (raw: string | undefined, now: number, name = 'at') => asOf(raw === undefined ? undefined : readInput(instant, raw, name), now, name);
const parseObservedAt = (raw: string, now: number, name = '--observed-at') => observedAt(readInput(instant, raw, name), now, name);
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

  it.each(['0', '73', '-1', '1.5', 'abc', '', '1e2', '24h', '-0'])('window_hours %j is refused naming the range', (raw) => {
    expect(() => parseWindowHours(raw)).toThrow(InvalidParameterError);
    expect(() => parseWindowHours(raw)).toThrow(`window_hours must be an integer from 1 to 72 (got ${JSON.stringify(raw)})`);
  });

  // A canonical decimal integer only: another spelling of a value in range says how to write it.
  it.each([' 24', '24 ', '+24', '024', '24\n', '24.0', '2.4e1', '0x18', ' 12 '])('window_hours %j is refused, naming the spelling', (raw) => {
    expect(() => parseWindowHours(raw)).toThrow(
      `window_hours must be an integer from 1 to 72, written as digits only (no sign, spaces, leading zeros or decimals) (got ${JSON.stringify(raw)})`,
    );
  });

  it.each([
    [undefined, 2],
    ['1', 1],
    ['10', 10],
  ])('outlier_stddevs %j gives %d', (raw, expected) => {
    expect(parseOutlierStddevs(raw)).toBe(expected);
  });

  it.each(['0', '11', '2.5', 'two', '1e1', '+2', '02', ' 2'])('outlier_stddevs %j is refused naming the range', (raw) => {
    expect(() => parseOutlierStddevs(raw, '--outlier-stddevs')).toThrow('--outlier-stddevs must be an integer from 1 to 10');
  });

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
  });
  it.each<[string, RegExp]>([
    ['2026-11-01T00:00:00', /^--at "2026-11-01T00:00:00" has no time zone/],
    ['2026-11-01', /^--at "2026-11-01" has no time zone/],
    ['yesterday', /^--at must be an ISO-8601 date-time with Z or an offset/],
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
  ])('%s is read', (raw, expected) => {
    expect(parseObservedAt(raw, NOW)).toBe(expected);
  });
  it.each<[string, RegExp]>([
    ['2026-11-22T05:35:01Z', /^--observed-at 2026-11-22T05:35:01Z is in the future \(more than 5 minutes after now, 2026-11-22T05:30:00Z\)$/],
    ['2025-02-29T00:00:00Z', /^--observed-at "2025-02-29T00:00:00Z" is not a real date: February 2025 has 28 days$/],
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

  it.each(['', '1'.repeat(21), '12ab', ' 1', '1 ', '-1', '1.0', '\u0663'])('%j is refused naming the parameter as the caller spells it', (raw) => {
    expect(() => parseRefsourceId(raw)).toThrow(new InvalidParameterError('refsource_id', `refsource_id must be a string of 1 to 20 digits (got ${JSON.stringify(raw)})`));
    expect(() => parseRefsourceId(raw, '--refsource')).toThrow(`--refsource must be a string of 1 to 20 digits (got ${JSON.stringify(raw)})`);
  });
});
