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

/** `name` is how the caller spells the parameter: `window_hours` in the API, `--window-hours` in the CLI. */
export function parseWindowHours(raw: string | undefined, name = 'window_hours'): number {
  return parseIntInRange(name, raw, WINDOW_HOURS);
}

export function parseOutlierStddevs(raw: string | undefined, name = 'outlier_stddevs'): number {
  return parseIntInRange(name, raw, OUTLIER_STDDEVS);
}

/** Parses `--at`: an ISO-8601 date-time with a zone; `undefined` means now. */
export function parseAsOf(raw: string | undefined, now: number, name = 'at'): number {
  if (raw === undefined) return now;
  const ms = parseZonedDateTime(raw);
  if (ms === null) {
    throw new InvalidParameterError(name, `${name} must be an ISO-8601 date-time with Z or an offset (got ${JSON.stringify(raw)})`);
  }
  return ms;
}

/**
 * A snapshot date: YYYY-MM-DD, today (UTC) at the latest. Returns the window of
 * CONTRACT.md decision 2: from 00:00:00Z of the date to 00:00:00Z of the next day.
 */
export function parseSnapshotDate(
  raw: string | undefined,
  now: number,
  name = 'date',
): { start: number; end: number } {
  if (raw === undefined || raw === '') throw new InvalidDateError(name, `${name} is required, as YYYY-MM-DD`);
  const start = parseUtcDate(raw);
  if (start === null) {
    throw new InvalidDateError(name, `${name} must be a real calendar date as YYYY-MM-DD (got ${JSON.stringify(raw)})`);
  }
  if (raw > toUtcDate(now)) {
    throw new InvalidDateError(name, `${name} ${raw} is in the future (today is ${toUtcDate(now)} UTC)`);
  }
  return { start, end: start + DAY_MS };
}
