/**
 * The canonical catalog record of CONTRACT.md as a zod schema, the one definition of a
 * valid catalog record whatever the container or feed format, and the product it describes.
 */
import { z } from 'zod';
import { IDENTITY_FIELDS, type CrosswalkScheme, type ProductIdentity } from '../../domain/identity.js';
import { canonicalPrinting } from '../../domain/printing.js';
import { ERAS, PRODUCT_TYPES, type Product } from '../../domain/product.js';
import { parseCalendarDate } from '../../domain/time.js';
import {
  dateField,
  digits,
  identityField as identity,
  PRINTING,
  productKey,
  show,
  text,
  unknownFieldsMessage,
} from './fields.js';
import { NO_CONTROL_2000 } from './patterns.js';

const optionalText = (field: string) =>
  text(field, NO_CONTROL_2000, 'must be at most 2,000 characters without control characters').optional();

/**
 * The canonical catalog record (CONTRACT.md), plus `tcgplayer_id` and `printing`, which map
 * TCGplayer price rows onto the product of their printing, and `language` (absent: English).
 */
export const catalogRecordSchema = z.strictObject(
  {
    product_key: productKey,
    refsource_id: digits('refsource_id').optional(),
    product_name: text(
      'product_name',
      NO_CONTROL_2000,
      'must be 1 to 2,000 characters without control characters',
    ),
    subtitle: optionalText('subtitle'),
    set_name: optionalText('set_name'),
    image_url: optionalText('image_url'),
    product_type: z
      .enum(PRODUCT_TYPES, {
        error: (issue) => `product_type must be ${PRODUCT_TYPES.join(' or ')} (got ${show(issue.input)})`,
      })
      .optional(),
    era: z
      .enum(ERAS, { error: (issue) => `era must be ${ERAS.join(' or ')} (got ${show(issue.input)})` })
      .optional(),
    /** Kept as written: the store and the bundle's metadata hold the date as text. */
    release_date: dateField('release_date', parseCalendarDate, (value) => value).optional(),
    tcgplayer_id: digits('tcgplayer_id').optional(),
    printing: text('printing', PRINTING, 'must be 1 to 64 characters without control characters')
      .transform((value) => canonicalPrinting(value) as string)
      .optional(),
    /** The card's language as the feed names it (`Japanese`); absent: English. */
    language: text('language', PRINTING, 'must be 1 to 64 characters without control characters').optional(),
    /** The crosswalk's identities (domain/identity.ts): another source's id of this product. */
    cardmarket_id: identity('cardmarket_id'),
    pricecharting_id: identity('pricecharting_id'),
    scryfall_id: identity('scryfall_id'),
    psa_spec: identity('psa_spec'),
  },
  { error: unknownFieldsMessage },
);

export type CatalogRecord = z.output<typeof catalogRecordSchema>;

/** Fields a catalog record may have. */
export const CATALOG_FIELDS: readonly string[] = Object.keys(catalogRecordSchema.shape);

/** The product a valid catalog record describes; absent fields take the schema's defaults. */
export function toProduct(record: CatalogRecord): Product {
  return {
    productKey: record.product_key,
    refsourceId: record.refsource_id ?? null,
    productName: record.product_name,
    subtitle: record.subtitle ?? '',
    setName: record.set_name ?? '',
    imageUrl: record.image_url ?? '',
    productType: record.product_type ?? 'single_card',
    era: record.era ?? 'modern',
    releaseDate: record.release_date ?? null,
    tcgplayerId: record.tcgplayer_id ?? null,
    printing: record.printing ?? null,
    language: record.language ?? null,
    identities: recordIdentities(record),
  };
}

function recordIdentities(record: CatalogRecord): ProductIdentity[] {
  const found: ProductIdentity[] = [];
  for (const [scheme, field] of Object.entries(IDENTITY_FIELDS) as [CrosswalkScheme, keyof CatalogRecord][]) {
    const value = record[field];
    if (typeof value === 'string') found.push({ scheme, value });
  }
  return found;
}
