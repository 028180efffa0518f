/**
 * The inputs of pricing, one schema each (input.ts), shared by the CLI and the API: the
 * pricing parameters, the product's reference-source id and key, instants and dates. What
 * needs the clock (an instant not later than now, a date not after today) is a function
 * beside its schema, since a schema has no clock: the CLI calls it with the run's, the API
 * with the request's.
 */
import * as z from 'zod/mini';
import { InvalidDateError, InvalidParameterError } from './errors.js';
import { OUTLIER_STDDEVS, WINDOW_HOURS } from './bundle.js';
import { checkedText, deferred, integerWithDefault } from './input.js';
import { futureObservationProblem } from './observation.js';
import { DAY_MS, parseCalendarDate, parseInstant, toIsoUtc, toUtcDate } from './time.js';

/** `window_hours` / `--window-hours`: the TWAP lookback, 1-72, default 24. */
export const windowHours = integerWithDefault(WINDOW_HOURS);

/** `outlier_stddevs` / `--outlier-stddevs`: the outlier threshold, 1-10, default 2. */
export const outlierStddevs = integerWithDefault(OUTLIER_STDDEVS);

/** A reference-source id: 1 to 20 digits, the ids the catalog stores (SPEC.md 4.3). */
export const REFSOURCE_ID = /^\d{1,20}$/;

/** `refsource_id` / `--refsource`: a reference-source id. */
export const refsourceId = checkedText(
  (raw) => (raw !== undefined && REFSOURCE_ID.test(raw) ? null : `must be a string of 1 to 20 digits (got ${JSON.stringify(raw)})`),
  REFSOURCE_ID,
);

/** `product_key`: a catalog key; which keys exist is the catalog's answer, not the input's. */
export const productKey = deferred(() => checkedText((raw) => (raw === undefined || raw === '' ? 'is required: a catalog key' : null)).check(z.minLength(1)));

/**
 * `extra_grades` of the pricing routes: `true` adds the bundle's extra grades (CONTRACT.md
 * additions 6), `false` (the default) leaves SPEC's body as it is. Its value is the text.
 */
export const extraGradesFlag = checkedText(
  (raw) => (raw === 'true' || raw === 'false' ? null : `must be true or false (got ${JSON.stringify(raw)})`),
  /^(true|false)$/,
);

/**
 * An ISO-8601 instant with a zone, as time.ts reads it (RFC 3339, plus a space or lower-case
 * `t` for `T`, optional seconds, `+hhmm` offsets): `at`, `from`, `to`, `--at`, `--observed-at`.
 * Its value is the text; whether it is later than now is asOf's check, which has a clock.
 */
export const instant = checkedText((raw) => {
  if (raw === undefined) return 'is required: an ISO-8601 date-time with Z or an offset';
  const ms = parseInstant(raw);
  return typeof ms === 'string' ? ms : null;
});

/** The epoch ms of a text `instant` took. */
function instantMs(text: string): number {
  return parseInstant(text) as number;
}

/**
 * The as-of instant of a price (`--at` in the CLI, `at` in the API), a text `instant` took:
 * not later than `now` (CONTRACT.md, additions item 2); `undefined` means now. Throws
 * InvalidParameterError (exit 2, HTTP 400) naming `name`.
 */
export function asOf(text: string | undefined, now: number, name: string): number {
  if (text === undefined) return now;
  const ms = instantMs(text);
  if (ms > now) {
    throw new InvalidParameterError(name, `${name} ${JSON.stringify(text)} is in the future (now is ${toIsoUtc(now)}): prices are known up to now`);
  }
  return ms;
}

/**
 * `--observed-at`, the time of a feed's quotes, a text `instant` took: at most the observation
 * clock skew after `now` (the rule every ingested observation meets).
 */
export function observedAt(text: string, now: number, name: string): number {
  const ms = instantMs(text);
  const future = futureObservationProblem(ms, now, name);
  if (future !== null) throw new InvalidParameterError(name, future);
  return ms;
}

/**
 * `date` / `--date` of a snapshot: required, YYYY-MM-DD, a real date. Its value is the text;
 * whether it is after today is snapshotWindow's check. A refusal is a 422 in the API
 * (CONTRACT.md decision 2), which the API's schema registers.
 */
export const snapshotDate = checkedText((raw) => {
  if (raw === undefined || raw === '') return 'is required, as YYYY-MM-DD';
  const start = parseCalendarDate(raw);
  return typeof start === 'string' ? start : null;
});

/**
 * The window of a snapshot date `snapshotDate` took, today (UTC) at the latest: from
 * 00:00:00Z of the date to 00:00:00Z of the next day (CONTRACT.md decision 2).
 */
export function snapshotWindow(text: string, now: number, name: string): { start: number; end: number } {
  if (text > toUtcDate(now)) {
    throw new InvalidDateError(name, `${name} ${text} is in the future (today is ${toUtcDate(now)} UTC)`);
  }
  const start = parseCalendarDate(text) as number;
  return { start, end: start + DAY_MS };
}
