/**
 * The registry of feed formats: CSV exports of other services (price guides, marketplaces)
 * that `oracle ingest --format <name>` reads, or recognises by their header.
 *
 * How to add a format:
 * 1. Write `src/ingest/formats/<name>.ts` exporting a `RowFormat` (see types.ts):
 *    `name` (the --format value), `kinds` (what it makes), an optional `detect(header)`, and
 *    `open(header, options)`, which checks the header (throw to stop with exit 2, naming the
 *    columns) and returns a mapper `(row, out) => void` for one file.
 * 2. The mapper turns one parsed CSV row (`{line, fields}`) into zero or more canonical
 *    records: `out.observation({...})` / `out.product({...})` with CONTRACT.md's field names
 *    (`refsource_id` or the internal `tcgplayer_id` resolve the product through the catalog).
 *    The same zod schemas validate them, so a bad value is rejected with the row's line.
 *    Throwing rejects the whole row with the error's message as the reason.
 * 3. Add it to FEED_FORMATS below, and its name to FORMAT_NAMES (names.ts), which --format
 *    accepts. `--kind` keeps one kind of a format that makes both.
 * A feed of JSON records (one object per listing) is a `JsonFormat` instead, whose mapper
 * takes each parsed value, listed in JSON_FEED_FORMATS (and FORMAT_NAMES).
 * Nothing else changes: the container (CSV, gzip, URL), batching, idempotency, rejects,
 * the summary and the ingest-runs row are the pipeline's.
 */
import { cardmarketFormat } from './cardmarket.js';
import { CONTAINER_FORMATS, type ContainerFormat } from './names.js';
import { pricechartingFormat } from './pricecharting.js';
import { soldListingsFormat } from './sold-listings.js';
import { tcgplayerFormat } from './tcgplayer.js';
import { tcgplayerPricesFormat } from './tcgplayer-prices.js';
import type { JsonFormat, RowFormat } from './types.js';

/** Feed formats, in detection order. */
export const FEED_FORMATS: readonly RowFormat[] = [pricechartingFormat, tcgplayerFormat];

/** Feed formats of JSON records (NDJSON or a JSON array), chosen by --format only. */
export const JSON_FEED_FORMATS: readonly JsonFormat[] = [
  soldListingsFormat,
  tcgplayerPricesFormat,
  cardmarketFormat,
];

/** The feed format named `name`, if any. */
export function findFeedFormat(name: string): RowFormat | undefined {
  return FEED_FORMATS.find((format) => format.name === name);
}

/** The JSON feed format named `name`, if any. */
export function findJsonFeedFormat(name: string | undefined): JsonFormat | undefined {
  return JSON_FEED_FORMATS.find((format) => format.name === name);
}

export function isContainerFormat(name: string): name is ContainerFormat {
  return (CONTAINER_FORMATS as readonly string[]).includes(name);
}

export { CONTAINER_FORMATS, FORMAT_NAMES, type ContainerFormat } from './names.js';
export type {
  RawRow,
  RecordKind,
  RecordSink,
  RowFormat,
  RowMapper,
  FormatOptions,
  JsonFormat,
  JsonMapper,
} from './types.js';
