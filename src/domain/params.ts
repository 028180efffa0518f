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
import {
  DAY_MS,
  INSTANT_INPUT_HELP,
  parseCalendarDate,
  parseInstantInput,
  toIsoUtc,
  toUtcDate,
  type DayEdge,
} from './time.js';

/** `window_hours` / `--window-hours`: the TWAP lookback, 1-72, default 24. */
export const windowHours = integerWithDefault(WINDOW_HOURS);

/** `outlier_stddevs` / `--outlier-stddevs`: the outlier threshold, 1-10, default 2. */
export const outlierStddevs = integerWithDefault(OUTLIER_STDDEVS);

/**
 * `currency` / `--currency`: an ISO 4217 code (any case) to price in besides US cents, each
 * observation converted at its own day's reference rate (CONTRACT.md additions 20); which
 * codes have rates is the store's answer.
 */
export const currencyCode = checkedText(
  (raw) =>
    raw !== undefined && /^[A-Za-z]{3}$/.test(raw)
      ? null
      : `must be an ISO 4217 currency code such as EUR, GBP or JPY (got ${JSON.stringify(raw)})`,
  /^[A-Za-z]{3}$/,
);

/** A reference-source id: 1 to 20 digits, the ids the catalog stores (SPEC.md 4.3). */
export const REFSOURCE_ID = /^\d{1,20}$/;

/** `refsource_id` / `--refsource`: a reference-source id. */
export const refsourceId = checkedText(
  (raw) =>
    raw !== undefined && REFSOURCE_ID.test(raw)
      ? null
      : `must be a string of 1 to 20 digits (got ${JSON.stringify(raw)})`,
  REFSOURCE_ID,
);

/** `product_key`: a catalog key; which keys exist is the catalog's answer, not the input's. */
export const productKey = deferred(() =>
  checkedText((raw) => (raw === undefined || raw === '' ? 'is required: a catalog key' : null)).check(
    z.minLength(1),
  ),
);

/**
 * `extra_grades` of the pricing routes: `true` adds the bundle's extra grades (CONTRACT.md
 * additions 6), `false` (the default) leaves SPEC's body as it is. Its value is the text.
 */
export const extraGradesFlag = checkedText(
  (raw) => (raw === 'true' || raw === 'false' ? null : `must be true or false (got ${JSON.stringify(raw)})`),
  /^(true|false)$/,
);

/**
 * An instant as people write it (time.ts parseInstantInput: an ISO-8601 instant with its zone,
 * a date alone, a span before now such as `30d`, or `now`): `at`, `from`, `to`, `--at`,
 * `--observed-at`. Its value is the text; what it stands for needs the clock (a span, a date
 * that is today), and so does whether it is later than now: asOf's part.
 */
export const instant = checkedText((raw) => {
  if (raw === undefined) return `is required: ${INSTANT_INPUT_HELP}`;
  // The form does not depend on the clock (parseInstantInput), so any instant checks it.
  const ms = parseInstantInput(raw, 0);
  return typeof ms === 'string' ? ms : null;
});

/** Years 1000-9999 that are leap years (divisible by 4, centuries only when divisible by 400). */
const LEAP_YEAR = '(?:[1-9][0-9](?:0[48]|[2468][048]|[13579][26])|(?:[2468][048]|[13579][26])00)';
/** A real date of years 1000-9999 (time.ts YEAR_RANGE), as a pattern. */
const REAL_DATE = `(?:[1-9][0-9]{3}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))|${LEAP_YEAR}-02-29)`;
/**
 * The texts `instant` takes, as a pattern for the API's document (JSON Schema has no parser,
 * and its `date-time` format refuses `30d`): `now`, a span, a real date alone, or a date and
 * a real time with its zone. Every text it matches is taken, and every text taken matches it.
 */
export const INSTANT_PATTERN =
  `^(?:[Nn][Oo][Ww]|[0-9]{1,4} ?[HhDdWw](?: [Aa][Gg][Oo])?|${REAL_DATE}` +
  '(?:[Tt ](?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\\.[0-9]{1,9})?)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):?[0-5][0-9]))?)$';

/** The epoch ms of a text `instant` took, at `now`; a date alone is its `day` edge. */
function instantMs(text: string, now: number, day: DayEdge): number {
  return parseInstantInput(text, now, day) as number;
}

/**
 * An instant a text `instant` took stands for, not later than `now`: the as-of instant of a
 * price (`--at` in the CLI, `at` in the API) and the ends of a history (`from` with `day`
 * `start`). `undefined` means now. A date alone is the end of its UTC day (or now, today)
 * unless `day` says `start` (CONTRACT.md, additions 2 and 8). Throws InvalidParameterError
 * (exit 2, HTTP 400) naming `name`.
 */
export function asOf(text: string | undefined, now: number, name: string, day: DayEdge = 'end'): number {
  if (text === undefined) return now;
  const ms = instantMs(text, now, day);
  if (ms > now) {
    throw new InvalidParameterError(
      name,
      `${name} ${JSON.stringify(text)} is in the future (now is ${toIsoUtc(now)}): prices are known up to now`,
    );
  }
  return ms;
}

/**
 * `--observed-at`, the time of a feed's quotes, a text `instant` took: at most the observation
 * clock skew after `now` (the rule every ingested observation meets). A date alone is its
 * 00:00:00Z, as the daily files of price guides are dated.
 */
export function observedAt(text: string, now: number, name: string): number {
  const ms = instantMs(text, now, 'start');
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
