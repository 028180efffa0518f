/** The catalog body of SPEC.md 4.5 (`{total, products}` with exactly the fields of 2.6) and the search body. */
import type { CatalogEntry } from '../domain/product.js';
import type { SearchResult } from './search.js';

export type CatalogProduct = Omit<CatalogEntry, 'observation_count' | 'subtitle' | 'set_name'>;

export interface CatalogBody {
  total: number;
  products: CatalogProduct[];
}

export function catalogBody(entries: readonly CatalogEntry[]): CatalogBody {
  return {
    total: entries.length,
    products: entries.map(
      ({ observation_count: _count, subtitle: _subtitle, set_name: _set, ...entry }) => entry,
    ),
  };
}

/** A search hit: the catalog fields plus the set and subtitle people recognise a card by. */
export type SearchHit = Omit<CatalogEntry, 'observation_count'>;

/**
 * `GET /api/v1/developer/catalog/search`: the query as searched, and the hits, best first;
 * `did_you_mean`, only when `q` matched nothing, is the corrected text the hits match.
 */
export interface SearchBody {
  q: string;
  limit: number;
  products: SearchHit[];
  did_you_mean?: string;
}

export function searchBody(q: string, limit: number, result: SearchResult): SearchBody {
  const products = result.entries.map(({ observation_count: _count, ...hit }) => hit);
  return result.didYouMean === null
    ? { q, limit, products }
    : { q, limit, products, did_you_mean: result.didYouMean };
}
