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
  'product_key, refsource_id, product_name, subtitle, set_name, product_type, era, earliest_observed_at, tcgplayer_id, printing, language, observation_count';

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
    tcgplayer_id: row.tcgplayer_id,
    printing: row.printing,
    language: row.language,
    observation_count: row.observation_count,
  };
}

/**
 * A catalog search also finds a product by its identity, exactly: the whole search text
 * (trimmed) as its product key, its refsource id or its TCGplayer product id, so an id typed
 * alone (`42346`) finds every product of it (one per printing). These rows come first (the
 * key, then the refsource id, then the TCGplayer id; ties by key), then the full-text
 * matches not among them. `p` is the placeholder of the text (`@text` in SQLite, `$1` in PostgreSQL);
 * each column is indexed, so this is three index lookups.
 */
export const identityWhere = (p: string) =>
  `product_key = ${p} OR refsource_id = ${p} OR tcgplayer_id = ${p}`;
export const identityOrder = (p: string) =>
  `CASE WHEN product_key = ${p} THEN 0 WHEN refsource_id = ${p} THEN 1 ELSE 2 END`;

/** The search text as identity lookups compare it. */
export const identityText = (search: string): string => search.trim();

/** Identity matches first, then the text matches not among them, at most `limit` (-1: all). */
export function identityFirst<T extends { product_key: string }>(
  identity: readonly T[],
  text: readonly T[],
  limit: number,
): T[] {
  const seen = new Set(identity.map((e) => e.product_key));
  const merged = [...identity, ...text.filter((e) => !seen.has(e.product_key))];
  return limit < 0 ? merged : merged.slice(0, limit);
}
