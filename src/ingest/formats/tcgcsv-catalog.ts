/**
 * Catalog products from tcgcsv's ProductsAndPrices.csv (any TCGplayer category) and the
 * category's groups file: one product per row, that is per (productId, subTypeName), since
 * TCGplayer prices each printing of a card apart under one productId. docs/feeds.md,
 * "Catalog from tcgcsv (`--kind catalog --groups`)", documents every field.
 */
import { canonicalPrinting, REGULAR_PRINTINGS } from '../../domain/printing.js';
import type { Era, ProductType } from '../../domain/product.js';
import type { CsvFields } from './feed-row.js';
import { eraFor, slugify } from './product-naming.js';
import type { TcgcsvGroups } from './tcgcsv-groups.js';
import { RowRejection } from './types.js';

/**
 * The language of TCGplayer categories whose cards are not English (null, the default, is
 * English): 85 is "Pokemon Japan" in tcgcsv's category list (tcgcsv.com/tcgplayer/categories),
 * TCGplayer's only category of a card game in another language that we can cite.
 */
export const LANGUAGE_BY_CATEGORY: Readonly<Record<string, string>> = {
  '85': 'Japanese',
};

/**
 * What a sealed product is, from its name, first match wins: the subtitle of a sealed
 * product (SPEC.md has one sealed product type, `booster_box`, for all of them).
 */
export const SEALED_KINDS: readonly (readonly [kind: string, pattern: RegExp])[] = [
  ['Booster Box Case', /\bbooster\s+(box|display)\s+case\b/i],
  ['Booster Box', /\bbooster\s+(box|display)\b/i],
  ['Booster Bundle', /\bbooster\s+bundle\b/i],
  ['Booster Pack', /\b(booster\s+)?pack\b/i],
  ['Elite Trainer Box', /\belite\s+trainer\s+box\b/i],
  ['Theme Deck', /\btheme\s+deck\b/i],
  ['Starter Set', /\bstarter\s+(set|deck)\b/i],
  ['Collection', /\bcollection\b/i],
  ['Tin', /\btin\b/i],
];

/** The subtitle of a sealed product without a kind SEALED_KINDS knows. */
const SEALED = 'Sealed product';

/** A catalog product of a tcgcsv row, in the canonical catalog record's field names. */
export interface TcgcsvProduct {
  product_key: string;
  product_name: string;
  subtitle: string;
  set_name: string;
  image_url: string;
  product_type: ProductType;
  era: Era;
  release_date: string;
  tcgplayer_id: string;
  printing: string | null;
  language: string | null;
}

/** A row with no card number and no rarity is a sealed product (a box, a deck, a pack). */
export function isSealed(fields: CsvFields): boolean {
  return (fields.extNumber ?? '').trim() === '' && (fields.extRarity ?? '').trim() === '';
}

/** The sealed kind of a product name (SEALED_KINDS), else `Sealed product`. */
export function sealedKind(name: string): string {
  return SEALED_KINDS.find(([, pattern]) => pattern.test(name))?.[0] ?? SEALED;
}

/**
 * The key of a product before disambiguation: `[<language>-]<set>-<name>-<number>`, slugged as
 * PriceCharting keys are (`base-set-charizard-004-102`), plus the printing when it is not a
 * regular one (`base-set-alakazam-001-102-1st-edition-holofoil`). The number is left out when
 * the name already ends with it (`Pikachu - 025/165`), the set when the name starts with it.
 */
export function tcgcsvKeySlug(
  setName: string,
  name: string,
  number: string,
  printing: string | null,
  language: string | null,
): string {
  const nameSlug = slugify(name);
  const numberSlug = slugify(number);
  const setSlug = slugify(setName);
  // A sealed product's name often starts with its set's (`Base Set Booster Box`): said once.
  const parts = [
    language === null ? '' : slugify(language),
    nameSlug.startsWith(`${setSlug}-`) ? '' : setSlug,
    nameSlug,
  ];
  if (numberSlug !== '' && !nameSlug.endsWith(numberSlug)) parts.push(numberSlug);
  if (printing !== null && !REGULAR_PRINTINGS.includes(printing)) parts.push(slugify(printing));
  return parts.filter((part) => part !== '').join('-');
}

/** Longest product_key CONTRACT.md allows. */
const MAX_KEY_LENGTH = 200;

/**
 * Keys for one file, unique within it: the slug, or for a later row whose slug an earlier
 * row took, the slug plus its printing when that row was of the same productId (a second
 * regular printing), else plus its productId. The same file gives the same keys in every run.
 */
export function createTcgcsvKeyAllocator(): (
  slug: string,
  productId: string,
  printing: string | null,
) => string {
  /** Key -> `<productId>:<printing>` of the row that has it. */
  const owners = new Map<string, string>();
  return (slug, productId, printing) => {
    const owner = `${productId}:${printing ?? ''}`;
    const printingSlug = printing === null ? '' : slugify(printing);
    const sameProductFirst = owners.get(slug)?.startsWith(`${productId}:`) === true;
    const candidates = [slug];
    if (sameProductFirst && printingSlug !== '' && !slug.endsWith(printingSlug))
      candidates.push(`${slug}-${printingSlug}`);
    candidates.push(`${slug}-${productId}`, `${slug}-${productId}-${printingSlug || 'none'}`);
    for (const candidate of candidates) {
      const key = candidate.length <= MAX_KEY_LENGTH ? candidate : cut(candidate, productId);
      const taken = owners.get(key);
      if (taken === undefined || taken === owner) {
        owners.set(key, owner);
        return key;
      }
    }
    throw new RowRejection(
      `productId ${productId} with subTypeName ${JSON.stringify(printing ?? '')} appears twice in the file`,
    );
  };
}

/** A key cut to MAX_KEY_LENGTH that still ends with the productId, which makes it unique. */
function cut(key: string, productId: string): string {
  return `${key.slice(0, MAX_KEY_LENGTH - productId.length - 1).replace(/-+$/, '')}-${productId}`;
}

/**
 * Maps one row to its product. Throws RowRejection when productId is not digits, the name
 * is empty, the group is not in the groups file, or the group's date is missing or not a
 * real date (the era is never guessed).
 */
export function mapTcgcsvProduct(
  fields: CsvFields,
  groups: TcgcsvGroups,
  allocate: ReturnType<typeof createTcgcsvKeyAllocator>,
): TcgcsvProduct {
  const productId = (fields.productId ?? '').trim();
  if (!/^\d+$/.test(productId))
    throw new RowRejection(`productId must be digits (got ${JSON.stringify(fields.productId ?? '')})`);
  const name = (fields.name ?? '').trim();
  if (name === '') throw new RowRejection('name is empty');
  const groupId = (fields.groupId ?? '').trim();
  const group = groups.get(groupId);
  if (group === undefined)
    throw new RowRejection(
      `groupId ${JSON.stringify(groupId)} is not in the groups file (--groups): its set name and date are unknown`,
    );
  if (group.releaseProblem !== null)
    throw new RowRejection(`group ${groupId} (${group.name}): ${group.releaseProblem}`);
  if (group.releaseDate === null) {
    throw new RowRejection(
      `group ${groupId} (${group.name}) has no publishedOn date, so the era (vintage before 2004, modern after) cannot be told`,
    );
  }
  const categoryId = (fields.categoryId ?? '').trim() || group.categoryId || '';
  const language = LANGUAGE_BY_CATEGORY[categoryId] ?? null;
  const printing = canonicalPrinting(fields.subTypeName ?? '');
  const sealed = isSealed(fields);
  const number = (fields.extNumber ?? '').trim();
  const rarity = (fields.extRarity ?? '').trim();
  const slug = tcgcsvKeySlug(group.name, name, number, printing, language) || `tcgplayer-${productId}`;
  return {
    product_key: allocate(slug.slice(0, MAX_KEY_LENGTH).replace(/-+$/, ''), productId, printing),
    product_name: name,
    subtitle: sealed ? sealedKind(name) : [number, rarity].filter((part) => part !== '').join(' '),
    set_name: group.name,
    image_url: (fields.imageUrl ?? '').trim(),
    product_type: sealed ? 'booster_box' : 'single_card',
    era: eraFor(group.releaseDate) as Era,
    release_date: group.releaseDate,
    tcgplayer_id: productId,
    printing,
    language,
  };
}
