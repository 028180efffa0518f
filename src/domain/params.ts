/**
 * Validation of the pricing parameters, shared by the CLI and the API so both name the
 * parameter and its range in the same words (CONTRACT.md decision 1).
 */
import { InvalidDateError, InvalidParameterError } from './errors.js';
import { OUTLIER_STDDEVS, WINDOW_HOURS } from './bundle.js';
import { DAY_MS, parseUtcDate, parseZonedDateTime, toUtcDate } from './time.js';

/** Parses an integer parameter in [min, max]; `undefined` gives the default. */
export function parseIntInRange(
  name: string,
  raw: string | undefined,
  range: { min: number; max: number; default: number },
): number {
  if (raw === undefined) return range.default;
  const text = raw.trim();
  if (!/^[+-]?\d+$/.test(text) || Number(text) < range.min || Number(text) > range.max) {
    throw new InvalidParameterError(
      name,
      `${name} must be an integer from ${range.min} to ${range.max} (got ${JSON.stringify(raw)})`,
    );
  }
  return Number(text);
}

export function parseWindowHours(raw: string | undefined): number {
  return parseIntInRange('window_hours', raw, WINDOW_HOURS);
}

export function parseOutlierStddevs(raw: string | undefined): number {
  return parseIntInRange('outlier_stddevs', raw, OUTLIER_STDDEVS);
}

/** Parses `--at`: an ISO-8601 date-time with a zone; `undefined` means now. */
export function parseAsOf(raw: string | undefined, now: number): number {
  if (raw === undefined) return now;
  const ms = parseZonedDateTime(raw);
  if (ms === null) {
    throw new InvalidParameterError('at', `at must be an ISO-8601 date-time with Z or an offset (got ${JSON.stringify(raw)})`);
  }
  return ms;
}

/**
 * A snapshot date: YYYY-MM-DD, today (UTC) at the latest. Returns the window of
 * CONTRACT.md decision 2: from 00:00:00Z of the date to 00:00:00Z of the next day.
 */
export function parseSnapshotDate(raw: string | undefined, now: number): { start: number; end: number } {
  if (raw === undefined || raw === '') throw new InvalidDateError('date', 'date is required, as YYYY-MM-DD');
  const start = parseUtcDate(raw);
  if (start === null) throw new InvalidDateError('date', `date must be a real calendar date as YYYY-MM-DD (got ${JSON.stringify(raw)})`);
  if (raw > toUtcDate(now)) throw new InvalidDateError('date', `date ${raw} is in the future (today is ${toUtcDate(now)} UTC)`);
  return { start, end: start + DAY_MS };
}
