/**
 * What the feed formats (price guides, marketplaces) share: the observation time the user
 * gives with --observed-at, and CSV rows read by column name so column order never matters.
 */
import { DAY_MS } from '../../domain/time.js';
import { RowRejection, type FormatOptions, type RawRow } from './types.js';

/** A CSV row as column name -> cell text. */
export type CsvFields = Readonly<Record<string, string | undefined>>;

/**
 * The time a feed's quotes were observed, as ISO-8601 UTC: `--observed-at`, default the
 * command's clock. Feeds like price guides carry no time of their own.
 */
export function observedAtOf(options: Pick<FormatOptions, 'observedAt' | 'now'>): string {
  return new Date(options.observedAt ?? options.now).toISOString();
}

/**
 * The time of a price guide's quotes (PriceCharting, SportsCardsPro): `--observed-at`, else
 * 00:00 UTC of the clock's day. A guide's figure is its value for the day, as a tcgcsv quote
 * is the quote of its day's refresh (tcgcsvQuoteTime): a cron job re-reading the day's
 * download stores every quote once, however often it runs that day.
 */
export function guideQuoteTime(options: Pick<FormatOptions, 'observedAt' | 'now'>): string {
  if (options.observedAt !== undefined) return observedAtOf(options);
  return new Date(Math.floor(options.now / DAY_MS) * DAY_MS).toISOString();
}

/** Reads rows of a file with this header by column name; throws on a row of the wrong width. */
export function fieldsByName(header: readonly string[]): (row: RawRow) => CsvFields {
  const names = header.map((cell) => cell.trim());
  return (row) => {
    if (row.fields.length !== names.length) {
      throw new RowRejection(`expected ${names.length} fields as in the header, found ${row.fields.length}`);
    }
    const fields: Record<string, string> = {};
    names.forEach((name, i) => (fields[name] = row.fields[i] as string));
    return fields;
  };
}
