/** A tracked product as the catalog holds it (CONTRACT.md, catalog records). */
import type { ProductIdentity } from './identity.js';

export const PRODUCT_TYPES = ['single_card', 'booster_box'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

export const ERAS = ['modern', 'vintage'] as const;
export type Era = (typeof ERAS)[number];

export interface Product {
  productKey: string;
  /** Numeric product id of the upstream reference source, as a string of digits. */
  refsourceId: string | null;
  productName: string;
  subtitle: string;
  setName: string;
  imageUrl: string;
  productType: ProductType;
  era: Era;
  /** ISO date YYYY-MM-DD. */
  releaseDate: string | null;
  /** TCGplayer product id, kept to map TCGplayer price rows to the product. */
  tcgplayerId: string | null;
  /**
   * The card's printing as TCGplayer names it (`Reverse Holofoil`, `1st Edition`); null or
   * absent: its regular printing (docs/feeds.md, "Printings").
   */
  printing?: string | null;
  /**
   * The language the card is printed in, as its feed names it (`Japanese`); null or absent:
   * English, the language the feeds assume when they name none.
   */
  language?: string | null;
  /**
   * Identities a catalog record claims in the crosswalk (domain/identity.ts); absent or empty:
   * it claims none, and the stored ones stay. Never read back on a stored product.
   */
  identities?: readonly ProductIdentity[];
}

/**
 * One row of `oracle catalog`: SPEC.md 2.6, plus subtitle, set and observation count for the
 * table and search, and the product's identity as additions (CONTRACT.md additions 7):
 * `tcgplayer_id`, `printing` and `language`.
 */
export interface CatalogEntry {
  product_key: string;
  refsource_id: string | null;
  product_name: string;
  subtitle: string;
  set_name: string;
  product_type: ProductType;
  era: Era;
  /** Earliest UTC date (YYYY-MM-DD) with price data; null without observations. */
  earliest_observation: string | null;
  /** TCGplayer product id (digits); null when the catalog has none. */
  tcgplayer_id: string | null;
  /** The card's printing as TCGplayer names it (`1st Edition Holofoil`); null: its regular printing. */
  printing: string | null;
  /** The language the card is printed in (`Japanese`); null: English. */
  language: string | null;
  observation_count: number;
}
