/**
 * TCGplayer price rows as the tcgcsv mirror publishes them (ProductsAndPrices.csv:
 * `productId,name,...,lowPrice,midPrice,highPrice,marketPrice,directLowPrice,subTypeName`
 * plus `ext*` columns in any order). Columns are looked up by name, so their order and the
 * `ext*` set do not matter. Each row's market price becomes an ungraded observation of
 * source `tcgplayer` for the catalog product of that productId and printing (subTypeName);
 * docs/feeds.md, "Printings", says which product that is.
 */
import { UNGRADED } from '../../domain/conditions.js';
import { canonicalPrinting } from '../../domain/printing.js';
import { fieldsByName, observedAtOf, type CsvFields } from './feed-row.js';
import { RowRejection, type RowFormat } from './types.js';
import { columnCents } from './usd-cents.js';

export const TCGPLAYER_SOURCE = 'tcgplayer';

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
  printing: string;
  source: typeof TCGPLAYER_SOURCE;
  observed_at: string;
  price_minor: number;
  grader: typeof UNGRADED;
  grade: null;
}

/** Why a row gave no observation; counted and reported, never a reject. */
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
 * nothing that day. Throws RowRejection when productId is not digits, subTypeName is empty or
 * marketPrice is not an amount.
 */
export function createTcgplayerMapper(options: TcgplayerOptions): (fields: CsvFields) => TcgplayerRowResult {
  const wanted = options.subtype === undefined ? null : canonicalPrinting(options.subtype);
  return (fields) => {
    const productId = (fields.productId ?? '').trim();
    if (!/^\d+$/.test(productId)) {
      throw new RowRejection(`productId must be digits (got ${JSON.stringify(fields.productId ?? '')})`);
    }
    const printing = canonicalPrinting(fields.subTypeName ?? '');
    if (printing === null) throw new RowRejection('subTypeName is empty: the row names no printing');
    if (wanted !== null && printing.toLowerCase() !== wanted.toLowerCase()) return { skipped: 'other printing' };
    const cents = columnCents('marketPrice', fields.marketPrice ?? '');
    if (cents === null) return { skipped: 'no market price' };
    return {
      record: {
        tcgplayer_id: productId,
        printing,
        source: TCGPLAYER_SOURCE,
        observed_at: options.observedAt,
        price_minor: cents,
        grader: UNGRADED,
        grade: null,
      },
    };
  };
}

/**
 * `--format tcgplayer`, recognised by its header: market prices as ungraded observations.
 * Rows without a market price, of a printing `--subtype` leaves out, of a productId no
 * catalog product has, or of a printing none of its products is, are skipped and counted in
 * the summary (the last by printing), never rejected.
 */
export const tcgplayerFormat: RowFormat = {
  name: 'tcgplayer',
  kinds: ['observations'],
  skipsUnmapped: true,
  detect: isTcgplayerHeader,
  open(header, options) {
    const missing = missingColumns(header);
    if (missing.length > 0) throw new Error(`not a tcgcsv TCGplayer price header: it lacks ${missing.join(', ')}`);
    const read = fieldsByName(header);
    const map = createTcgplayerMapper({ observedAt: observedAtOf(options), subtype: options.subtype });
    return (row, out) => {
      const result = map(read(row));
      if ('record' in result) out.observation({ ...result.record });
      else out.skip(result.skipped);
    };
  },
};
