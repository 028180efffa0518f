/**
 * Validation of the pricing parameters, shared by the CLI and the API so both name the
 * parameter and its range in the same words (CONTRACT.md decision 1).
 */
import { InvalidDateError, InvalidParameterError } from './errors.js';
import { OUTLIER_STDDEVS, WINDOW_HOURS } from './bundle.js';
import { futureObservationProblem } from './observation.js';
import { DAY_MS, parseCalendarDate, parseInstant, toIsoUtc, toUtcDate } from './time.js';

/**
 * An integer as a program would print it: digits, no sign, spaces, leading zeros, decimals
 * or exponent (a minus only before a non-zero value). ` 24`, `+24`, `024`, `24.0`, `1e1` and
 * `24\n` are refused rather than read as 24: a client that sends them has a bug worth seeing.
 */
const CANONICAL_INTEGER = /^(0|-?[1-9]\d*)$/;

/** Parses an integer parameter in [min, max] written as a canonical integer; `undefined` gives the default. */
export function parseIntInRange(
  name: string,
  raw: string | undefined,
  range: { min: number; max: number; default: number },
): number {
  if (raw === undefined) return range.default;
  const value = CANONICAL_INTEGER.test(raw) ? Number(raw) : Number.NaN;
  if (value >= range.min && value <= range.max) return value;
  // A value in range but spelled otherwise (024, +24, 24.0) says how to spell it.
  const loose = Number(raw.trim());
  const spelling =
    raw.trim() !== '' && Number.isInteger(loose) && loose >= range.min && loose <= range.max
      ? ', written as digits only (no sign, spaces, leading zeros or decimals)'
      : '';
  throw new InvalidParameterError(
    name,
    `${name} must be an integer from ${range.min} to ${range.max}${spelling} (got ${JSON.stringify(raw)})`,
  );
}

/**
 * A whole number of at least `min`, as digits (CANONICAL_INTEGER); `unit` is what it counts,
 * for the message (`--lock-wait must be a whole number of seconds, 1 or more`).
 */
export function parseWholeNumber(name: string, raw: string, spec: { min: number; unit?: string }): number {
  const value = CANONICAL_INTEGER.test(raw) ? Number(raw) : Number.NaN;
  if (Number.isSafeInteger(value) && value >= spec.min) return value;
  const unit = spec.unit === undefined ? '' : ` of ${spec.unit}`;
  throw new InvalidParameterError(name, `${name} must be a whole number${unit}, ${spec.min} or more (got ${JSON.stringify(raw)})`);
}

/** A reference-source id: 1 to 20 digits, the ids the catalog stores (SPEC.md 4.3). */
export const REFSOURCE_ID = /^\d{1,20}$/;

export const refsourceIdProblem = (name: string, raw: unknown) => `${name} must be a string of 1 to 20 digits (got ${JSON.stringify(raw)})`;

/** A reference-source id (`--refsource`, the API's `refsource_id`), or InvalidParameterError naming `name`. */
export function parseRefsourceId(raw: string, name = 'refsource_id'): string {
  if (REFSOURCE_ID.test(raw)) return raw;
  throw new InvalidParameterError(name, refsourceIdProblem(name, raw));
}

/** `name` is how the caller spells the parameter: `window_hours` in the API, `--window-hours` in the CLI. */
export function parseWindowHours(raw: string | undefined, name = 'window_hours'): number {
  return parseIntInRange(name, raw, WINDOW_HOURS);
}

export function parseOutlierStddevs(raw: string | undefined, name = 'outlier_stddevs'): number {
  return parseIntInRange(name, raw, OUTLIER_STDDEVS);
}

/** An instant parameter (time.ts parseInstant), or InvalidParameterError naming it and the problem. */
function instantParam(name: string, raw: string): number {
  const ms = parseInstant(raw);
  if (typeof ms === 'string') throw new InvalidParameterError(name, `${name} ${ms}`);
  return ms;
}

/**
 * Parses the as-of instant of a price (`--at` in the CLI, `at` in the API): an ISO-8601
 * date-time with a zone, not later than `now` (CONTRACT.md, additions item 2); `undefined`
 * means now. Throws InvalidParameterError (exit 2, HTTP 400) naming `name`.
 */
export function parseAsOf(raw: string | undefined, now: number, name = 'at'): number {
  if (raw === undefined) return now;
  const ms = instantParam(name, raw);
  if (ms > now) {
    throw new InvalidParameterError(name, `${name} ${JSON.stringify(raw)} is in the future (now is ${toIsoUtc(now)}): prices are known up to now`);
  }
  return ms;
}

/**
 * Parses `--observed-at`, the time of a feed's quotes: an ISO-8601 date-time with a zone, at
 * most the observation clock skew after `now` (the rule every ingested observation meets).
 */
export function parseObservedAt(raw: string, now: number, name = '--observed-at'): number {
  const ms = instantParam(name, raw);
  const future = futureObservationProblem(ms, now, name);
  if (future !== null) throw new InvalidParameterError(name, future);
  return ms;
}

/** A date parameter as far as it can be checked without a clock: required, YYYY-MM-DD, a real date; its 00:00Z instant. */
export function parseDateParam(raw: string | undefined, name = 'date'): number {
  if (raw === undefined || raw === '') throw new InvalidDateError(name, `${name} is required, as YYYY-MM-DD`);
  const start = parseCalendarDate(raw);
  if (typeof start === 'string') throw new InvalidDateError(name, `${name} ${start}`);
  return start;
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
  const start = parseDateParam(raw, name);
  if ((raw as string) > toUtcDate(now)) {
    throw new InvalidDateError(name, `${name} ${raw} is in the future (today is ${toUtcDate(now)} UTC)`);
  }
  return { start, end: start + DAY_MS };
}
