/**
 * TCGplayer price rows as the tcgcsv mirror publishes them (ProductsAndPrices.csv:
 * `productId,name,...,lowPrice,midPrice,highPrice,marketPrice,directLowPrice,subTypeName`
 * plus `ext*` columns in any order). Columns are looked up by name, so their order and the
 * `ext*` set do not matter. Each product's market price becomes an ungraded observation of
 * source `tcgplayer`, for the catalog product whose tcgplayer_id is the row's productId.
 */
import { UNGRADED } from '../../domain/conditions.js';
import { fieldsByName, observedAtOf, type CsvFields } from './feed-row.js';
import type { RowFormat } from './types.js';
import { parseUsdCents } from './usd-cents.js';

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
  /** Resolved to the catalog product through products.tcgplayer_id at ingest. */
  tcgplayer_id: string;
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
  /** The printing to take (`Holofoil`, `Reverse Holofoil`; any case); default: each product's first listed. */
  subtype?: string;
}

/**
 * A mapper for one file. A product is listed once per printing (subTypeName), each with its
 * own price, and one product's time series must stay on one printing: with `subtype` the rows
 * of that printing are taken, otherwise the printing listed first for each productId is, even
 * when it has no market price (falling back to another printing would mix two series).
 * Throws when productId is not digits or marketPrice is not an amount.
 */
export function createTcgplayerMapper(options: TcgplayerOptions): (fields: CsvFields) => TcgplayerRowResult {
  const wanted = options.subtype?.trim().toLowerCase();
  const firstListed = new Map<string, string>();
  return (fields) => {
    const productId = (fields.productId ?? '').trim();
    if (!/^\d+$/.test(productId)) {
      throw new RangeError(`productId must be digits (got ${JSON.stringify(fields.productId ?? '')})`);
    }
    const subtype = (fields.subTypeName ?? '').trim().toLowerCase();
    let chosen = wanted ?? firstListed.get(productId);
    if (chosen === undefined) firstListed.set(productId, (chosen = subtype));
    if (subtype !== chosen) return { skipped: 'other printing' };
    let cents: number | null;
    try {
      cents = parseUsdCents(fields.marketPrice ?? '');
    } catch (error) {
      throw new RangeError(`marketPrice: ${(error as Error).message}`, { cause: error });
    }
    if (cents === null) return { skipped: 'no market price' };
    return {
      record: {
        tcgplayer_id: productId,
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
 * Rows without a market price, of another printing, or of a product no catalog entry maps
 * are skipped and counted in the summary, never rejected.
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
