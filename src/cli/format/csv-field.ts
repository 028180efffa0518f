/** RFC 4180 field quoting for the CSV files oracle writes: the sample generator's, `value --csv`, `export --format csv`. */

const NEEDS_QUOTES = /[",\r\n]/;

/** A field as written in CSV: quoted, with doubled quotes, when it holds a comma, quote or line break. */
export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** One CSV line (without the line end) from field values. */
export function csvLine(values: readonly string[]): string {
  return values.map(csvField).join(',');
}
