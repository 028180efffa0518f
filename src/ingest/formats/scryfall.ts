/**
 * Scryfall's bulk card data (`--format scryfall`): the `default_cards` or `all_cards` file,
 * one JSON array of card objects (https://scryfall.com/docs/api/bulk-data), read element by
 * element (read/json-array.ts: the real file is about 500 MB). Each paper card is one product
 * per finish (`nonfoil`, `foil`, `etched`: the printing) with `--kind catalog`; else its
 * prices are quotes of that product, `usd*` in US dollars (TCGplayer's market price, which
 * Scryfall relays) and `eur*` in euros (Cardmarket's trend price), docs/feeds.md "Scryfall".
 */
import { InputError } from '../../domain/errors.js';
import { identityValue } from '../../domain/identity.js';
import { futureObservationProblem } from '../../domain/observation.js';
import { toIsoUtc } from '../../domain/time.js';
import { observedAtOf } from './feed-row.js';
import { eraFor } from './product-naming.js';
import { tcgcsvKeySlug } from './tcgcsv-catalog.js';
import { RowRejection, type FormatOptions, type JsonFormat, type RecordSink } from './types.js';

/** A finish as Scryfall names it, and the printing its product is stored with (TCGplayer's spelling for Magic). */
export const SCRYFALL_FINISHES: Readonly<Record<string, string>> = {
  nonfoil: 'Normal',
  foil: 'Foil',
  etched: 'Etched',
};

/**
 * The price fields of a finish, with their currency and the market whose price Scryfall
 * relays: a quote is stored under that market's source, so a TCGplayer price read from tcgcsv
 * and from Scryfall the same day is one source's correlated quotes (methodology §4.1, §5),
 * never two sources agreeing. `tix` (MTGO tickets, no money) is not read; Cardmarket has no
 * etched price.
 */
export const SCRYFALL_PRICE_FIELDS: Readonly<
  Record<string, readonly { field: string; currency: string; source: string }[]>
> = {
  nonfoil: [
    { field: 'usd', currency: 'USD', source: 'tcgplayer' },
    { field: 'eur', currency: 'EUR', source: 'cardmarket' },
  ],
  foil: [
    { field: 'usd_foil', currency: 'USD', source: 'tcgplayer' },
    { field: 'eur_foil', currency: 'EUR', source: 'cardmarket' },
  ],
  etched: [{ field: 'usd_etched', currency: 'USD', source: 'tcgplayer' }],
};

/** Scryfall's language codes (https://scryfall.com/docs/api/languages) as the catalog names languages; `en` is none. */
export const SCRYFALL_LANGUAGES: Readonly<Record<string, string | null>> = {
  en: null,
  es: 'Spanish',
  fr: 'French',
  de: 'German',
  it: 'Italian',
  pt: 'Portuguese',
  ja: 'Japanese',
  ko: 'Korean',
  ru: 'Russian',
  zhs: 'Simplified Chinese',
  zht: 'Traditional Chinese',
  he: 'Hebrew',
  la: 'Latin',
  grc: 'Ancient Greek',
  ar: 'Arabic',
  sa: 'Sanskrit',
  ph: 'Phyrexian',
  qya: 'Quenya',
};

/**
 * The bulk file's own time in its name, as Scryfall's `download_uri` writes it
 * (`default-cards-20240808091012.json`: the bulk object's `updated_at`, UTC).
 */
const BULK_STAMP = /(?:default|all)[-_]cards[-_](\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?=[._-]|$)/i;

/**
 * The time of a bulk file's prices: `--observed-at`, else the time stamped in its file name.
 * Scryfall's cards carry no date of their own, so a file with neither stops (exit 2) rather
 * than being dated today; so does a stamp that is no real time or is in the future.
 */
export function scryfallObservedAt(options: Pick<FormatOptions, 'observedAt' | 'now' | 'source'>): string {
  if (options.observedAt !== undefined) return observedAtOf(options);
  const m = BULK_STAMP.exec(options.source.split(/[/\\]/).at(-1) ?? '');
  const hint =
    "give --observed-at with the bulk file's updated_at (https://api.scryfall.com/bulk-data/default-cards), " +
    'or keep the name Scryfall gives it (default-cards-<YYYYMMDDhhmmss>.json)';
  if (m === null)
    throw new InputError(options.source, 1, `Scryfall's cards carry no date of their own: ${hint}`);
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const at = Date.UTC(y, mo - 1, d, h, mi, s);
  const date = new Date(at);
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || h > 23 || mi > 59 || s > 59)
    throw new InputError(options.source, 1, `the time ${m[0]} in the file name is no real time: ${hint}`);
  const future = futureObservationProblem(at, options.now, 'the time in the file name');
  if (future !== null) throw new InputError(options.source, 1, `${future}: ${hint}`);
  return toIsoUtc(at);
}

/** One card object's field as text: strings as written, numbers as JSON writes them, null and absent as empty. */
function text(card: Record<string, unknown>, field: string): string {
  const value = card[field];
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  throw new RowRejection(`${field} must be a string or a whole number (got ${JSON.stringify(value)})`);
}

/** What every record of one card shares: its identity and finishes; throws RowRejection naming what is missing. */
interface Card {
  fields: Record<string, unknown>;
  id: string;
  name: string;
  setName: string;
  number: string;
  language: string | null;
  finishes: string[];
}

function readCard(value: unknown): Card | { skip: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new RowRejection('a card must be a JSON object');
  const fields = value as Record<string, unknown>;
  if (fields.object !== 'card')
    throw new RowRejection(
      `not a Scryfall card: "object" is ${JSON.stringify(fields.object)}, not "card" (is this a bulk cards file?)`,
    );
  // Arena and MTGO cards have no paper price and no paper product.
  if (fields.digital === true) return { skip: 'digital card' };
  const card = {
    fields,
    id: text(fields, 'id'),
    name: text(fields, 'name'),
    setName: text(fields, 'set_name'),
    number: text(fields, 'collector_number'),
  };
  for (const [key, field] of [
    ['id', 'id'],
    ['name', 'name'],
    ['setName', 'set_name'],
    ['number', 'collector_number'],
  ] as const)
    if (card[key] === '') throw new RowRejection(`${field} is empty`);
  const lang = text(fields, 'lang');
  if (!(lang in SCRYFALL_LANGUAGES))
    throw new RowRejection(`lang ${JSON.stringify(lang)} is not one of Scryfall's language codes`);
  const finishes = fields.finishes;
  if (!Array.isArray(finishes) || finishes.length === 0)
    throw new RowRejection(`finishes must be a non-empty list (got ${JSON.stringify(finishes)})`);
  const unknown = finishes.find((f) => typeof f !== 'string' || !(f in SCRYFALL_FINISHES));
  if (unknown !== undefined)
    throw new RowRejection(`finishes: ${JSON.stringify(unknown)} is not nonfoil, foil or etched`);
  return { ...card, language: SCRYFALL_LANGUAGES[lang] ?? null, finishes: finishes as string[] };
}

/** The product key of one finish of a card: `[<language>-]<set name>-<name>-<number>[-foil|-etched]`. */
export function scryfallProductKey(card: Card, finish: string): string {
  return tcgcsvKeySlug(card.setName, card.name, card.number, SCRYFALL_FINISHES[finish]!, card.language);
}

function imageUrl(fields: Record<string, unknown>): string {
  const faces = Array.isArray(fields.card_faces) ? (fields.card_faces as unknown[]) : [];
  for (const holder of [fields, faces[0]]) {
    const uris = (holder as { image_uris?: { normal?: unknown } } | undefined)?.image_uris;
    if (typeof uris?.normal === 'string') return uris.normal;
  }
  return '';
}

function products(card: Card, out: RecordSink): void {
  const released = text(card.fields, 'released_at');
  const rarity = text(card.fields, 'rarity');
  const cardmarketId = text(card.fields, 'cardmarket_id');
  for (const finish of card.finishes) {
    // TCGplayer lists an etched foil as a product of its own (tcgplayer_etched_id).
    const tcgplayerId = text(card.fields, finish === 'etched' ? 'tcgplayer_etched_id' : 'tcgplayer_id');
    out.product({
      product_key: scryfallProductKey(card, finish),
      product_name: card.name,
      subtitle: [card.number, rarity].filter((part) => part !== '').join(' '),
      set_name: card.setName,
      image_url: imageUrl(card.fields),
      product_type: 'single_card',
      era: eraFor(released === '' ? null : released) ?? '',
      release_date: released,
      tcgplayer_id: tcgplayerId,
      printing: SCRYFALL_FINISHES[finish]!,
      language: card.language,
      // One id prices every finish of the card: its second and third printings are `id:foil`, `id:etched`.
      scryfall_id: identityValue(card.id, finish === 'nonfoil' ? null : finish),
      // Cardmarket prices a card plain and foil; it has no etched price, so an etched finish claims none.
      cardmarket_id:
        cardmarketId === '' || finish === 'etched'
          ? ''
          : identityValue(cardmarketId, finish === 'nonfoil' ? null : finish),
    });
  }
}

function quotes(card: Card, observedAt: string, out: RecordSink): void {
  const prices = card.fields.prices;
  if (typeof prices !== 'object' || prices === null || Array.isArray(prices))
    throw new RowRejection(`prices must be an object (got ${JSON.stringify(prices)})`);
  for (const finish of card.finishes) {
    for (const { field, currency, source } of SCRYFALL_PRICE_FIELDS[finish]!) {
      const price = text(prices as Record<string, unknown>, field);
      if (price === '') {
        out.skip('blank price');
        continue;
      }
      out.observation({
        product_key: scryfallProductKey(card, finish),
        source,
        observed_at: observedAt,
        price,
        currency,
        grader: 'ungraded',
      });
    }
  }
}

/** The first characters of a bulk cards file (`[{"object":"card",...`), read as Scryfall's without --format. */
const BULK_HEAD = /^\s*\[\s*\{\s*"object"\s*:\s*"card"/;

/** True when a JSON source starts like Scryfall's bulk cards file. */
export function isScryfallBulk(head: string): boolean {
  return BULK_HEAD.test(head);
}

/** `--format scryfall`: observations by default, the catalog with `--kind catalog`. */
export const scryfallFormat: JsonFormat = {
  name: 'scryfall',
  kinds: ['observations', 'catalog'],
  defaultKind: 'observations',
  skipsUnmapped: true,
  notJsonRecordsHint: "Scryfall's bulk cards file is one JSON array of card objects",
  open(options) {
    const observedAt = options.kind === 'catalog' ? null : scryfallObservedAt(options);
    return (value, out) => {
      const card = readCard(value);
      if ('skip' in card) return out.skip(card.skip);
      if (observedAt === null) products(card, out);
      else quotes(card, observedAt, out);
    };
  },
};
