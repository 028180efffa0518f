/**
 * User text to an FTS5 MATCH expression that can never be a syntax error: every word is
 * reduced to its letters and digits (the characters the unicode61 tokenizer indexes) and
 * written as a quoted phrase with a prefix star. `"`, `*`, `-`, `AND`, `NEAR(` and the like
 * are data, never operators. "4/102" becomes the phrase "4 102"*, which matches the indexed
 * "4/102" (tokenised the same way).
 */

const WORD_PARTS = /[\p{L}\p{N}\p{M}]+/gu;

/** The phrases of `text`, one per whitespace-separated word that holds a letter or digit. */
function phrases(text: string): string[] {
  const out: string[] = [];
  for (const word of text.split(/\s+/)) {
    const parts = word.match(WORD_PARTS);
    // The parts hold no quote, so wrapping them in quotes is a complete escape.
    if (parts) out.push(`"${parts.join(' ')}"*`);
  }
  return out;
}

/** Every word must match (in any order, each as a prefix); null when `text` has no word to search. */
export function matchAllWords(text: string): string | null {
  const p = phrases(text);
  return p.length === 0 ? null : p.join(' AND ');
}

/** Letters a word keeps as a fallback prefix, so a typo later in it ("charzard") still finds "charizard". */
const TYPO_PREFIX = 3;

/**
 * Any word, or the first letters of any longer word, may match (bm25 ranks the products
 * matching more and rarer words first); null when none.
 */
export function matchAnyWord(text: string): string | null {
  // Split on punctuation too: a key's parts ("base-set-charizard") are the words to look for.
  const words = text.match(WORD_PARTS) ?? [];
  const prefixes = words.filter((w) => w.length > TYPO_PREFIX).map((w) => w.slice(0, TYPO_PREFIX));
  const p = phrases([...new Set([...words, ...prefixes])].join(' '));
  return p.length === 0 ? null : p.join(' OR ');
}
