/**
 * Cardmarket's free daily downloads (docs/feeds.md, "Cardmarket"), one JSON object each:
 * - the price guide `price_guide_<game>.json`: `{"version": 1, "createdAt":
 *   "2025-11-26T02:47:06+0100", "priceGuides": [{idProduct, idCategory, avg, low, trend, avg1,
 *   avg7, avg30, and the same six with a `-foil` suffix (Magic) or `-holo` (Pokémon)}]}`, in
 *   euros: each row's `trend` is an ungraded EUR quote of source `cardmarket` for the product
 *   the crosswalk names `cardmarket_id <idProduct>`, its `trend-foil` / `trend-holo` one for the
 *   product named `<idProduct>:foil`, dated by the file's own `createdAt`;
 * - the product catalog `products_singles_<game>.json` (and `products_nonsingles_...`):
 *   `{"version": 1, "createdAt": ..., "products": [{idProduct, name, idCategory, categoryName,
 *   idExpansion, idMetacard, dateAdded}]}`: a catalog record per single card (or booster box),
 *   claiming `cardmarket_id <idProduct>` in the crosswalk.
 * Which of the two a file is, its array's key says; `--kind` must agree when given.
 */
import { InputError } from '../../domain/errors.js';
import { futureObservationProblem } from '../../domain/observation.js';
import { DAY_MS, toIsoUtc } from '../../domain/time.js';
import { slugify } from './product-naming.js';
import {
  RowRejection,
  type FormatOptions,
  type JsonFormat,
  type JsonMapper,
  type RecordKind,
} from './types.js';

export const CARDMARKET_SOURCE = 'cardmarket';

/** The array of each file and the kind of record its elements make. */
const ARRAYS: Readonly<Record<string, RecordKind>> = { priceGuides: 'observations', products: 'catalog' };

/**
 * The guide's figure taken as the quote: `trend`, Cardmarket's price trend of the product's
 * sales, its headline price on every product page and the one figure every row carries; `avg`
 * (the average sale price of the article's sales) and `avg1` / `avg7` / `avg30` are often
 * null for cards that sell rarely, and `low` is the cheapest offer in any condition.
 */
export const CARDMARKET_QUOTE_FIELD = 'trend';
/** The suffixes of the second printing's fields: Magic's guide says `-foil`, Pokémon's `-holo` (its reverse holos). */
const FOIL_SUFFIXES = ['-foil', '-holo'] as const;

/** The variant of a Cardmarket id whose price is the foil (holo) field: `274235:foil`. */
export const FOIL_VARIANT = 'foil';

/** `2025-11-26T02:47:06+0100`, Cardmarket's createdAt (an offset without a colon), or with one, or `Z`. */
const CREATED_AT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:Z|([+-])(\d{2}):?(\d{2}))$/;

/** The instant of a createdAt, or null when it is no such time (or a date that does not exist). */
export function parseCreatedAt(text: string): number | null {
  const m = CREATED_AT.exec(text);
  if (m === null) return null;
  const [, local, sign, hh, mm] = m;
  const at = Date.parse(`${local}Z`);
  if (Number.isNaN(at) || new Date(at).toISOString().slice(0, 19) !== local) return null;
  const offset = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm)) * 60_000;
  return at - offset;
}

/** True when a JSON source starts as Cardmarket's files do (`{"version":1,"createdAt":...`). */
export function isCardmarketHead(head: string): boolean {
  return /^\s*\{\s*"version"\s*:\s*\d+\s*,\s*"createdAt"\s*:/.test(head);
}

/** A price field in euro cents; null when absent, null or 0 (the guide's "no price"). */
function euroCents(value: unknown, field: string): number | null {
  if (value === null || value === undefined || value === 0) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new RowRejection(`${field} must be a price in euros or null (got ${JSON.stringify(value)})`);
  return Math.round(value * 100);
}

function productId(record: Record<string, unknown>): number {
  const id = record.idProduct;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0)
    throw new RowRejection(`idProduct must be a positive whole number (got ${JSON.stringify(id)})`);
  return id;
}

/** Single cards, and the sealed displays the oracle tracks as booster boxes; other categories are skipped. */
function productType(categoryName: string): 'single_card' | 'booster_box' | null {
  if (/\bsingles?$/i.test(categoryName)) return 'single_card';
  if (/\b(display|booster box)$/i.test(categoryName)) return 'booster_box';
  return null;
}

function openCardmarket(options: FormatOptions) {
  /** The file's createdAt, once read; `--observed-at` takes its place when given. */
  let createdAt: number | null = null;
  let kind: RecordKind | null = null;
  const observedAt = (): number => {
    if (options.observedAt !== undefined) return options.observedAt;
    if (createdAt === null)
      throw new InputError(
        options.source,
        1,
        'the file gives no "createdAt" before its prices, so their day cannot be told: give --observed-at',
      );
    return createdAt;
  };
  const onKey = (key: string, value: unknown, line: number): void => {
    if (key !== 'createdAt') return;
    const at = typeof value === 'string' ? parseCreatedAt(value) : null;
    if (at === null)
      throw new InputError(
        options.source,
        line,
        `"createdAt" must be a time such as 2025-11-26T02:47:06+0100 (got ${JSON.stringify(value)})`,
      );
    if (futureObservationProblem(at, options.now) !== null)
      throw new InputError(
        options.source,
        line,
        `"createdAt" ${toIsoUtc(at)} is in the future (now is ${toIsoUtc(options.now)}): is the clock right?`,
      );
    createdAt = at;
  };
  const onArray = (key: string, line: number): void => {
    kind = ARRAYS[key] ?? null;
    if (kind !== null && options.kind !== undefined && options.kind !== kind)
      throw new InputError(
        options.source,
        line,
        `this Cardmarket file's "${key}" are ${kind} records, not ${options.kind}: drop --kind or give the other file`,
      );
  };
  const map: JsonMapper = (value, out) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new RowRejection('an element must be a JSON object');
    const record = value as Record<string, unknown>;
    const id = productId(record);
    if (kind === 'catalog') {
      const name = record.name;
      const category = typeof record.categoryName === 'string' ? record.categoryName : '';
      if (typeof name !== 'string' || name.trim() === '')
        throw new RowRejection(`name must be the product's name (got ${JSON.stringify(name)})`);
      const type = productType(category);
      if (type === null) return out.skip(`category ${category || 'none'}`);
      const expansion = record.idExpansion;
      // The bracket of a card's name tells its versions apart (its attacks): kept in the name, left out of the key.
      const base = slugify(name.replace(/\s*\[[^\]]*\]\s*/g, ' ')) || 'product';
      out.product({
        product_key: `${base}-cm${id}`,
        product_name: name.trim(),
        set_name: typeof expansion === 'number' ? `Cardmarket expansion ${expansion}` : '',
        product_type: type,
        cardmarket_id: String(id),
      });
      return;
    }
    const at = observedAt();
    const day = new Date(Math.floor(at / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
    const quote = (cents: number | null, variant: string | null) => {
      if (cents === null)
        return out.skip(
          variant === null ? `no ${CARDMARKET_QUOTE_FIELD}` : `no foil ${CARDMARKET_QUOTE_FIELD}`,
        );
      const value = variant === null ? String(id) : `${id}:${variant}`;
      out.observation({
        cardmarket_id: value,
        source: CARDMARKET_SOURCE,
        observed_at: toIsoUtc(at),
        price_minor: cents,
        currency: 'EUR',
        // One quote per product, printing and day: the guide's value for its day, whatever time it was published.
        external_id: `${value}@${day}`,
      });
    };
    quote(euroCents(record[CARDMARKET_QUOTE_FIELD], CARDMARKET_QUOTE_FIELD), null);
    for (const suffix of FOIL_SUFFIXES) {
      const field = `${CARDMARKET_QUOTE_FIELD}${suffix}`;
      if (field in record) quote(euroCents(record[field], field), FOIL_VARIANT);
    }
  };
  return { map, onKey, onArray };
}

/** `--format cardmarket`, also recognised by its files' first keys. */
export const cardmarketFormat: JsonFormat = {
  name: 'cardmarket',
  kinds: ['observations', 'catalog'],
  envelope: true,
  resultsKeys: Object.keys(ARRAYS),
  skipsUnmapped: true,
  joinsCrosswalk: true,
  notJsonRecordsHint:
    'a Cardmarket file is one JSON object: {"version": 1, "createdAt": ..., "priceGuides": [...]} or {..., "products": [...]}',
  open: (options) => openCardmarket(options).map,
  openEnvelope: openCardmarket,
};
