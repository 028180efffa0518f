/**
 * Sold listings as a marketplace reports them (`--format sold-listings`): one JSON object per
 * listing, NDJSON or a JSON array, in the field names of eBay's Marketplace Insights API
 * (an element of the `itemSales` array of `item_sales/search`), plus the catalog product it
 * is a sale of when the user knows it; else the product is matched from the title. Each listing becomes one observation per unit sold; grader and grade come
 * from structured fields when present, else from the title (title-grade.ts). The record, the
 * rules and their sources are in docs/feeds.md, "Sold listings".
 */
import { playedGrader, UNGRADED, type PlayedCondition } from '../../domain/conditions.js';
import { parseInstant } from '../../domain/time.js';
import { gradeFromTitle, type TitleGrade } from './title-grade.js';
import { RowRejection, type JsonFormat } from './types.js';

export const SOLD_LISTINGS_DEFAULT_SOURCE = 'ebay';

/**
 * Most units one listing may count for. A listing reports its total sold quantity with the
 * date and price of the last sale only; past this many, the figure is no sale count.
 */
export const MAX_QUANTITY = 1_000;

/** eBay's trading-card condition ids: Graded and Ungraded (condition descriptors 27501, 27502). */
export const GRADED_CONDITION_ID = '2750';
export const UNGRADED_CONDITION_ID = '4000';

/** Condition descriptor names (or their numeric ids) of the grader, the grade and an ungraded card's condition. */
const GRADER_DESCRIPTORS = ['professional grader', '27501'];
const GRADE_DESCRIPTORS = ['grade', '27502'];
const CARD_CONDITION_DESCRIPTORS = ['card condition', '40001'];

/**
 * eBay's Card Condition values (descriptor 40001) of an ungraded card, as text or value id, to
 * the raw condition stored: null is near mint (ungraded). Collectible card games name them
 * `Lightly Played (Excellent)` ... (ids 400015-400017), sports cards `Excellent` ... (400011-
 * 400013); both read the same. Sources in docs/feeds.md, "Raw condition".
 */
const CARD_CONDITIONS: Readonly<Record<string, PlayedCondition | null>> = {
  'near mint or better': null,
  '400010': null,
  'lightly played (excellent)': 'LP',
  '400015': 'LP',
  excellent: 'LP',
  '400011': 'LP',
  'moderately played (very good)': 'MP',
  '400016': 'MP',
  'very good': 'MP',
  '400012': 'MP',
  'heavily played (poor)': 'HP',
  '400017': 'HP',
  poor: 'HP',
  '400013': 'HP',
};

/** Grader names as eBay's descriptor values may spell them, to the name observations use. */
const GRADER_ALIASES: Readonly<Record<string, string>> = { BECKETT: 'BGS' };

const UNWRAP = `give its listings, one per line (jq -c '.itemSales[]', docs/feeds.md)`;

/** One observation of a sold listing, in the canonical record's field names. */
export interface SoldListingObservation {
  source: string;
  external_id: string;
  product_key?: string;
  refsource_id?: string;
  /** The listing's title, when it names no product: the product is matched from it (validate/title-matcher.ts). */
  title?: string;
  observed_at: string;
  price: string;
  /** ISO 4217, as the marketplace priced the sale (converted to US cents at ingest, docs/methodology.md §16). */
  currency: string;
  grader: string;
  grade: number | null;
}

type Fields = Readonly<Record<string, unknown>>;

/**
 * The observations of one listing: `totalSoldQuantity` of them (default 1), all at
 * `lastSoldDate` and `lastSoldPrice`, unit k with external_id `<itemId>#<k>`. The ids are
 * the same on every read of the listing, so a re-ingest adds nothing, and a later read with
 * a higher quantity adds exactly the units sold since (at their later date and price).
 * Throws RowRejection naming the field for a listing that cannot be stored.
 */
export function mapSoldListing(value: unknown): SoldListingObservation[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RowRejection(
      `a sold listing must be a JSON object (got ${Array.isArray(value) ? 'an array' : typeof value})`,
    );
  }
  const fields = value as Fields;
  if (Array.isArray(fields.itemSales))
    throw new RowRejection(`this is a whole item_sales/search response: ${UNWRAP}`);
  const itemId = requiredText(fields, 'itemId');
  const reference = productReference(fields);
  const observedAt = requiredText(fields, 'lastSoldDate');
  const instant = parseInstant(observedAt);
  if (typeof instant === 'string') throw new RowRejection(`lastSoldDate ${instant}`);
  const { price, currency } = lastSoldPrice(fields);
  const quantity = soldQuantity(fields);
  const condition = gradeOf(fields);
  const source = fields.source === undefined ? SOLD_LISTINGS_DEFAULT_SOURCE : requiredText(fields, 'source');
  const sales: SoldListingObservation[] = [];
  for (let unit = 1; unit <= quantity; unit += 1) {
    sales.push({
      source,
      external_id: `${itemId}#${unit}`,
      ...reference,
      observed_at: observedAt,
      price,
      currency,
      ...condition,
    });
  }
  return sales;
}

function requiredText(fields: Fields, name: string): string {
  const value = fields[name];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new RowRejection(
      `${name} is required as text (got ${value === undefined ? 'nothing' : JSON.stringify(value)})`,
    );
  }
  return value.trim();
}

/** The product the listing names, else its title to match one by (docs/feeds.md, "Matched by title"). */
function productReference(
  fields: Fields,
): { product_key: string } | { refsource_id: string } | { title: string } {
  if (fields.product_key !== undefined) return { product_key: requiredText(fields, 'product_key') };
  if (fields.refsource_id !== undefined) return { refsource_id: String(fields.refsource_id).trim() };
  return { title: requiredText(fields, 'title') };
}

/** `lastSoldPrice`: its value and its currency (an ISO 4217 code; USD, EUR, GBP ... each converted at ingest at its day's rate). */
function lastSoldPrice(fields: Fields): { price: string; currency: string } {
  const amount = fields.lastSoldPrice;
  if (typeof amount !== 'object' || amount === null)
    throw new RowRejection('lastSoldPrice is required: {"value": "29.99", "currency": "USD"}');
  const { value, currency } = amount as Fields;
  if (typeof currency !== 'string' || !/^[A-Za-z]{3}$/.test(currency.trim())) {
    throw new RowRejection(
      `lastSoldPrice.currency is ${JSON.stringify(currency ?? null)}: give the ISO 4217 code the sale was priced in (USD, EUR, GBP, ...)`,
    );
  }
  const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
  if (!/^\d{1,13}(\.\d{1,2})?$/.test(text) || Number(text) <= 0) {
    throw new RowRejection(
      `lastSoldPrice.value must be an amount greater than 0 with at most 2 decimals (got ${JSON.stringify(value ?? null)})`,
    );
  }
  return { price: text, currency: currency.trim().toUpperCase() };
}

function soldQuantity(fields: Fields): number {
  const quantity = fields.totalSoldQuantity;
  if (quantity === undefined || quantity === null) return 1;
  const n = typeof quantity === 'string' && /^\d+$/.test(quantity.trim()) ? Number(quantity) : quantity;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_QUANTITY) {
    throw new RowRejection(
      `totalSoldQuantity must be a whole number from 1 to ${MAX_QUANTITY} (got ${JSON.stringify(quantity)})`,
    );
  }
  return n;
}

/**
 * Grader and grade. The title's not-one-card rules (a lot, a proxy) reject a listing whatever
 * its condition fields say. Then the condition id decides graded or ungraded where it is
 * one of the card condition ids; a graded listing's grader and grade come from its condition
 * descriptors, else from its title; an ungraded one's played condition from its Card
 * Condition descriptor, else from its title. A listing without a card condition id takes its
 * descriptors when it has them, else its title.
 */
function gradeOf(fields: Fields): { grader: string; grade: number | null } {
  const fromTitle = gradeFromTitle(requiredText(fields, 'title'));
  if (fromTitle.kind === 'not one card') throw new RowRejection(fromTitle.reason);
  const conditionId =
    fields.conditionId === undefined || fields.conditionId === null
      ? null
      : String(fields.conditionId).trim();
  const cardCondition = descriptorContent(fields.conditionDescriptors, CARD_CONDITION_DESCRIPTORS);
  if (conditionId === UNGRADED_CONDITION_ID) return rawCondition(cardCondition, fromTitle);
  const described = fromDescriptors(fields.conditionDescriptors);
  if (described !== null) return described;
  if (cardCondition !== null) return rawCondition(cardCondition, fromTitle);
  if (fromTitle.kind === 'unclear') throw new RowRejection(fromTitle.reason);
  if (fromTitle.kind === 'graded') return { grader: fromTitle.grader, grade: fromTitle.grade };
  if (conditionId === GRADED_CONDITION_ID) {
    throw new RowRejection(
      `conditionId ${GRADED_CONDITION_ID} says graded, but neither condition descriptors nor the title name the grader and grade`,
    );
  }
  return rawCondition(null, fromTitle);
}

/**
 * A raw card's grader: `ungraded` (near mint) or `RAW-LP` ... . The Card Condition descriptor
 * decides when the listing has one; else the played condition its title states.
 */
function rawCondition(cardCondition: string | null, fromTitle: TitleGrade): { grader: string; grade: null } {
  if (cardCondition !== null) {
    const played = CARD_CONDITIONS[cardCondition.toLowerCase()];
    if (played === undefined) {
      throw new RowRejection(
        `the Card Condition descriptor ${JSON.stringify(cardCondition)} is none of eBay's ungraded conditions (Near Mint or Better, Lightly Played (Excellent), Moderately Played (Very Good), Heavily Played (Poor))`,
      );
    }
    return { grader: played === null ? UNGRADED : playedGrader(played), grade: null };
  }
  return { grader: fromTitle.kind === 'played' ? playedGrader(fromTitle.condition) : UNGRADED, grade: null };
}

/** The first value of the first descriptor named one of `names` (names or numeric ids), or null. */
function descriptorContent(descriptors: unknown, names: readonly string[]): string | null {
  if (!Array.isArray(descriptors)) return null;
  for (const descriptor of descriptors as Fields[]) {
    if (typeof descriptor !== 'object' || descriptor === null) continue;
    if (
      !names.includes(
        String(descriptor.name ?? '')
          .trim()
          .toLowerCase(),
      )
    )
      continue;
    const [first] = Array.isArray(descriptor.values) ? (descriptor.values as Fields[]) : [];
    const text = first?.content;
    if (typeof text === 'string' && text.trim() !== '') return text.trim();
  }
  return null;
}

/**
 * Grader and grade from Browse API condition descriptors (`[{name, values: [{content}]}]`,
 * names or their numeric ids), or null when the listing has neither descriptor.
 */
function fromDescriptors(descriptors: unknown): { grader: string; grade: number } | null {
  if (descriptors === undefined || descriptors === null) return null;
  if (!Array.isArray(descriptors))
    throw new RowRejection('conditionDescriptors must be an array of {name, values}');
  const graderText = descriptorContent(descriptors, GRADER_DESCRIPTORS);
  const gradeText = descriptorContent(descriptors, GRADE_DESCRIPTORS);
  if (graderText === null && gradeText === null) return null;
  if (graderText === null || gradeText === null) {
    throw new RowRejection(
      `condition descriptors give ${graderText === null ? `a grade (${gradeText}) but no grader` : `a grader (${graderText}) but no grade`}`,
    );
  }
  // "Professional Sports Authenticator (PSA)" -> PSA
  const abbreviation = /\(([A-Za-z][A-Za-z0-9-]*)\)\s*$/.exec(graderText)?.[1] ?? graderText;
  const grader = GRADER_ALIASES[abbreviation.toUpperCase()] ?? abbreviation.toUpperCase();
  if (!/^[A-Z][A-Z0-9_-]{0,31}$/.test(grader))
    throw new RowRejection(
      `the Professional Grader descriptor ${JSON.stringify(graderText)} names no grader`,
    );
  const grade = /^\d{1,2}(\.5)?$/.test(gradeText) ? Number(gradeText) : NaN;
  if (!(grade >= 1 && grade <= 10))
    throw new RowRejection(`the Grade descriptor ${JSON.stringify(gradeText)} is no grade from 1 to 10`);
  return { grader, grade };
}

/** `--format sold-listings`: NDJSON or a JSON array of sold listings. */
export const soldListingsFormat: JsonFormat = {
  name: 'sold-listings',
  kinds: ['observations'],
  notJsonRecordsHint: `a whole item_sales/search response is not read: ${UNWRAP}`,
  open() {
    return (value, out) => {
      for (const sale of mapSoldListing(value)) out.observation({ ...sale });
    };
  },
};
