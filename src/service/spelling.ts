/**
 * Spelling correction for catalog search: a word of a search that no catalog word starts with
 * ("charzard", "pickachu", "blastiose") is replaced by the closest word the catalog holds, by
 * edit distance, so a search that forgives typos is the same full-text search over corrected
 * words. Pure: the catalog's words come from the store (Store.products.vocabulary).
 */

/** A word of the catalog's search index and how many products hold it. */
export interface VocabularyWord {
  word: string;
  products: number;
}

/**
 * Most edits a word of this many characters may be from the word it is corrected to: none up
 * to 3 characters (too many short words are one edit apart), 1 up to 5, 2 from 6.
 */
export function allowedEdits(length: number): number {
  return length <= 3 ? 0 : length <= 5 ? 1 : 2;
}

const TOKEN = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}/gu;
const DIGITS = /^\d+$/;

/** The words of a text as the search index holds them: letters and digits, lower case, diacritics folded. */
export function searchWords(text: string): string[] {
  return (text.normalize('NFD').replace(MARKS, '').toLowerCase().match(TOKEN) ?? []);
}

/**
 * Edits from `a` to `b` (insert, delete, substitute, swap two neighbours: 1 each; optimal
 * string alignment) or, when less, from `a` to a prefix of `b`, since search words are
 * prefixes ("charzar" is one edit from "chariza", a prefix of "charizard"). At most `max` + 1:
 * a larger distance is not needed.
 */
export function distanceToWordOrPrefix(a: string, b: string, max: number): number {
  const n = a.length;
  // Prefixes of b longer than a + max cannot be within max of a.
  const m = Math.min(b.length, n + max);
  let before: number[] = [];
  let previous = Array.from({ length: m + 1 }, (_, j) => j);
  for (let i = 1; i <= n; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= m; j++) {
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    before = previous;
    previous = row;
  }
  // The last row: a against every prefix of b (within m); the whole of b only when m reaches it.
  return Math.min(...previous.slice(1));
}

/**
 * The search text with each word no catalog word starts with replaced by the closest catalog
 * word (fewest edits, then the one more products hold, then the first alphabetically), and
 * left out when none is within allowedEdits; numbers are never corrected. Null when no word
 * changed (nothing to suggest) or none is left.
 */
export function correctedSearch(text: string, vocabulary: readonly VocabularyWord[]): string | null {
  const words = searchWords(text);
  const out: string[] = [];
  let changed = false;
  for (const word of words) {
    if (DIGITS.test(word) || vocabulary.some((v) => v.word.startsWith(word))) {
      out.push(word);
      continue;
    }
    changed = true;
    const max = allowedEdits(word.length);
    let best: { entry: VocabularyWord; distance: number } | null = null;
    if (max > 0) {
      for (const entry of vocabulary) {
        if (DIGITS.test(entry.word)) continue;
        const distance = distanceToWordOrPrefix(word, entry.word, max);
        if (distance > max) continue;
        if (best === null || distance < best.distance || (distance === best.distance && isBetter(entry, best.entry))) best = { entry, distance };
      }
    }
    if (best !== null) out.push(best.entry.word);
  }
  return changed && out.length > 0 ? out.join(' ') : null;
}

function isBetter(a: VocabularyWord, b: VocabularyWord): boolean {
  return a.products !== b.products ? a.products > b.products : a.word < b.word;
}
