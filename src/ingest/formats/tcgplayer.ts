/**
 * TCGplayer price rows as the tcgcsv mirror publishes them (ProductsAndPrices.csv:
 * `productId,name,...,lowPrice,midPrice,highPrice,marketPrice,directLowPrice,subTypeName`
 * plus `ext*` columns in any order). Columns are looked up by name, so their order and the
 * `ext*` set do not matter. Each row's market price becomes an ungraded observation of
 * source `tcgplayer` for the catalog product of that productId and printing (subTypeName);
 * docs/feeds.md, "Printings", says which product that is. With `--kind catalog` and the
 * category's groups file (`--groups`), each row is a catalog product instead (tcgcsv-catalog.ts).
 */
import { UNGRADED } from '../../domain/conditions.js';
import { canonicalPrinting } from '../../domain/printing.js';
import { DAY_MS } from '../../domain/time.js';
import { fieldsByName, observedAtOf, type CsvFields } from './feed-row.js';
import { RowRejection, type FormatOptions, type RowFormat } from './types.js';
import { createTcgcsvKeyAllocator, mapTcgcsvProduct } from './tcgcsv-catalog.js';
import { columnCents } from './usd-cents.js';

export const TCGPLAYER_SOURCE = 'tcgplayer';

/**
 * The hour (UTC) tcgcsv refreshes its data each day (docs/feeds.md, "tcgcsv"). A tcgcsv quote
 * is the quote of its day: the archive of a day is dated at this hour, and a CSV or prices
 * JSON read without `--observed-at` at the latest such hour at or before the clock, so
 * re-reading the same day's file adds nothing.
 */
export const TCGCSV_REFRESH_HOUR_UTC = 20;

/** The default observation time of a tcgcsv quote: `--observed-at`, else the latest TCGCSV_REFRESH_HOUR_UTC at or before `now`. */
export function tcgcsvQuoteTime(options: Pick<FormatOptions, 'observedAt' | 'now'>): string {
  if (options.observedAt !== undefined) return observedAtOf(options);
  const refresh = Math.floor(options.now / DAY_MS) * DAY_MS + TCGCSV_REFRESH_HOUR_UTC * 3_600_000;
  return new Date(refresh <= options.now ? refresh : refresh - DAY_MS).toISOString();
}

const REQUIRED_COLUMNS = ['productId', 'marketPrice', 'subTypeName'] as const;

/** Columns of REQUIRED_COLUMNS the header lacks (names as tcgcsv spells them). */
function missingColumns(header: readonly string[]): string[] {
  const names = new Set(header.map((h) => h.trim()));
  return REQUIRED_COLUMNS.filter((c) => !names.has(c));
}

/** True when a CSV header is a tcgcsv price file. */
export function isTcgplayerHeader(header: readonly string[]): boolean {
  return missingColumns(header).length === 0;
}

/** An observation of a TCGplayer row, in the canonical record's field names. */
export interface TcgplayerObservation {
  /** With printing, resolved to the catalog product at ingest (validate/product-resolver.ts). */
  tcgplayer_id: string;
  /** Absent: the row names no printing (lands on the product without one). */
  printing?: string;
  source: typeof TCGPLAYER_SOURCE;
  observed_at: string;
  price_minor: number;
  grader: typeof UNGRADED;
  grade: null;
}

/**
 * Why a row gave no observation; counted and reported, never a reject. A row without a
 * market price (a sealed product nobody sold, a printing with only asks) gives nothing.
 */
export type TcgplayerSkip = 'no market price' | 'other printing';

export type TcgplayerRowResult = { record: TcgplayerObservation } | { skipped: TcgplayerSkip };

export interface TcgplayerOptions {
  observedAt: string;
  /**
   * `--subtype`: read only the rows of this printing (any case). Every printing lands on its
   * own product anyway; this only narrows a run.
   */
  subtype?: string;
}

/**
 * A mapper for one file: every row with a market price is an observation of its productId
 * and printing. A printing never falls back to another: a row without a market price gives
 * nothing that day (skipped, whatever its subTypeName: tcgcsv's sealed rows have an empty one
 * and no price). A priced row with an empty subTypeName lands on the product without a
 * printing. Throws RowRejection when productId is not digits or marketPrice is not an amount.
 */
export function createTcgplayerMapper(options: TcgplayerOptions): (fields: CsvFields) => TcgplayerRowResult {
  const wanted = options.subtype === undefined ? null : canonicalPrinting(options.subtype);
  return (fields) => {
    const productId = (fields.productId ?? '').trim();
    if (!/^\d+$/.test(productId)) {
      throw new RowRejection(`productId must be digits (got ${JSON.stringify(fields.productId ?? '')})`);
    }
    const printing = canonicalPrinting(fields.subTypeName ?? '');
    if (wanted !== null && printing?.toLowerCase() !== wanted.toLowerCase())
      return { skipped: 'other printing' };
    const cents = columnCents('marketPrice', fields.marketPrice ?? '');
    if (cents === null) return { skipped: 'no market price' };
    return {
      record: {
        tcgplayer_id: productId,
        ...(printing === null ? {} : { printing }),
        source: TCGPLAYER_SOURCE,
        observed_at: options.observedAt,
        price_minor: cents,
        grader: UNGRADED,
        grade: null,
      },
    };
  };
}

/** `2025-10-10T23:57:08.173` (tcgcsv writes UTC without a zone) as epoch ms; null when blank or no such time. */
export function modifiedOnOf(text: string | undefined): number | null {
  const trimmed = (text ?? '').trim();
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(trimmed)) return null;
  const at = Date.parse(`${trimmed}Z`);
  return Number.isNaN(at) ? null : at;
}

/** Columns a catalog of ProductsAndPrices.csv needs (extNumber, extRarity, imageUrl, categoryId may be absent). */
const CATALOG_COLUMNS = ['productId', 'name', 'groupId', 'subTypeName'] as const;

/**
 * `--format tcgplayer`, recognised by its header: market prices as ungraded observations.
 * Rows without a market price, of a printing `--subtype` leaves out, of a productId no
 * catalog product has, or of a printing none of its products is, are skipped and counted in
 * the summary (the last by printing), never rejected. With `--kind catalog`, catalog
 * products, one per row, set names and dates from the groups file (`--groups`).
 */
export const tcgplayerFormat: RowFormat = {
  name: 'tcgplayer',
  kinds: ['observations', 'catalog'],
  skipsUnmapped: true,
  detect: isTcgplayerHeader,
  open(header, options) {
    const missing = missingColumns(header);
    if (missing.length > 0)
      throw new Error(`not a tcgcsv TCGplayer price header: it lacks ${missing.join(', ')}`);
    const read = fieldsByName(header);
    if (options.kind === 'catalog') {
      const names = new Set(header.map((h) => h.trim()));
      const lacking = CATALOG_COLUMNS.filter((c) => !names.has(c));
      if (lacking.length > 0)
        throw new Error(
          `a tcgcsv catalog needs the columns ${CATALOG_COLUMNS.join(', ')}: the header lacks ${lacking.join(', ')}`,
        );
      const groups = options.tcgcsvGroups;
      if (groups === undefined) {
        throw new Error(
          "a catalog from a tcgcsv file needs its category's groups for set names and release dates: " +
            'add --groups Groups.csv (https://tcgcsv.com/tcgplayer/<categoryId>/Groups.csv, or the groups JSON)',
        );
      }
      const allocate = createTcgcsvKeyAllocator();
      return (row, out) => out.product({ ...mapTcgcsvProduct(read(row), groups, allocate) });
    }
    const map = createTcgplayerMapper({ observedAt: tcgcsvQuoteTime(options), subtype: options.subtype });
    return (row, out) => {
      const fields = read(row);
      const modified = modifiedOnOf(fields.modifiedOn);
      if (modified !== null) out.fileDate?.(modified, 'modifiedOn');
      const result = map(fields);
      if ('record' in result) out.observation({ ...result.record });
      else out.skip(result.skipped);
    };
  },
};
