/**
 * Catalog search that forgives typos, and a product named by its name or a search phrase
 * where a key goes (`oracle price charizard base 4/102`). Search is the store's full-text
 * search (every word, any order, each a prefix); when it finds nothing, the misspelled words
 * are corrected to the catalog's closest words (spelling.ts) and the corrected search answers,
 * saying what it searched ("did you mean").
 */
import { ProductChoiceError, UnknownProductError } from '../domain/errors.js';
import type { CatalogEntry } from '../domain/product.js';
import type { StoredProduct, Store } from '../store/store.js';
import { correctedSearch } from './spelling.js';
import { MAX_SUGGESTIONS, suggestKeys } from './suggest.js';

export interface SearchResult {
  /** The products found, best first. */
  entries: CatalogEntry[];
  /** The corrected search text when `q` matched nothing and the correction found these; null otherwise. */
  didYouMean: string | null;
}

/** Products `q` matches, at most `limit` (default: all); when none, those of its spelling correction. */
export async function searchCatalog(store: Store, q: string, limit?: number): Promise<SearchResult> {
  const entries = await store.products.catalog(q, limit);
  if (entries.length > 0) return { entries, didYouMean: null };
  const corrected = correctedSearch(q, await store.products.vocabulary());
  if (corrected === null) return { entries, didYouMean: null };
  const found = await store.products.catalog(corrected, limit);
  return { entries: found, didYouMean: found.length > 0 ? corrected : null };
}

/** Candidates a name that matches several products lists. */
export const MAX_CHOICES = 10;

/**
 * The product whose key `text` is or, failing that, the one product its words match (as
 * `oracle catalog --search` matches them). Several: ProductChoiceError with the first
 * MAX_CHOICES. None: UnknownProductError suggesting the keys of the corrected search, else
 * the keys closest to `text` (suggest.ts).
 */
export async function productByKeyOrName(store: Store, text: string): Promise<StoredProduct> {
  const byKey = await store.products.findByKey(text);
  if (byKey) return byKey;
  const matches = await store.products.catalog(text);
  if (matches.length === 1) {
    const product = await store.products.findByKey(matches[0]!.product_key);
    if (product) return product;
  }
  if (matches.length > 1) {
    const candidates = matches.slice(0, MAX_CHOICES).map(({ product_key, product_name, set_name, printing }) => ({ product_key, product_name, set_name, printing }));
    throw new ProductChoiceError(text, candidates, matches.length);
  }
  const { entries } = await searchCatalog(store, text, MAX_SUGGESTIONS);
  throw new UnknownProductError(text, entries.length > 0 ? entries.map((e) => e.product_key) : await suggestKeys(store, text));
}
