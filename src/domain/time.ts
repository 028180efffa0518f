/** UTC time helpers shared by every layer. Times are epoch milliseconds. */

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** ISO-8601 UTC with milliseconds dropped: 2026-11-22T05:00:00Z. */
export function toIsoUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The UTC calendar date (YYYY-MM-DD) of an instant. */
export function toUtcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const DATE_TIME_WITH_ZONE =
  /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Parses an ISO-8601 date-time that names its zone (`Z` or an offset).
 * Returns null for anything else, a time without zone included: it would be ambiguous.
 */
export function parseZonedDateTime(text: string): number | null {
  const trimmed = text.trim();
  if (!DATE_TIME_WITH_ZONE.test(trimmed)) return null;
  const ms = Date.parse(trimmed.replace(' ', 'T'));
  return Number.isFinite(ms) ? ms : null;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses a YYYY-MM-DD calendar date to its 00:00:00Z instant; null when malformed or not a real date. */
export function parseUtcDate(text: string): number | null {
  const m = DATE_ONLY.exec(text);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return toUtcDate(ms) === text ? ms : null;
}
