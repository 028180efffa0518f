/**
 * User text to search phrases, and to the FTS5 MATCH expressions of the SQLite store, which
 * can never be a syntax error: every word is reduced to its letters and digits (the
 * characters the unicode61 tokenizer indexes) and written as a quoted phrase with a prefix
 * star. `"`, `*`, `-`, `AND`, `NEAR(` and the like are data, never operators. "4/102"
 * becomes the phrase "4 102"*, which matches the indexed "4/102" (tokenised the same way). A
 * phrase's last part, the prefix, is at most MAX_PREFIX_CHARS characters.
 * The PostgreSQL store matches and ranks the same phrases itself (pg/search.ts).
 */
import { onFirstUse } from '../domain/first-use.js';

// Made on first use: a Unicode property class is built from Unicode's tables as it is made.
const wordParts = onFirstUse(() => /[\p{L}\p{N}\p{M}]+/gu);

/**
 * The longest prefix the SQLite index holds as a term of its own (drizzle/0010_products_fts_prefix.sql,
 * prefix='1 2 3 4 5 6 7 8'). A phrase's last word, the one matched as a prefix, is cut to this
 * many characters: a prefix the index lacks is built from every term it covers, 45-50 ms of one
 * turn of the event loop for a word a 300,000-product catalog holds throughout (issue 35), where
 * an indexed one reads as one term. "charizards" searches as "charizar", which finds Charizard.
 */
export const MAX_PREFIX_CHARS = 8;

/** `part` cut to MAX_PREFIX_CHARS characters (code points: a pair of surrogates stays whole). */
function indexedPrefix(part: string): string {
  const chars = Array.from(part);
  return chars.length <= MAX_PREFIX_CHARS ? part : chars.slice(0, MAX_PREFIX_CHARS).join('');
}

/** The phrases of `text`, one per whitespace-separated word that holds a letter or digit. */
function phrases(text: string): string[] {
  const out: string[] = [];
  for (const word of text.split(/\s+/)) {
    const parts = word.match(wordParts());
    if (parts) out.push([...parts.slice(0, -1), indexedPrefix(parts.at(-1)!)].join(' '));
  }
  return out;
}

/** A phrase as FTS5 syntax: its parts hold no quote, so wrapping them in quotes is a complete escape. */
const ftsPhrase = (phrase: string) => `"${phrase}"*`;

/** The phrases that must all match (in any order, each as a prefix) for a catalog search. */
export function allWordsPhrases(text: string): string[] {
  return phrases(text);
}

/** Every word must match (in any order, each as a prefix); null when `text` has no word to search. */
export function matchAllWords(text: string): string | null {
  const p = allWordsPhrases(text);
  return p.length === 0 ? null : p.map(ftsPhrase).join(' AND ');
}

/** Letters a word keeps as a fallback prefix, so a typo later in it ("charzard") still finds "charizard". */
const TYPO_PREFIX = 3;

/** The phrases of which any may match for "did you mean": every word, and the first letters of the longer ones. */
export function anyWordPhrases(text: string): string[] {
  // Split on punctuation too: a key's parts ("base-set-charizard") are the words to look for.
  const words = text.match(wordParts()) ?? [];
  const prefixes = words.filter((w) => w.length > TYPO_PREFIX).map((w) => w.slice(0, TYPO_PREFIX));
  return phrases([...new Set([...words, ...prefixes])].join(' '));
}

/**
 * Any word, or the first letters of any longer word, may match (bm25 ranks the products
 * matching more and rarer words first); null when none.
 */
export function matchAnyWord(text: string): string | null {
  const p = anyWordPhrases(text);
  return p.length === 0 ? null : p.map(ftsPhrase).join(' OR ');
}

/**
 * Products whose name holds any of `words`, each a whole word (no prefix: "mew" is not
 * "mewtwo"); null when no word has a letter or digit. The title matcher's candidates.
 */
export function matchNameWords(words: readonly string[]): string | null {
  const tokens = [...new Set(words.flatMap((w) => w.match(wordParts()) ?? []))];
  return tokens.length === 0 ? null : `{product_name} : (${tokens.map((t) => `"${t}"`).join(' OR ')})`;
}
