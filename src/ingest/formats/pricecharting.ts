/**
 * The PriceCharting price-guide CSV download (both header variants) as observations of
 * source `pricecharting` and as catalog products. Column meanings for trading cards follow
 * PriceCharting's API documentation, which reuses its video-game column names; the mapping
 * and every ignored column are documented in docs/feeds.md.
 */
import { POOLED_GRADER, UNGRADED } from '../../domain/conditions.js';
import { InputError } from '../../domain/errors.js';
import type { Era, ProductType } from '../../domain/product.js';
import { parseCalendarDate } from '../../domain/time.js';
import { fieldsByName, guideQuoteTime, type CsvFields } from './feed-row.js';
import { eraFor, slugify } from './product-naming.js';
import { RowRejection, type RowFormat } from './types.js';
import { columnCents } from './usd-cents.js';

export const PRICECHARTING_SOURCE = 'pricecharting';

/** Where a price column's value is stored: grader (upper case, `ANY` pooled) and grade. */
export interface PriceColumnTarget {
  grader: string;
  grade: number | null;
}

/**
 * Every price column that becomes an observation. Columns not listed here (gamestop-*,
 * retail-* dealer buy/sell quotes, upc, genre, asin, epid) are ignored; `sales-volume` goes
 * with every quote of its row (`sales_volume`).
 * - The unnamed grades ("Grade 7" ... "Grade 9.5", and "Grade 1" ... "Grade 6" of the newer
 *   header) are sales of any grader pooled: `ANY`, which feeds the composite band.
 * - CGC 10 Pristine and BGS 10 Black Label are a tier above the regular 10 and sell for a
 *   multiple of it; stored as CGC/BGS 10 they would drag the regular 10 cell up. They are kept
 *   under their own graders (`CGC-PRISTINE`, `BGS-BLACK`), priced apart as extra grades, like TAG and ACE.
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
  /** The row's `sales-volume`: how many sales its quotes summarise; absent when the cell is blank. */
  sales_volume?: number;
}

/** A row's observations, and how many price cells were blank or graded cells of a sealed product (skipped, not rejected). */
export interface PriceGuideRowResult {
  records: PriceGuideObservation[];
  blank: number;
  /** Filled graded columns of a sealed product (SEALED_PRODUCT_COLUMNS): never read. */
  sealedGraded: number;
}

/**
 * The only column read for a sealed product (productTypeFor: a box of packs): a sealed box
 * is never graded, so SportsCardsPro's graded columns of a box row (the 2025 Topps Chrome
 * `Jumbo Box` has seven filled) are not its grades; they are skipped and counted
 * ("sealed product: graded column").
 */
export const SEALED_PRODUCT_COLUMNS: readonly string[] = ['loose-price'];

/** The summary's reason for a filled graded column of a sealed product. */
export const SEALED_GRADED_SKIP = 'sealed product: graded column';

/**
 * Maps one row to one observation per non-blank price column, for the product whose
 * refsource_id is the row's `id`. No external_id: PriceCharting quotes have none, so the
 * record is unique on all its fields and re-ingesting a file at the same `observedAt` (by
 * default the day's: guideQuoteTime) adds nothing. A sealed product's row gives only its loose price (SEALED_PRODUCT_COLUMNS); its
 * other filled price columns are counted in `sealedGraded`. Throws when `id` is not digits
 * or a read price is not a dollar amount.
 */
export function mapPriceChartingRow(fields: CsvFields, observedAt: string): PriceGuideRowResult {
  const id = requireId(fields);
  const volume = salesVolumeOf(fields['sales-volume']);
  const sealed = productTypeFor((fields['product-name'] ?? '').trim()) === 'booster_box';
  const records: PriceGuideObservation[] = [];
  let blank = 0;
  let sealedGraded = 0;
  for (const [column, target] of Object.entries(PRICE_COLUMNS)) {
    const text = fields[column];
    if (text === undefined) continue; // the older header lacks condition-9 ... condition-22
    if (sealed && !SEALED_PRODUCT_COLUMNS.includes(column)) {
      if (!isBlankPrice(text)) sealedGraded += 1;
      else blank += 1;
      continue;
    }
    const cents = priceCents(column, text);
    if (cents === null) {
      blank += 1;
      continue;
    }
    records.push({
      refsource_id: id,
      source: PRICECHARTING_SOURCE,
      observed_at: observedAt,
      price_minor: cents,
      ...target,
      ...(volume === null ? {} : { sales_volume: volume }),
    });
  }
  return { records, blank, sealedGraded };
}

/** True for a cell that gives no price (empty, or zero in either notation); a malformed cell is not blank. */
function isBlankPrice(text: string): boolean {
  try {
    return priceCents('', text) === null;
  } catch {
    return false;
  }
}

/**
 * The `sales-volume` cell: how many sales the row's prices summarise (the product's, every
 * grade together), a whole number (`1299`; `1,299` read alike); null when blank. Throws
 * RowRejection for any other text, naming the column.
 */
export function salesVolumeOf(text: string | undefined): number | null {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return null;
  if (!/^\d{1,3}(,\d{3})*$|^\d{1,9}$/.test(trimmed)) {
    throw new RowRejection(`sales-volume must be a whole number of sales (got ${JSON.stringify(text)})`);
  }
  return Number(trimmed.replace(/,/g, ''));
}

/**
 * A price cell in cents. PriceCharting writes dollars in its CSV download (`$2,325.00`), and
 * an integer number of pennies in its API and in downloads made from it (`232500`), as its
 * API documentation defines prices: a bare integer, without `$` and decimal point, is pennies.
 * Blank or zero is no price (null).
 */
export function priceCents(column: string, text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return columnCents(column, text);
  const pennies = Number(trimmed);
  if (!Number.isSafeInteger(pennies))
    throw new RowRejection(`${column}: amount out of range: ${JSON.stringify(text)}`);
  return pennies === 0 ? null : pennies;
}

/** A catalog product of a price-guide row, in the canonical catalog record's field names. */
export interface PriceGuideProduct {
  product_key: string;
  refsource_id: string;
  product_name: string;
  set_name: string;
  product_type: ProductType;
  /** Absent when the release date is unknown. */
  era?: Era;
  release_date: string | null;
  /** TCGplayer product id (`tcg-id`), kept to map TCGplayer price rows to this product. */
  tcgplayer_id: string | null;
  /** The printing its name's tag names (`[Reverse Holo]`), null for the regular printing. */
  printing: string | null;
}

/** Longest product_key CONTRACT.md allows. */
const MAX_KEY_LENGTH = 200;

/**
 * The product_key of a row: `<console-name>-<product-name>` slugged, e.g.
 * `pokemon-base-set-charizard-4`; `pricecharting-<id>` when the names have nothing to slug.
 */
export function productKeyFor(consoleName: string, productName: string, id: string): string {
  const key = [slugify(consoleName), slugify(productName)].filter((s) => s !== '').join('-');
  return key === '' ? `pricecharting-${id}` : key.slice(0, MAX_KEY_LENGTH).replace(/-+$/, '');
}

/**
 * Sealed boxes of packs: a trading-card game's booster box (or display, as some markets call
 * it) and a sports set's hobby, jumbo, mega, blaster, hanger or value box (SportsCardsPro
 * lists `Hobby Box`, `Hobby Box [Sapphire]`, `Jumbo Box` and `Mega Box` beside the cards of
 * `Baseball Cards 2025 Topps Chrome`). A case (several boxes) and single packs are not.
 */
const SEALED_BOX = /\b(?:booster|hobby|jumbo|mega|blaster|hanger|value)\s+(?:box|display)\b(?!\s+case)/i;

/** `booster_box` for sealed boxes of packs (SEALED_BOX), else `single_card`. */
export function productTypeFor(productName: string): ProductType {
  return SEALED_BOX.test(productName) ? 'booster_box' : 'single_card';
}

/**
 * PriceCharting's printing tags in product names (`Zapdos [Reverse Holo] #145`) and the
 * TCGplayer printing each is. Other tags (`[Shadowless]`, `[Staff]`, `[Holo]`) name products
 * TCGplayer lists under their own productId, in their regular printing.
 */
export const PRINTING_TAGS: Readonly<Record<string, string>> = {
  'reverse holo': 'Reverse Holofoil',
  '1st edition': '1st Edition',
};

/** The printing a product name's tags name, or null for the regular printing. */
export function printingFor(productName: string): string | null {
  for (const [, tag] of productName.matchAll(/\[([^\]]*)\]/g)) {
    const printing = PRINTING_TAGS[(tag ?? '').trim().toLowerCase()];
    if (printing !== undefined) return printing;
  }
  return null;
}

/**
 * Maps one row to a catalog product. `productKey` overrides the slug (the caller
 * disambiguates two ids whose names slug alike). `era` is left out when the release date is
 * unknown: the writer keeps a stored product's era and rejects a new product
 * (RowFormat.keepsProductKeys), never guessing. Throws RowRejection when `id` is not digits,
 * the name is missing or the release date is not a real date.
 */
export function mapPriceChartingProduct(fields: CsvFields, productKey?: string): PriceGuideProduct {
  const id = requireId(fields);
  const productName = (fields['product-name'] ?? '').trim();
  const setName = (fields['console-name'] ?? '').trim();
  if (productName === '') throw new RowRejection('product-name is empty');
  const releaseDate = releaseDateOf(fields['release-date']);
  const era = eraFor(releaseDate);
  const tcgId = (fields['tcg-id'] ?? '').trim();
  return {
    product_key: productKey ?? productKeyFor(setName, productName, id),
    refsource_id: id,
    product_name: productName,
    set_name: setName,
    product_type: productTypeFor(productName),
    ...(era === null ? {} : { era }),
    release_date: releaseDate,
    tcgplayer_id: /^[1-9]\d*$/.test(tcgId) ? tcgId : null,
    printing: printingFor(productName),
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
    return owner === undefined || owner === id
      ? slug
      : `${slug.slice(0, MAX_KEY_LENGTH - id.length - 1)}-${id}`;
  };
}

function requireId(fields: CsvFields): string {
  const id = (fields.id ?? '').trim();
  if (!/^\d+$/.test(id)) throw new RowRejection(`id must be digits (got ${JSON.stringify(fields.id ?? '')})`);
  return id;
}

/**
 * The release date of a row as YYYY-MM-DD, or null when the download has none (empty or
 * `none`). PriceCharting writes ISO dates (`1999-01-09`) and, in some downloads, US dates
 * (`7/3/2025`, month first). Throws RowRejection for any other text and for a date that
 * does not exist (`2/30/2025`): it is rejected, never shifted to another day.
 */
export function releaseDateOf(text: string | undefined): string | null {
  const trimmed = (text ?? '').trim();
  if (trimmed === '' || trimmed.toLowerCase() === 'none') return null;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(trimmed);
  const iso =
    us === null
      ? trimmed
      : `${us[3]}-${(us[1] as string).padStart(2, '0')}-${(us[2] as string).padStart(2, '0')}`;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) {
    throw new RowRejection(`release-date must be YYYY-MM-DD or M/D/YYYY (got ${JSON.stringify(text)})`);
  }
  const day = parseCalendarDate(iso);
  if (typeof day === 'string') throw new RowRejection(`release-date ${JSON.stringify(text)}: ${day}`);
  return iso;
}

/**
 * Trading-card games PriceCharting files under a console-name starting with the game's name
 * (`Pokemon Base Set`, `Magic Alpha`), for rows whose genre does not say "card".
 */
const CARD_GAMES = ['Pokemon', 'Magic', 'YuGiOh', 'One Piece', 'Lorcana', 'Digimon', 'Dragon Ball'];

/**
 * SportsCardsPro (PriceCharting's sports-card site, same download) names each set
 * `<Sport> Cards <year> <set>` with an empty genre: `Baseball Cards 2025 Topps Chrome`,
 * `Basketball Cards 2018 Panini Prizm`, `Hockey Cards 1991 Pro Set`. Its sports are
 * baseball, basketball, football, hockey, soccer, racing, wrestling, UFC, boxing, golf and
 * tennis; any `<one or two words> Cards` category is a card category, so a sport it adds
 * later is read too. Video games (`Nintendo 64`, `JP Nintendo Switch`), comics, Funko, coins
 * and Lego are never named so.
 */
const SPORTS_CARD_CATEGORY = /^(?:[A-Za-z]+ ){1,2}Cards(?: |$)/i;

/**
 * The category of a row that is not a trading card, as `<column> "<value>"`, or null for a
 * trading card: a genre with the word card(s) (`Pokemon Card`, `Japanese Pokemon Card`,
 * `Baseball Cards`), a console-name of a card game, or a sports-card console-name
 * (SPORTS_CARD_CATEGORY). PriceCharting reuses its video-game columns for every category, and
 * they mean other things outside cards (loose / complete / new for a game, grade tiers for a
 * comic), so such rows must not be read as card grades.
 */
export function nonCardCategory(fields: CsvFields): string | null {
  const genre = (fields.genre ?? '').trim();
  const consoleName = (fields['console-name'] ?? '').trim();
  if (/\bcards?\b/i.test(genre)) return null;
  if (CARD_GAMES.some((game) => consoleName.toLowerCase().startsWith(`${game.toLowerCase()} `))) return null;
  if (genre === '' && SPORTS_CARD_CATEGORY.test(consoleName)) return null;
  return genre !== '' ? `genre ${JSON.stringify(genre)}` : `console-name ${JSON.stringify(consoleName)}`;
}

/** Stops the run at a row of another category than trading cards (the download is of one category). */
function checkCategory(fields: CsvFields, source: string, line: number): void {
  const category = nonCardCategory(fields);
  if (category === null) return;
  throw new InputError(
    source,
    line,
    `${category} is not a trading-card or sports-card category: PriceCharting's price columns mean other things there ` +
      '(loose, complete and new for video games; other grades for comics), so this file is not read (download a card category)',
  );
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
    if (missing.length > 0)
      throw new Error(`not a PriceCharting price-guide header: it lacks ${missing.join(', ')}`);
    const read = fieldsByName(header);
    if (options.kind === 'catalog') {
      const keyOf = createProductKeyAllocator();
      return (row, out) => {
        const fields = read(row);
        checkCategory(fields, options.source, row.line);
        out.product({ ...mapPriceChartingProduct(fields, keyOf(fields)) });
      };
    }
    const observedAt = guideQuoteTime(options);
    return (row, out) => {
      const fields = read(row);
      checkCategory(fields, options.source, row.line);
      const { records, blank, sealedGraded } = mapPriceChartingRow(fields, observedAt);
      for (const record of records) out.observation({ ...record });
      if (blank > 0) out.skip('blank price', blank);
      if (sealedGraded > 0) out.skip(SEALED_GRADED_SKIP, sealedGraded);
    };
  },
};
