/**
 * The PriceCharting price-guide CSV download (both header variants) as observations of
 * source `pricecharting` and as catalog products. Column meanings for trading cards follow
 * PriceCharting's API documentation, which reuses its video-game column names; the mapping
 * and every ignored column are documented in docs/feeds.md.
 */
import { POOLED_GRADER, UNGRADED } from '../../domain/conditions.js';
import type { Era, ProductType } from '../../domain/product.js';
import { fieldsByName, observedAtOf, type CsvFields } from './feed-row.js';
import type { RowFormat } from './types.js';
import { parseUsdCents } from './usd-cents.js';

export const PRICECHARTING_SOURCE = 'pricecharting';

/** Where a price column's value is stored: grader (upper case, `ANY` pooled) and grade. */
export interface PriceColumnTarget {
  grader: string;
  grade: number | null;
}

/**
 * Every price column that becomes an observation. Columns not listed here (gamestop-*,
 * retail-* dealer buy/sell quotes, upc, sales-volume, genre, asin, epid) are ignored.
 * - The unnamed grades ("Grade 7" ... "Grade 9.5", and "Grade 1" ... "Grade 6" of the newer
 *   header) are sales of any grader pooled: `ANY`, which feeds the composite band.
 * - CGC 10 Pristine and BGS 10 Black Label are a tier above the regular 10 and sell for a
 *   multiple of it; stored as CGC/BGS 10 they would drag the regular 10 cell up. They are kept
 *   under their own graders (`CGC-PRISTINE`, `BGS-BLACK`), stored and not priced, like TAG and ACE.
 */
export const PRICE_COLUMNS: Readonly<Record<string, PriceColumnTarget>> = {
  'loose-price': { grader: UNGRADED, grade: null },
  'cib-price': { grader: POOLED_GRADER, grade: 7 },
  'new-price': { grader: POOLED_GRADER, grade: 8 },
  'graded-price': { grader: POOLED_GRADER, grade: 9 },
  'box-only-price': { grader: POOLED_GRADER, grade: 9.5 },
  'manual-only-price': { grader: 'PSA', grade: 10 },
  'bgs-10-price': { grader: 'BGS', grade: 10 },
  'condition-9-price': { grader: POOLED_GRADER, grade: 1 },
  'condition-10-price': { grader: POOLED_GRADER, grade: 2 },
  'condition-13-price': { grader: POOLED_GRADER, grade: 3 },
  'condition-14-price': { grader: POOLED_GRADER, grade: 4 },
  'condition-15-price': { grader: POOLED_GRADER, grade: 5 },
  'condition-16-price': { grader: POOLED_GRADER, grade: 6 },
  'condition-17-price': { grader: 'CGC', grade: 10 },
  'condition-18-price': { grader: 'SGC', grade: 10 },
  'condition-19-price': { grader: 'CGC-PRISTINE', grade: 10 },
  'condition-20-price': { grader: 'BGS-BLACK', grade: 10 },
  'condition-21-price': { grader: 'TAG', grade: 10 },
  'condition-22-price': { grader: 'ACE', grade: 10 },
};

/** Columns both header variants start with; the newer one inserts condition-9 ... condition-22. */
const REQUIRED_COLUMNS = [
  'id',
  'console-name',
  'product-name',
  'loose-price',
  'cib-price',
  'new-price',
  'graded-price',
  'box-only-price',
  'manual-only-price',
  'bgs-10-price',
] as const;

/** Columns of REQUIRED_COLUMNS the header lacks. */
function missingColumns(header: readonly string[]): string[] {
  const names = new Set(header.map((h) => h.trim()));
  return REQUIRED_COLUMNS.filter((c) => !names.has(c));
}

/** True when a CSV header is a PriceCharting price-guide download (either variant). */
export function isPriceChartingHeader(header: readonly string[]): boolean {
  return missingColumns(header).length === 0;
}

/** One observation of a price-guide row, in the canonical record's field names. */
export interface PriceGuideObservation {
  refsource_id: string;
  source: typeof PRICECHARTING_SOURCE;
  observed_at: string;
  price_minor: number;
  grader: string;
  grade: number | null;
}

/** A row's observations, and how many price cells were blank (skipped, not rejected). */
export interface PriceGuideRowResult {
  records: PriceGuideObservation[];
  blank: number;
}

/**
 * Maps one row to one observation per non-blank price column, for the product whose
 * refsource_id is the row's `id`. No external_id: PriceCharting quotes have none, so the
 * record is unique on all its fields and re-ingesting a file at the same `observedAt` adds
 * nothing. Throws when `id` is not digits or a price is not a dollar amount.
 */
export function mapPriceChartingRow(fields: CsvFields, observedAt: string): PriceGuideRowResult {
  const id = requireId(fields);
  const records: PriceGuideObservation[] = [];
  let blank = 0;
  for (const [column, target] of Object.entries(PRICE_COLUMNS)) {
    const text = fields[column];
    if (text === undefined) continue; // the older header lacks condition-9 ... condition-22
    let cents: number | null;
    try {
      cents = parseUsdCents(text);
    } catch (error) {
      throw new RangeError(`${column}: ${(error as Error).message}`, { cause: error });
    }
    if (cents === null) {
      blank += 1;
      continue;
    }
    records.push({ refsource_id: id, source: PRICECHARTING_SOURCE, observed_at: observedAt, price_minor: cents, ...target });
  }
  return { records, blank };
}

/** A catalog product of a price-guide row, in the canonical catalog record's field names. */
export interface PriceGuideProduct {
  product_key: string;
  refsource_id: string;
  product_name: string;
  set_name: string;
  product_type: ProductType;
  era: Era;
  release_date: string | null;
  /** TCGplayer product id (`tcg-id`), kept to map TCGplayer price rows to this product. */
  tcgplayer_id: string | null;
}

/**
 * Products released before this year are `vintage`: it ends the first print era of the big
 * games (Wizards of the Coast's Pokémon sets ran until 2003, Magic changed its card frame in
 * 2003), whose cards reach grade 10 far more rarely and so need their own ratio table.
 * Products without a release date are `modern`.
 */
export const VINTAGE_BEFORE_YEAR = 2004;

/** Longest product_key CONTRACT.md allows. */
const MAX_KEY_LENGTH = 200;

/**
 * A readable URL-safe slug: accents dropped, `&` spelled out, apostrophes removed
 * (`Farfetch'd` -> `farfetchd`), every other run of non-alphanumerics one dash.
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['\u2019]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The product_key of a row: `<console-name>-<product-name>` slugged, e.g.
 * `pokemon-base-set-charizard-4`; `pricecharting-<id>` when the names have nothing to slug.
 */
export function productKeyFor(consoleName: string, productName: string, id: string): string {
  const key = [slugify(consoleName), slugify(productName)].filter((s) => s !== '').join('-');
  return key === '' ? `pricecharting-${id}` : key.slice(0, MAX_KEY_LENGTH).replace(/-+$/, '');
}

// Sealed boxes of booster packs; "Booster Box Case" (several boxes) and single packs are not.
const BOOSTER_BOX = /\bbooster\s+(box|display)\b(?!\s+case)/i;

/** `booster_box` for booster boxes (or displays, as some markets call them), else `single_card`. */
export function productTypeFor(productName: string): ProductType {
  return BOOSTER_BOX.test(productName) ? 'booster_box' : 'single_card';
}

/** `vintage` when released before VINTAGE_BEFORE_YEAR, else `modern`. */
export function eraFor(releaseDate: string | null): Era {
  return releaseDate !== null && Number(releaseDate.slice(0, 4)) < VINTAGE_BEFORE_YEAR ? 'vintage' : 'modern';
}

/**
 * Maps one row to a catalog product. `productKey` overrides the slug (the caller
 * disambiguates two ids whose names slug alike). Throws when `id` is not digits or a name is missing.
 */
export function mapPriceChartingProduct(fields: CsvFields, productKey?: string): PriceGuideProduct {
  const id = requireId(fields);
  const productName = (fields['product-name'] ?? '').trim();
  const setName = (fields['console-name'] ?? '').trim();
  if (productName === '') throw new RangeError('product-name is empty');
  const releaseDate = releaseDateOf(fields['release-date']);
  const tcgId = (fields['tcg-id'] ?? '').trim();
  return {
    product_key: productKey ?? productKeyFor(setName, productName, id),
    refsource_id: id,
    product_name: productName,
    set_name: setName,
    product_type: productTypeFor(productName),
    era: eraFor(releaseDate),
    release_date: releaseDate,
    tcgplayer_id: /^[1-9]\d*$/.test(tcgId) ? tcgId : null,
  };
}

/**
 * Product keys for one file: the slug, or the slug plus `-<id>` for a later id whose name
 * slugs like an earlier one's, so two products never share a key within a file.
 */
export function createProductKeyAllocator(): (fields: CsvFields) => string {
  const owners = new Map<string, string>();
  return (fields) => {
    const id = requireId(fields);
    const slug = productKeyFor(fields['console-name'] ?? '', fields['product-name'] ?? '', id);
    const owner = owners.get(slug);
    if (owner === undefined) owners.set(slug, id);
    return owner === undefined || owner === id ? slug : `${slug.slice(0, MAX_KEY_LENGTH - id.length - 1)}-${id}`;
  };
}

function requireId(fields: CsvFields): string {
  const id = (fields.id ?? '').trim();
  if (!/^\d+$/.test(id)) throw new RangeError(`id must be digits (got ${JSON.stringify(fields.id ?? '')})`);
  return id;
}

// PriceCharting prints YYYY-MM-DD, and "none" or nothing when unknown.
function releaseDateOf(text: string | undefined): string | null {
  const trimmed = (text ?? '').trim();
  return /^\d{4}-\d{2}-\d{2}$/.test(trimmed) ? trimmed : null;
}

/**
 * `--format pricecharting`, recognised by its header. Reads observations, or with
 * `--kind catalog` products; rows whose id is not in the catalog are skipped and counted as
 * unmapped (the download covers a whole category, the catalog may track part of it), and a
 * product PriceCharting renamed keeps the product_key it was first given.
 */
export const pricechartingFormat: RowFormat = {
  name: 'pricecharting',
  kinds: ['observations', 'catalog'],
  skipsUnmapped: true,
  keepsProductKeys: true,
  detect: isPriceChartingHeader,
  open(header, options) {
    const missing = missingColumns(header);
    if (missing.length > 0) throw new Error(`not a PriceCharting price-guide header: it lacks ${missing.join(', ')}`);
    const read = fieldsByName(header);
    if (options.kind === 'catalog') {
      const keyOf = createProductKeyAllocator();
      return (row, out) => {
        const fields = read(row);
        out.product({ ...mapPriceChartingProduct(fields, keyOf(fields)) });
      };
    }
    const observedAt = observedAtOf(options);
    return (row, out) => {
      const { records, blank } = mapPriceChartingRow(read(row), observedAt);
      for (const record of records) out.observation({ ...record });
      if (blank > 0) out.skip('blank price', blank);
    };
  },
};
