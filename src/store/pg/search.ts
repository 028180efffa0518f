/**
 * Catalog search on PostgreSQL, matching and ranking as the SQLite store's FTS5 index does
 * (drizzle/0001_products_fts.sql): the same words (unicode61: runs of letters and digits,
 * case and diacritics folded), the same phrases (../fts-query.ts: each word a phrase whose
 * last token is a prefix), and the same bm25 with the same column weights, so both stores
 * answer a search with the same products in the same order.
 *
 * The tsvector column (schema.ts) holds each product's words; a GIN index over it finds the
 * products holding every token of a phrase (`'4' & '102':*`), a superset of the phrase's
 * matches, which are then matched exactly (tokens consecutive, in one column) and scored here.
 */

/** The indexed columns, in FTS5's order, with bm25's weight for each (product-repo.ts). */
export const SEARCH_COLUMNS = ['product_key', 'product_name', 'set_name', 'subtitle'] as const;
const WEIGHTS = [1.0, 4.0, 2.0, 2.0] as const;

/** FTS5's bm25 constants. */
const K1 = 1.2;
const B = 0.75;
/** FTS5's floor for the IDF of a phrase found in more than half the rows. */
const MIN_IDF = 1e-6;

/** unicode61's token characters: letters, numbers, private use (its default categories L* N* Co). */
const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;
const MARKS = /\p{M}/gu;

/** The tokens of `text` as unicode61 with remove_diacritics folds them. */
export function tokenize(text: string): string[] {
  const tokens = text.match(TOKEN);
  if (tokens === null) return [];
  return tokens.map((t) => t.toLowerCase().normalize('NFD').replace(MARKS, ''));
}

/** The search document of a product: its words (the tsvector's source) and how many. */
export function searchDocument(columns: readonly string[]): { searchText: string; searchSize: number } {
  const words = columns.flatMap((c) => tokenize(c));
  return { searchText: words.join(' '), searchSize: words.length };
}

/** A phrase: tokens that must follow each other in one column, the last one as a prefix. */
type Phrase = readonly string[];

export function toPhrase(text: string): Phrase {
  return tokenize(text);
}

/** A tsquery (input syntax, no parser involved) that every match of `phrase` satisfies. */
function phraseQuery(phrase: Phrase): string {
  // Tokens hold only letters and digits: quoting them is a complete escape.
  return phrase.map((t, i) => `'${t}'${i === phrase.length - 1 ? ':*' : ''}`).join(' & ');
}

/** The tsquery finding every product that matches any of `phrases`. */
export function anyPhraseQuery(phrases: readonly Phrase[]): string {
  return phrases.map((p) => `(${phraseQuery(p)})`).join(' | ');
}

/** How many times `phrase` occurs in `tokens`. */
function occurrences(tokens: readonly string[], phrase: Phrase): number {
  const last = phrase.length - 1;
  let n = 0;
  for (let start = 0; start + last < tokens.length; start++) {
    let i = 0;
    while (i < last && tokens[start + i] === phrase[i]) i++;
    if (i === last && tokens[start + last]!.startsWith(phrase[last]!)) n++;
  }
  return n;
}

export interface SearchCandidate {
  id: number;
  product_key: string;
  product_name: string;
  set_name: string;
  subtitle: string;
}

export interface Corpus {
  /** Products in the index (all of them). */
  rows: number;
  /** Tokens in the index, all columns of all products. */
  tokens: number;
}

/**
 * The candidates that match (every phrase with `all`, else any), best first: bm25 as FTS5
 * computes it (lower is better), ties by product key.
 */
export function rankMatches<T extends SearchCandidate>(
  candidates: readonly T[],
  phrases: readonly Phrase[],
  all: boolean,
  corpus: Corpus,
): T[] {
  if (phrases.some((p) => p.length === 0)) {
    // A phrase with no token matches nothing; with `all`, nothing matches.
    if (all) return [];
    phrases = phrases.filter((p) => p.length > 0);
  }
  const scored = candidates.map((row) => {
    const columns = SEARCH_COLUMNS.map((c) => tokenize(row[c]));
    const freq = phrases.map((p) =>
      columns.reduce((sum, tokens, c) => sum + WEIGHTS[c]! * occurrences(tokens, p), 0),
    );
    const size = columns.reduce((sum, tokens) => sum + tokens.length, 0);
    return { row, freq, size };
  });
  const idf = phrases.map((_, i) => {
    const hits = scored.reduce((n, s) => n + (s.freq[i]! > 0 ? 1 : 0), 0);
    const value = Math.log((corpus.rows - hits + 0.5) / (hits + 0.5));
    return value <= 0 ? MIN_IDF : value;
  });
  const avgdl = corpus.tokens / corpus.rows;
  const matches: { row: T; score: number }[] = [];
  for (const { row, freq, size } of scored) {
    if (all ? freq.some((f) => f === 0) : freq.every((f) => f === 0)) continue;
    let score = 0;
    for (let i = 0; i < phrases.length; i++) {
      score += (idf[i]! * (freq[i]! * (K1 + 1))) / (freq[i]! + K1 * (1 - B + (B * size) / avgdl));
    }
    matches.push({ row, score: -1 * score });
  }
  matches.sort(
    (a, b) =>
      a.score - b.score ||
      (a.row.product_key < b.row.product_key ? -1 : a.row.product_key > b.row.product_key ? 1 : 0),
  );
  return matches.map((m) => m.row);
}
