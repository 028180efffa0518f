/**
 * Currency conversion at reference rates (docs/methodology.md §16): pure, the rates handed
 * in. Every rate is the ECB's, euros to the currency (`perEuro` units of it for one euro);
 * a conversion between two other currencies crosses through the euro on the same day.
 */
import { RATE_CARRY_DAYS } from './methodology.js';

const DAY_MS = 86_400_000;

/** ISO 4217 currencies without minor units among the ECB's: their amounts are whole units. */
const NO_MINOR_UNITS: ReadonlySet<string> = new Set(['JPY', 'KRW', 'ISK']);

/** Decimal digits of a currency's minor unit (ISO 4217): 0 for JPY, KRW, ISK; 2 otherwise. */
export function minorDigits(currency: string): number {
  return NO_MINOR_UNITS.has(currency) ? 0 : 2;
}

/** One currency's rates, by day: `days[i]` (days since 1970-01-01 UTC), ascending, `perEuro[i]` its rate. */
interface RateSeries {
  days: number[];
  perEuro: number[];
}

/** Every currency's rates; built once from the store's rows (`rateTable`). */
export interface RateTable {
  readonly series: ReadonlyMap<string, RateSeries>;
  /** Who published the rates (`ecb`), for the meta of a converted price. */
  readonly source: string;
}

/** The table of `rates` (rows in any order; days as YYYY-MM-DD). */
export function rateTable(
  rates: readonly { day: string; currency: string; perEuro: number; source: string }[],
): RateTable {
  const series = new Map<string, RateSeries>();
  const rows = [...rates].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  for (const r of rows) {
    let s = series.get(r.currency);
    if (s === undefined) series.set(r.currency, (s = { days: [], perEuro: [] }));
    s.days.push(Math.floor(Date.parse(`${r.day}T00:00:00Z`) / DAY_MS));
    s.perEuro.push(r.perEuro);
  }
  return { series, source: rates[0]?.source ?? 'ecb' };
}

/** A rate used: `perEuro` units of the currency per euro, published for `day` (YYYY-MM-DD). */
export interface RateUsed {
  perEuro: number;
  day: string;
}

/**
 * The rate of `currency` for the instant `at` (epoch ms): that UTC day's, else the last one
 * before it within RATE_CARRY_DAYS (weekends and holidays have none); null when there is none.
 * The euro's own rate is 1 on every day.
 */
export function rateOn(table: RateTable, currency: string, at: number): RateUsed | null {
  const day = Math.floor(at / DAY_MS);
  if (currency === 'EUR') return { perEuro: 1, day: isoDay(day) };
  const s = table.series.get(currency);
  if (s === undefined) return null;
  // The last index whose day is on or before `day`.
  let lo = 0;
  let hi = s.days.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (s.days[mid]! <= day) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (found < 0 || day - s.days[found]! > RATE_CARRY_DAYS) return null;
  return { perEuro: s.perEuro[found]!, day: isoDay(s.days[found]!) };
}

/** A conversion: the amount in the target's minor units and the rate day it used (the later of the two currencies'). */
export interface Converted {
  amountMinor: number;
  rateDay: string;
}

/**
 * `amountMinor` of `from` in `to`'s minor units at the rates of the instant `at`, rounded to
 * the nearest minor unit (halves away from zero); null when a rate is missing.
 */
export function convertMinor(
  table: RateTable,
  amountMinor: number,
  from: string,
  to: string,
  at: number,
): Converted | null {
  if (from === to) return { amountMinor, rateDay: isoDay(Math.floor(at / DAY_MS)) };
  const a = rateOn(table, from, at);
  const b = rateOn(table, to, at);
  if (a === null || b === null) return null;
  const units = (amountMinor / 10 ** minorDigits(from)) * (b.perEuro / a.perEuro);
  const minor = units * 10 ** minorDigits(to);
  return {
    amountMinor: Math.sign(minor) * Math.round(Math.abs(minor)),
    rateDay: from === 'EUR' ? b.day : to === 'EUR' ? a.day : a.day > b.day ? a.day : b.day,
  };
}

function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}
