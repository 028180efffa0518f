/**
 * "Did you mean" keys for an unknown product key: the full-text index proposes the keys
 * sharing the most words with it, and edit distance picks the closest of those, so a typo in
 * one word ("charzard") still finds the key that matches every other word. An id typed in
 * place of a key (`oracle price 42346`) gets the keys of its products first.
 */
import type { Store } from '../store/store.js';

/** Suggestions shown with an unknown key. */
export const MAX_SUGGESTIONS = 3;
/** Candidates the index proposes for edit distance to rank (bounded work on an error path). */
const CANDIDATES = 25;
/** Keys longer than this are compared on their first this-many characters (a bounded distance table). */
const COMPARED_CHARS = 200;

/** An id typed where a key goes: a refsource id or a TCGplayer product id. */
const ID = /^\d{1,20}$/;

export async function suggestKeys(store: Store, unknownKey: string): Promise<string[]> {
  const wanted = unknownKey.slice(0, COMPARED_CHARS).toLowerCase();
  // An id typed in place of a key is never taken for one product (a TCGplayer id names every
  // printing of a card): the keys it is the refsource id or TCGplayer id of come first; a
  // product's name typed in place of its key (`Aaron Judge #99`) suggests that product's key first.
  const byId = ID.test(unknownKey)
    ? await productsOfId(store, unknownKey)
    : await keysNamed(store, unknownKey);
  const candidates = await store.products.keysLike(wanted, CANDIDATES);
  // Stable sort: equal distances keep the index's bm25 order.
  const close = candidates
    .filter((key) => !byId.includes(key))
    .map((key, rank) => ({
      key,
      rank,
      distance: editDistance(wanted, key.slice(0, COMPARED_CHARS).toLowerCase()),
    }))
    .sort((a, b) => a.distance - b.distance || a.rank - b.rank)
    .map((c) => c.key);
  return [...byId, ...close].slice(0, MAX_SUGGESTIONS);
}

/** A name as compared with another: case, accents and runs of spaces aside. */
export function nameForm(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * How a catalog match ranks for a phrase: 0 the product of exactly that name, 1 a plain
 * product, 2 a parallel or variant (a `[...]` tag in its name: `Aaron Judge [Aqua Lava] #99`),
 * so the base card comes before its parallels in a list to choose from.
 */
export function nameRank(phrase: string, productName: string): number {
  if (nameForm(productName) === nameForm(phrase)) return 0;
  return productName.includes('[') ? 2 : 1;
}

/** Catalog matches of a phrase read for names: at most this many (an error path, bounded work). */
const NAMED_CANDIDATES = 50;

/** The keys of the products whose name is exactly `name` (nameForm), among its first catalog matches. */
async function keysNamed(store: Store, name: string): Promise<string[]> {
  const matches = await store.products.catalog(name, NAMED_CANDIDATES);
  return matches.filter((m) => nameRank(name, m.product_name) === 0).map((m) => m.product_key);
}

/** The keys of the product whose refsource id `id` is, then of those whose TCGplayer id it is. */
async function productsOfId(store: Store, id: string): Promise<string[]> {
  const [byRefsource, byTcgplayer] = await Promise.all([
    store.products.findByRefsourceId(id),
    store.products.findByTcgplayerId(id),
  ]);
  return [...(byRefsource ? [byRefsource.productKey] : []), ...byTcgplayer.map((p) => p.productKey)];
}

/** Levenshtein distance (insert, delete, substitute: 1 each) with one row of memory. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}
