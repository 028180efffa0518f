/**
 * tcgcsv's raw `prices` JSON of one group (set), as its API serves it
 * (`https://tcgcsv.com/tcgplayer/<categoryId>/<groupId>/prices`) and its daily archive keeps it
 * (`<YYYY-MM-DD>/<categoryId>/<groupId>/prices`, no extension):
 * `{"success": true, "errors": [], "results": [{productId, lowPrice, midPrice, highPrice,
 * marketPrice, directLowPrice, subTypeName}, ...]}`. Each result's market price is an
 * ungraded observation of source `tcgplayer`, mapped exactly as a row of ProductsAndPrices.csv
 * (createTcgplayerMapper); docs/feeds.md, "tcgcsv prices JSON".
 */
import { InputError } from '../../domain/errors.js';
import { futureObservationProblem } from '../../domain/observation.js';
import { parseCalendarDate, toIsoUtc } from '../../domain/time.js';
import { observedAtOf } from './feed-row.js';
import { createTcgplayerMapper, tcgcsvQuoteTime, TCGCSV_REFRESH_HOUR_UTC } from './tcgplayer.js';
import { RowRejection, type FormatOptions, type JsonFormat } from './types.js';

/** A `YYYY-MM-DD` that is a whole path segment or a part of a file name (`2025-10-20/3/604/prices`, `prices.2025-10-20.json`). */
const DATE_IN_PATH = /(?:^|[/\\._-])(\d{4}-\d{2}-\d{2})(?=$|[/\\._-])/g;

/**
 * The observation time of a prices file: `--observed-at`, else TCGCSV_REFRESH_HOUR_UTC on the
 * last date its path names (the archive's date directory), else the quote of the day (the
 * latest refresh at or before the clock: tcgcsvQuoteTime). Throws InputError (exit 2) for a
 * date in the path that does not exist (it is never shifted), and for one whose refresh is
 * still to come by the clock (today's archive read before 20:00 UTC): every result would be
 * a future observation, so the file stops once, naming the path's date and `--observed-at`.
 */
export function pricesObservedAt(options: Pick<FormatOptions, 'observedAt' | 'now' | 'source'>): string {
  if (options.observedAt !== undefined) return observedAtOf(options);
  const dates = [...options.source.matchAll(DATE_IN_PATH)].map((m) => m[1] as string);
  const date = dates.at(-1);
  if (date === undefined) return tcgcsvQuoteTime(options);
  const day = parseCalendarDate(date);
  if (typeof day === 'string')
    throw new InputError(options.source, 1, `the date ${date} in the path: ${day} (give --observed-at)`);
  const at = day + TCGCSV_REFRESH_HOUR_UTC * 3_600_000;
  if (futureObservationProblem(at, options.now) !== null) {
    throw new InputError(
      options.source,
      1,
      `the date ${date} in the path dates these prices ${toIsoUtc(at)}, which is in the future (now is ${toIsoUtc(options.now)}): ` +
        `give --observed-at with the time they were fetched`,
    );
  }
  return new Date(at).toISOString();
}

/** The first characters of a response envelope (`{"success": ...`, `{"errors": ...`, `{"results": ...`). */
const ENVELOPE_HEAD = /^\s*\{\s*"(success|errors|results)"\s*:/;

/** True when a JSON source starts like tcgcsv's response envelope, read as prices without --format. */
export function isTcgcsvEnvelope(head: string): boolean {
  return ENVELOPE_HEAD.test(head);
}

/** A result's field as CSV text: numbers as written by JSON, null and absent as empty. */
function cell(value: unknown, field: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    // JSON.parse has already rounded it: 9007199254740993 arrives as ...992, another product's id.
    throw new RowRejection(
      `${field} ${String(value)} is beyond 2^53: a JSON number that large is rounded when read, so the id is not exact`,
    );
  }
  if (typeof value === 'number' || typeof value === 'string') return String(value);
  throw new RowRejection(`${field} must be a number, a string or null (got ${JSON.stringify(value)})`);
}

/** `--format tcgplayer-prices`, also recognised by the envelope's first key. */
export const tcgplayerPricesFormat: JsonFormat = {
  name: 'tcgplayer-prices',
  kinds: ['observations'],
  envelope: true,
  skipsUnmapped: true,
  notJsonRecordsHint: 'tcgcsv prices are one JSON object: {"success": true, "errors": [], "results": [...]}',
  checkEnvelope(key, value, source, line) {
    // Either may come after the results: the reader holds them uncommitted until the end (RecordWriter.wholeSource).
    if (key === 'success' && value === false)
      throw new InputError(
        source,
        line,
        'the response says "success": false: tcgcsv had no prices to give, so none of its results is stored',
      );
    if (key === 'errors' && Array.isArray(value) && value.length > 0) {
      throw new InputError(
        source,
        line,
        `the response lists errors, so none of its results is stored: ${JSON.stringify(value).slice(0, 300)}`,
      );
    }
  },
  open(options) {
    const map = createTcgplayerMapper({ observedAt: pricesObservedAt(options), subtype: options.subtype });
    let first = true;
    return (value, out) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new RowRejection('a result must be a JSON object');
      const result = value as Record<string, unknown>;
      if (first && !('marketPrice' in result)) {
        const keys = Object.keys(result).slice(0, 8).join(', ');
        throw new InputError(
          options.source,
          1,
          `not a tcgcsv prices response: its first result has no marketPrice (keys: ${keys}); products and groups responses carry no prices`,
        );
      }
      first = false;
      const mapped = map({
        productId: cell(result.productId, 'productId'),
        subTypeName: cell(result.subTypeName, 'subTypeName'),
        marketPrice: cell(result.marketPrice, 'marketPrice'),
      });
      if ('record' in mapped) out.observation({ ...mapped.record });
      else out.skip(mapped.skipped);
    };
  },
};
