/**
 * Spelling correction for catalog search: a word of a search that no catalog word starts with
 * ("charzard", "pickachu", "blastiose") is replaced by the closest word the catalog holds, by
 * edit distance, so a search that forgives typos is the same full-text search over corrected
 * words. Pure: the catalog's words come from the store (Store.products.vocabulary), and the
 * comparison gives the event loop back through the caller's pause.
 */
import { onFirstUse } from '../domain/first-use.js';
import type { Pause } from './turns.js';

/**
 * Catalog words compared with a misspelled word between two pauses (service/turns.ts): a
 * correction against a 300,000-product catalog's 600,000 words held the event loop a second or
 * more in one piece; this many take well under a millisecond each on the 2-core machine.
 */
export const WORDS_PER_STEP = 1_000;

const noPause: Pause = () => Promise.resolve();

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

// Made on first use: a Unicode property class is built from Unicode's tables as it is made.
const token = onFirstUse(() => /[\p{L}\p{N}]+/gu);
const marks = onFirstUse(() => /\p{M}/gu);
const DIGITS = /^\d+$/;

/** The words of a text as the search index holds them: letters and digits, lower case, diacritics folded. */
export function searchWords(text: string): string[] {
  return text.normalize('NFD').replace(marks(), '').toLowerCase().match(token()) ?? [];
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
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, before[j - 2]! + 1);
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
 * left out when none is within allowedEdits; numbers are never corrected. The words that need
 * no correction stay as written (`4/102`, `BASE`). Null when no word changed (nothing to
 * suggest) or none is left.
 */
export async function correctedSearch(
  text: string,
  vocabulary: readonly VocabularyWord[],
  pause: Pause = noPause,
): Promise<string | null> {
  // `vocabulary` is sorted by word (JavaScript's order): startsSomeWord searches it.
  const out: string[] = [];
  let changed = false;
  for (const written of text.split(/\s+/)) {
    const words = searchWords(written);
    const corrected: (string | null)[] = [];
    for (const word of words)
      corrected.push(
        DIGITS.test(word) || startsSomeWord(word, vocabulary) ? word : await closest(word, vocabulary, pause),
      );
    if (corrected.every((c, i) => c === words[i])) {
      if (words.length > 0) out.push(written);
      continue;
    }
    changed = true;
    out.push(...corrected.filter((c): c is string => c !== null));
  }
  return changed && out.length > 0 ? out.join(' ') : null;
}

/** True when a word of the vocabulary (sorted by word) starts with `prefix`: the first word not before it does, if any. */
function startsSomeWord(prefix: string, vocabulary: readonly VocabularyWord[]): boolean {
  let low = 0;
  let high = vocabulary.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (vocabulary[mid]!.word < prefix) low = mid + 1;
    else high = mid;
  }
  return low < vocabulary.length && vocabulary[low]!.word.startsWith(prefix);
}

/**
 * The catalog word closest to `word` within allowedEdits, or null; `pause` awaited after every
 * WORDS_PER_STEP words compared.
 */
async function closest(
  word: string,
  vocabulary: readonly VocabularyWord[],
  pause: Pause,
): Promise<string | null> {
  const max = allowedEdits(word.length);
  if (max === 0) return null;
  let best: { entry: VocabularyWord; distance: number } | null = null;
  for (let i = 0; i < vocabulary.length; i++) {
    if (i % WORDS_PER_STEP === WORDS_PER_STEP - 1) await pause();
    const entry = vocabulary[i]!;
    // Fewer characters than word less max edits: neither it nor a prefix of it is within max.
    if (entry.word.length < word.length - max || DIGITS.test(entry.word)) continue;
    const distance = distanceToWordOrPrefix(word, entry.word, max);
    if (distance > max) continue;
    if (
      best === null ||
      distance < best.distance ||
      (distance === best.distance && isBetter(entry, best.entry))
    )
      best = { entry, distance };
  }
  return best?.entry.word ?? null;
}

function isBetter(a: VocabularyWord, b: VocabularyWord): boolean {
  return a.products !== b.products ? a.products > b.products : a.word < b.word;
}
