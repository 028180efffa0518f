/**
 * UTC time helpers shared by every layer, and the one strict reader of instants and calendar
 * dates. Times are epoch milliseconds. Nothing here goes through `Date.parse` or `Date.UTC`:
 * both shift an impossible date (2026-02-30 becomes March 2nd, T24:00 the next day) and
 * `Date.UTC` maps years 0-99 to the 1900s, so fields are checked and converted by hand.
 */

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
const MINUTE_MS = 60_000;

/**
 * The years a date or instant may name, wherever one is taken (ingest records, release dates,
 * `--at`, the API's `at` and `date`): four digits, so every instant oracle writes back is an
 * RFC 3339 date-time (year 0000 is refused by RFC 3339's readers, and `Date` writes years
 * past 9999 as `+010000`). No card sold before 1000 or after 9999.
 */
export const YEAR_RANGE = { min: 1000, max: 9999 } as const;

/** The first instant of YEAR_RANGE: a span reaching back before it would be written as a year before 1000. */
export const EARLIEST_MS = Date.UTC(YEAR_RANGE.min, 0, 1);

/** ISO-8601 UTC with milliseconds dropped: 2026-11-22T05:00:00Z. */
export function toIsoUtc(ms: number): string {
  // toISOString always ends in milliseconds and Z (".sssZ").
  return `${new Date(ms).toISOString().slice(0, -5)}Z`;
}

/** The UTC calendar date (YYYY-MM-DD) of an instant. */
export function toUtcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Why a text is no instant (or no calendar date), as the rest of a sentence that starts with
 * the parameter's name: `must be a date as YYYY-MM-DD (got "14/10/2026")`,
 * `"2026-02-30" is not a real date: February 2026 has 28 days`.
 */
export type DateProblem = string;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A date, or a date-time without zone: well formed, but no instant until a zone is given. */
const ZONELESS = /^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/;

/** The text for a message: quoted, and cut short when long. */
function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

/**
 * Reads an ISO-8601 instant that names its zone: `YYYY-MM-DDThh:mm[:ss[.fraction]]` then `Z`
 * or an offset `+hh:mm` / `+hhmm` (`-00:00` is UTC, as in RFC 3339). `T` may be a space or
 * lower case, `Z` lower case; the fraction has 1 to 9 digits, kept to the millisecond
 * (truncated). No surrounding space. A date or time that does not exist (2026-02-30, month
 * 13, day 00, T24:00, minute 60, leap second 60) is refused with its reason, never shifted.
 * Returns the epoch ms, or the problem (a string only when the text is no instant, so the
 * hot ingest path allocates nothing).
 */
export function parseInstant(text: string): number | DateProblem {
  const n = text.length;
  if (n < 17 || !isDateShape(text) || !isSeparator(text.charCodeAt(10)) || text.charCodeAt(13) !== 0x3a)
    return instantFormProblem(text);
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  if (hour < 0 || minute < 0) return instantFormProblem(text);
  let at = 16;
  let second = 0;
  let millis = 0;
  if (text.charCodeAt(at) === 0x3a) {
    second = twoDigits(text, at + 1);
    if (second < 0) return instantFormProblem(text);
    at += 3;
    if (text.charCodeAt(at) === 0x2e) {
      const start = at + 1;
      at = start;
      while (at < n && isDigit(text.charCodeAt(at))) at += 1;
      const digits = at - start;
      if (digits === 0 || digits > 9) return instantFormProblem(text);
      for (let i = 0; i < 3; i += 1)
        millis = millis * 10 + (i < digits ? text.charCodeAt(start + i) - 0x30 : 0);
    }
  }
  let offsetMinutes = 0;
  const zone = text.charCodeAt(at);
  if (zone === 0x5a || zone === 0x7a) {
    if (at + 1 !== n) return instantFormProblem(text); // Z or z
  } else if (zone === 0x2b || zone === 0x2d) {
    const colon = text.charCodeAt(at + 3) === 0x3a ? 1 : 0;
    const offsetHour = twoDigits(text, at + 1);
    const offsetMinute = twoDigits(text, at + 3 + colon);
    if (at + 5 + colon !== n || offsetHour < 0 || offsetMinute < 0) return instantFormProblem(text);
    if (offsetHour > 23 || offsetMinute > 59)
      return `${quote(text)} has an offset that does not exist: ${text.slice(at)}`;
    offsetMinutes = (zone === 0x2d ? -1 : 1) * (offsetHour * 60 + offsetMinute);
  } else return instantFormProblem(text);

  const day = dayNumber(text);
  if (typeof day === 'string') return day;
  if (hour > 23)
    return `${quote(text)} is not a real time: there is no hour ${hour} (midnight is 00:00 of the next day)`;
  if (minute > 59) return `${quote(text)} is not a real time: there is no minute ${minute}`;
  if (second === 60) return `${quote(text)} is not a real time: leap second 60 is not accepted (use 59)`;
  if (second > 59) return `${quote(text)} is not a real time: there is no second ${second}`;
  return day * DAY_MS + hour * HOUR_MS + (minute - offsetMinutes) * MINUTE_MS + second * 1000 + millis;
}

/** Reads a calendar date written exactly `YYYY-MM-DD`: its 00:00:00Z instant, or the problem. */
export function parseCalendarDate(text: string): number | DateProblem {
  if (text.length !== 10 || !isDateShape(text)) return `must be a date as YYYY-MM-DD (got ${quote(text)})`;
  const day = dayNumber(text);
  return typeof day === 'string' ? day : day * DAY_MS;
}

function instantFormProblem(text: string): DateProblem {
  return ZONELESS.test(text)
    ? `${quote(text)} has no time zone: add Z or an offset (a local time is ambiguous)`
    : `must be an ISO-8601 date-time with Z or an offset, such as 2026-11-22T05:00:00Z (got ${quote(text)})`;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isSeparator = (c: number) => c === 0x54 || c === 0x74 || c === 0x20; // T, t, space

/** Two digits at `at` as a number, or -1. */
function twoDigits(text: string, at: number): number {
  const a = text.charCodeAt(at);
  const b = text.charCodeAt(at + 1);
  return isDigit(a) && isDigit(b) ? (a - 0x30) * 10 + (b - 0x30) : -1;
}

const DATE_DIGITS = [0, 1, 2, 3, 5, 6, 8, 9];

/** `DDDD-DD-DD` at the start of `text` (digits and dashes only; the values are checked by dayNumber). */
function isDateShape(text: string): boolean {
  if (text.charCodeAt(4) !== 0x2d || text.charCodeAt(7) !== 0x2d) return false;
  for (const i of DATE_DIGITS) if (!isDigit(text.charCodeAt(i))) return false;
  return true;
}

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** The days of `month` (1-12) of `year`, proleptic Gregorian. */
function daysInMonth(year: number, month: number): number {
  return month === 2
    ? isLeapYear(year)
      ? 29
      : 28
    : month === 4 || month === 6 || month === 9 || month === 11
      ? 30
      : 31;
}

/** Days since 1970-01-01 of the date at the start of `text` (shape already checked), or why it does not exist. */
function dayNumber(text: string): number | DateProblem {
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  if (year < YEAR_RANGE.min)
    return `${quote(text)} is outside the years ${YEAR_RANGE.min} to ${YEAR_RANGE.max}`;
  if (month < 1 || month > 12) return notADate(text, `there is no month ${text.slice(5, 7)}`);
  const last = daysInMonth(year, month);
  if (day < 1) return notADate(text, `there is no day ${text.slice(8, 10)}`);
  if (day > last) return notADate(text, `${MONTHS[month - 1]} ${year} has ${last} days`);
  return daysFromCivil(year, month, day);
}

function notADate(text: string, why: string): DateProblem {
  return `${quote(text)} is not a real date: ${why}`;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/**
 * Which instant of its UTC day a date written alone (`2026-10-28`) stands for: `start`, its
 * 00:00:00Z (`from`, `--from`, `--observed-at`: a span starts with the whole day); `end`, its
 * last millisecond, 23:59:59.999Z, or now when the day is today (`at`, `to`, `--at`, `--to`:
 * the price at the close of that date, as PriceCharting shows a price on a date). The end is
 * inside the day, not the next midnight, so it is shown with its own date, and a daily history
 * `--from 2026-10-01 --to 2026-10-03` has one point on each of the three days.
 */
export type DayEdge = 'start' | 'end';

/** The units of a span before now (`30d`): hours, days, weeks. */
const SPAN_UNITS: Readonly<Record<string, number>> = { h: HOUR_MS, d: DAY_MS, w: 7 * DAY_MS };
/** A span before now: 0 to 9999 of a unit, optionally followed by ` ago`; 9999 weeks stays within year 1000. */
const SPAN = /^(\d{1,4}) ?([hdw])(?: ago)?$/i;

/** The length in ms of a span as parseInstantInput reads one before now (`30d`, `12h`, `2w`, `30d ago`), or null for any other text. */
export function spanLength(text: string): number | null {
  const span = SPAN.exec(text);
  return span === null ? null : Number(span[1]) * SPAN_UNITS[span[2]!.toLowerCase()]!;
}

/** What parseInstantInput takes, for messages. */
export const INSTANT_INPUT_HELP =
  'an ISO-8601 date-time with Z or an offset (2026-10-28T12:00:00Z), a date alone (2026-10-28), a span before now (30d, 12h, 2w) or now';

/**
 * An instant as people write it, for every input that takes one (CLI `--at`, `--from`,
 * `--to`, `--observed-at`; API `at`, `from`, `to`): `now` (any case); a span before `now`
 * (`30d`, `12h`, `2w`, `30d ago`); a date alone (`2026-10-28`), the instant `day` says (DayEdge);
 * or an ISO-8601 instant with its zone, as parseInstant reads it. A date that does not exist is
 * refused, never shifted, and so is a year outside YEAR_RANGE. Whether the text is taken does not
 * depend on `now`, so a schema, which has no clock, can check the form with any `now`.
 * Returns the epoch ms, or the problem.
 */
export function parseInstantInput(text: string, now: number, day: DayEdge = 'end'): number | DateProblem {
  const lower = text.toLowerCase();
  if (lower === 'now') return now;
  const span = spanLength(lower);
  if (span !== null) return now - span;
  const dated = text.length >= 10 && isDateShape(text);
  if (dated && text.length === 10) {
    const start = dayNumber(text);
    if (typeof start === 'string') return start;
    if (day === 'start') return start * DAY_MS;
    const end = (start + 1) * DAY_MS - 1;
    return start * DAY_MS <= now && now < end ? now : end;
  }
  const ms = parseInstant(text);
  return typeof ms === 'number' || dated ? ms : `must be ${INSTANT_INPUT_HELP} (got ${quote(text)})`;
}
