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
import { correctedSearch, WORDS_PER_STEP, type VocabularyWord } from './spelling.js';
import type { Pause } from './turns.js';
import { MAX_SUGGESTIONS, nameRank, suggestKeys } from './suggest.js';

export interface SearchResult {
  /** The products found, best first. */
  entries: CatalogEntry[];
  /** The corrected search text when `q` matched nothing and the correction found these; null otherwise. */
  didYouMean: string | null;
}

/**
 * The store's search vocabulary, read once per data version (as the server's bundle cache
 * keys on it): reading it walks the whole index, which a server then pays once per ingest
 * rather than per misspelled search, a page at a time with `pause` between pages. Sorted by
 * JavaScript's order, which spelling.ts's binary search needs, whatever the store's collation.
 */
const vocabularies = new WeakMap<Store, { version: number; words: Promise<VocabularyWord[]> }>();

function vocabularyOf(store: Store, pause: Pause): Promise<VocabularyWord[]> {
  const version = store.dataVersion();
  const cached = vocabularies.get(store);
  if (cached !== undefined && cached.version === version) return cached.words;
  const words = store.products
    .vocabulary(pause)
    .then(async (list) => ((await sortedByWord(list, pause)) ? list : list.sort(byWord)));
  const entry = { version, words };
  vocabularies.set(store, entry);
  // A failed read is not kept: the next search reads again.
  words.catch(() => {
    if (vocabularies.get(store) === entry) vocabularies.delete(store);
  });
  return words;
}

const byWord = (a: VocabularyWord, b: VocabularyWord) => (a.word < b.word ? -1 : a.word > b.word ? 1 : 0);

/**
 * True when `list` is in JavaScript's order already, as the stores' byte order leaves it but for
 * words with characters beyond the Basic Multilingual Plane: then no sort holds the loop.
 */
async function sortedByWord(list: readonly VocabularyWord[], pause: Pause): Promise<boolean> {
  for (let i = 1; i < list.length; i++) {
    if (list[i - 1]!.word > list[i]!.word) return false;
    if (i % WORDS_PER_STEP === 0) await pause();
  }
  return true;
}

/**
 * Products `q` matches, at most `limit` (default: all); when none, those of its spelling
 * correction. `pause` is awaited between the steps of a correction (service/turns.ts).
 */
export async function searchCatalog(
  store: Store,
  q: string,
  limit?: number,
  pause: Pause = noPause,
): Promise<SearchResult> {
  const entries = await store.products.catalog(q, limit);
  if (entries.length > 0) return { entries, didYouMean: null };
  await pause();
  const corrected = await correctedSearch(q, await vocabularyOf(store, pause), pause);
  if (corrected === null) return { entries, didYouMean: null };
  await pause();
  const found = await store.products.catalog(corrected, limit);
  return { entries: found, didYouMean: found.length > 0 ? corrected : null };
}

const noPause: Pause = () => Promise.resolve();

/** Digits alone: a refsource or TCGplayer id, not a name. */
const ID = /^\d{1,20}$/;

/** Candidates a name that matches several products lists. */
export const MAX_CHOICES = 10;

/**
 * The product whose key `text` is or, failing that, the one product its words match (as
 * `oracle catalog --search` matches them), or among several the one whose name `text` is
 * exactly (nameRank); an id is never a name. Several otherwise: ProductChoiceError with the first
 * MAX_CHOICES, names first, then base cards before parallels. None: UnknownProductError suggesting the keys of the corrected search, else
 * the keys closest to `text` (suggest.ts).
 */
export async function productByKeyOrName(store: Store, text: string): Promise<StoredProduct> {
  const byKey = await store.products.findByKey(text);
  if (byKey) return byKey;
  // An id typed where a key goes is never taken for its product: the refsource id has its own
  // option (--refsource, which sets the bundle's id), so its keys are suggested (suggest.ts).
  if (ID.test(text)) throw new UnknownProductError(text, await suggestKeys(store, text));
  const found = await store.products.catalog(text);
  // A card's exact name is that card, whatever else its words match (`Aaron Judge #99`, not
  // its 62 parallels); else the list to choose from starts with the names, then the base cards.
  const matches = found
    .map((entry, i) => ({ entry, i, rank: nameRank(text, entry.product_name) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map(({ entry }) => entry);
  const exact = matches.filter((m) => nameRank(text, m.product_name) === 0);
  const chosen = matches.length === 1 ? matches[0] : exact.length === 1 ? exact[0] : undefined;
  if (chosen !== undefined) {
    const product = await store.products.findByKey(chosen.product_key);
    if (product) return product;
  }
  if (matches.length > 1) {
    const candidates = matches
      .slice(0, MAX_CHOICES)
      .map(({ product_key, product_name, subtitle, set_name, printing }) => ({
        product_key,
        product_name,
        subtitle,
        set_name,
        printing,
      }));
    throw new ProductChoiceError(text, candidates, matches.length);
  }
  const { entries } = await searchCatalog(store, text, MAX_SUGGESTIONS);
  throw new UnknownProductError(
    text,
    entries.length > 0 ? entries.map((e) => e.product_key) : await suggestKeys(store, text),
  );
}
