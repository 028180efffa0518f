/**
 * The products table's rows as both stores read them: the columns selected, and the row made
 * a stored product or a catalog entry (sqlite/product-repo.ts, pg/products.ts).
 */
import type { BundleMetadata } from '../domain/bundle.js';
import type { CatalogEntry } from '../domain/product.js';
import { toUtcDate } from '../domain/time.js';
import type { StoredProduct } from './store.js';

/** A products row: the bundle's metadata columns under the same names, plus the keys. */
export interface ProductRow extends BundleMetadata {
  id: number;
  product_key: string;
  refsource_id: string | null;
  tcgplayer_id: string | null;
  printing: string | null;
  language: string | null;
}

export const PRODUCT_COLUMNS =
  'id, product_key, refsource_id, product_name, subtitle, set_name, image_url, product_type, era, release_date, tcgplayer_id, printing, language';

/**
 * What ingesting a product that already exists changes, in both stores' upserts (`ON CONFLICT
 * (product_key) DO UPDATE SET`): every column from the record, but a tcgplayer id or printing
 * the record leaves empty keeps the stored one. A record's language is its whole statement:
 * none is English (null).
 */
export const PRODUCT_UPSERT_SET = `refsource_id = excluded.refsource_id, product_name = excluded.product_name, subtitle = excluded.subtitle,
       set_name = excluded.set_name, image_url = excluded.image_url, product_type = excluded.product_type,
       era = excluded.era, release_date = excluded.release_date,
       tcgplayer_id = COALESCE(excluded.tcgplayer_id, products.tcgplayer_id),
       printing = COALESCE(excluded.printing, products.printing), language = excluded.language`;

export function toProduct(row: ProductRow): StoredProduct {
  return {
    id: row.id,
    productKey: row.product_key,
    refsourceId: row.refsource_id,
    productName: row.product_name,
    subtitle: row.subtitle,
    setName: row.set_name,
    imageUrl: row.image_url,
    productType: row.product_type,
    era: row.era,
    releaseDate: row.release_date,
    tcgplayerId: row.tcgplayer_id,
    printing: row.printing,
    language: row.language,
  };
}

export const CATALOG_COLUMNS =
  'product_key, refsource_id, product_name, subtitle, set_name, product_type, era, earliest_observed_at, observation_count';

/** A catalog row as read: the entry's columns, with the earliest observation still an instant. */
export interface CatalogRow extends Omit<CatalogEntry, 'earliest_observation'> {
  earliest_observed_at: number | null;
}

export function toCatalogEntry(row: CatalogRow): CatalogEntry {
  return {
    product_key: row.product_key,
    refsource_id: row.refsource_id,
    product_name: row.product_name,
    subtitle: row.subtitle,
    set_name: row.set_name,
    product_type: row.product_type,
    era: row.era,
    earliest_observation: row.earliest_observed_at === null ? null : toUtcDate(row.earliest_observed_at),
    observation_count: row.observation_count,
  };
}
