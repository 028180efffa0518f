/**
 * What the feed formats (price guides, marketplaces) share: the observation time the user
 * gives with --observed-at, and CSV rows read by column name so column order never matters.
 */
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
