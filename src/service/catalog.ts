/** The catalog body of SPEC.md 4.5 (`{total, products}` with exactly the fields of 2.6) and the search body. */
import type { CatalogEntry } from '../domain/product.js';
import { cursorAfter, keyOfCursor } from '../domain/search.js';
import type { Store } from '../store/store.js';
import type { SearchResult } from './search.js';

export type CatalogProduct = Omit<CatalogEntry, 'observation_count' | 'subtitle' | 'set_name'>;

export interface CatalogBody {
  total: number;
  products: CatalogProduct[];
}

export function catalogBody(entries: readonly CatalogEntry[]): CatalogBody {
  return { total: entries.length, products: entries.map(catalogProduct) };
}

const catalogProduct = ({
  observation_count: _count,
  subtitle: _subtitle,
  set_name: _set,
  ...entry
}: CatalogEntry): CatalogProduct => entry;

/**
 * One page of SPEC.md 4.5's body: `total` is the whole catalog's, `products` the page's;
 * `next_cursor` reads the next page, null after the last. A catalog within one page answers
 * exactly SPEC.md's body, plus `next_cursor: null`.
 */
export interface CatalogPageBody extends CatalogBody {
  next_cursor: string | null;
}

/** The page of `limit` products after the key `cursor` stands for (null: the first page). */
export async function catalogPage(
  store: Store,
  query: { cursor: string | null; limit: number },
): Promise<CatalogPageBody> {
  const afterKey = query.cursor === null ? null : keyOfCursor(query.cursor);
  // One more than asked tells whether a page follows without a second query.
  const [total, entries] = await Promise.all([
    store.products.count(),
    store.products.catalogPage(afterKey, query.limit + 1),
  ]);
  const page = entries.slice(0, query.limit);
  const last = page.at(-1);
  return {
    total,
    products: page.map(catalogProduct),
    next_cursor: entries.length > query.limit && last !== undefined ? cursorAfter(last.product_key) : null,
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
