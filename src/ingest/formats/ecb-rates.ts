/**
 * The ECB's euro foreign exchange reference rates, as the ECB publishes them
 * (https://www.ecb.europa.eu/stats/eurofxref/): the history `eurofxref-hist.csv`, a day a row
 * from 1999-01-04, newest first,
 *
 *     Date,USD,JPY,BGN,CYP,CZK,...,ZAR,
 *     2026-04-13,1.1684,186.75,N/A,N/A,24.378,...
 *
 * and the day's `eurofxref.csv`, one row with a spaced header and a written date
 * (`Date, USD, JPY, ...` / `13 April 2026, 1.1684, 186.75, ...`). Each cell is how many units
 * of its column's currency one euro bought that day; `N/A` (a currency not yet or no longer
 * quoted: CYP after 2007, RUB after 2022-03-01) and the empty cell of the trailing comma are
 * no rate.
 */
import { RowRejection } from './types.js';

/** The `--format` value of the ECB's rate files. */
export const ECB_RATES_FORMAT = 'ecb-rates';

/** The ECB's files are named eurofxref*.csv (eurofxref-hist.csv, eurofxref.csv), however fetched. */
const ECB_FILE_NAME = /(^|[/\\])eurofxref[^/\\]*\.csv(\.gz)?$/i;

/** Whether a source is read as the ECB's rates: `--format ecb-rates`, or (no --format) a file named eurofxref*.csv. */
export function isEcbRatesSource(spec: string, format: string | undefined): boolean {
  return format === ECB_RATES_FORMAT || (format === undefined && ECB_FILE_NAME.test(spec));
}

const CODE = /^[A-Z]{3}$/;
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** The columns of an ECB header: the currency codes after `Date`; throws naming what is wrong. */
export function ecbColumns(header: readonly string[]): string[] {
  const cells = header.map((cell) => cell.trim());
  if (cells.at(-1) === '') cells.pop(); // the trailing comma
  if (cells[0]?.toLowerCase() !== 'date' || cells.length < 2) {
    throw new Error(
      `not the ECB's reference rates: the header should be Date,USD,JPY,... (got ${cells.slice(0, 4).join(',')})`,
    );
  }
  const codes = cells.slice(1);
  const bad = codes.find((code) => !CODE.test(code));
  if (bad !== undefined)
    throw new Error(`the ECB header's column ${JSON.stringify(bad)} is not a currency code (three capitals)`);
  return codes;
}

/** A row's date as YYYY-MM-DD: `2026-04-13` (the history) or `13 April 2026` (the day's file). */
export function ecbDay(text: string): string {
  const cell = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(cell);
  const written = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(cell);
  let day: string | null = null;
  if (iso) day = cell;
  else if (written) {
    const month = MONTHS.indexOf(written[2]!.toLowerCase());
    if (month >= 0)
      day = `${written[3]}-${String(month + 1).padStart(2, '0')}-${written[1]!.padStart(2, '0')}`;
  }
  if (day === null || new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day) {
    throw new RowRejection(`Date: not a date such as 2026-04-13 or 13 April 2026: ${JSON.stringify(cell)}`);
  }
  return day;
}

/** A row's rates: [currency, units per euro] of every cell that has one; throws RowRejection on a bad cell. */
export function ecbRates(codes: readonly string[], fields: readonly string[]): [string, number][] {
  const rates: [string, number][] = [];
  for (let i = 0; i < codes.length; i += 1) {
    const cell = (fields[i + 1] ?? '').trim();
    if (cell === '' || cell === 'N/A') continue;
    const value = /^\d+(\.\d+)?$/.test(cell) ? Number(cell) : NaN;
    if (!(value > 0))
      throw new RowRejection(`${codes[i]}: not a rate (a positive number, or N/A): ${JSON.stringify(cell)}`);
    rates.push([codes[i]!, value]);
  }
  return rates;
}
