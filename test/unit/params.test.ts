import { describe, expect, it } from 'vitest';
import { InvalidDateError, InvalidParameterError } from '../../src/domain/errors.js';
import { parseAsOf, parseOutlierStddevs, parseSnapshotDate, parseWindowHours } from '../../src/domain/params.js';

const NOW = Date.parse('2026-11-22T05:30:00Z');

describe('pricing parameters', () => {
  it.each([
    [undefined, 24],
    ['1', 1],
    ['72', 72],
    [' 12 ', 12],
  ])('window_hours %j gives %d', (raw, expected) => {
    expect(parseWindowHours(raw)).toBe(expected);
  });

  it.each(['0', '73', '-1', '1.5', 'abc', '', '1e2', '24h'])('window_hours %j is refused naming the range', (raw) => {
    expect(() => parseWindowHours(raw)).toThrow(InvalidParameterError);
    expect(() => parseWindowHours(raw)).toThrow('window_hours must be an integer from 1 to 72');
  });

  it.each([
    [undefined, 2],
    ['1', 1],
    ['10', 10],
  ])('outlier_stddevs %j gives %d', (raw, expected) => {
    expect(parseOutlierStddevs(raw)).toBe(expected);
  });

  it.each(['0', '11', '2.5', 'two'])('outlier_stddevs %j is refused naming the range', (raw) => {
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
  it.each(['2026-11-01T00:00:00', '2026-11-01', 'yesterday'])('%s is refused as ambiguous or malformed', (raw) => {
    expect(() => parseAsOf(raw, NOW)).toThrow(InvalidParameterError);
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
    ['2026-02-30', /real calendar date/],
    ['22/11/2026', /YYYY-MM-DD/],
    ['2026-11-2', /YYYY-MM-DD/],
  ])('%j is refused: %s', (raw, message) => {
    expect(() => parseSnapshotDate(raw, NOW)).toThrow(InvalidDateError);
    expect(() => parseSnapshotDate(raw, NOW)).toThrow(message);
  });
});
