/**
 * The oracle service: what the CLI and the HTTP API call, once per request. It reads the
 * store and hands the points to the pure engine; it owns no arithmetic of its own.
 */
import type { PricingBundle, PricingParams } from '../domain/bundle.js';
import { NoCatalogMappingError, UnknownProductError } from '../domain/errors.js';
import type { CatalogEntry } from '../domain/product.js';
import { computeBundle, pointsRequest } from '../engine/index.js';
import type { Store, StoredProduct } from '../store/store.js';
import { catalogBody, searchBody, type CatalogBody, type SearchBody } from './catalog.js';
import { suggestKeys } from './suggest.js';

/** The snapshot window is always 24 hours (SPEC.md 4.4). */
export const SNAPSHOT_WINDOW_HOURS = 24;

export interface Oracle {
  /** Looks a product up by catalog key; throws UnknownProductError with up to 3 close keys. */
  productByKey(productKey: string): StoredProduct;
  /** Looks a product up by its local reference-source mapping; throws NoCatalogMappingError. */
  productByRefsource(refsourceId: string): StoredProduct;
  /** Prices one product; `id` is the bundle's reference-source id (null on the pricing route). */
  price(product: StoredProduct, params: PricingParams, id: string | null): PricingBundle;
  /**
   * Prices a product over a snapshot day, the window `parseSnapshotDate` gives
   * (00:00Z of the date to 00:00Z of the next day).
   */
  snapshot(product: StoredProduct, day: { start: number; end: number }, outlierStddevs: number): PricingBundle;
  catalog(search?: string): CatalogBody;
  /** The same body as JSON text, built by the store (the fast path of `oracle catalog --json`). */
  catalogJson(search?: string): string;
  /** The catalog rows with their observation counts, for the analyst's table (searched: best match first). */
  catalogEntries(search?: string): CatalogEntry[];
  /** Full-text search: products matching every word of `q` (prefixes, any order), best first. */
  search(q: string, limit: number): SearchBody;
}

export function createOracle(deps: { store: Store }): Oracle {
  const { store } = deps;
  const price: Oracle['price'] = (product, params, id) => {
    const points = store.pricePoints.read(product.id, pointsRequest(params));
    return computeBundle({ product, points, params, id });
  };
  return {
    productByKey(productKey) {
      const product = store.products.findByKey(productKey);
      if (!product) throw new UnknownProductError(productKey, suggestKeys(store, productKey));
      return product;
    },
    productByRefsource(refsourceId) {
      const product = store.products.findByRefsourceId(refsourceId);
      if (!product) throw new NoCatalogMappingError(refsourceId);
      return product;
    },
    price,
    snapshot(product, day, outlierStddevs) {
      return price(product, { windowHours: SNAPSHOT_WINDOW_HOURS, outlierStddevs, asOf: day.end }, product.refsourceId);
    },
    catalog(search) {
      return catalogBody(store.products.catalog(search));
    },
    // A search result is a few ranked rows: serialised here; the whole catalog is built by SQLite.
    catalogJson: (search) => (search ? JSON.stringify(catalogBody(store.products.catalog(search))) : store.products.catalogJson()),
    catalogEntries: (search) => store.products.catalog(search),
    search: (q, limit) => searchBody(q, limit, store.products.catalog(q, limit)),
  };
}
