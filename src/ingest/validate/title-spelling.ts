/**
 * Close spellings in sold-listing titles ("Charzard", "Pikachu Ilustrator"): a title word no
 * catalog name holds, one edit (a letter inserted, dropped, changed, or two swapped) from
 * exactly one word that a catalog name holds, is read as that word. The title matcher asks
 * for this only when a title matches no product as written, and the corrected title must then
 * pass every rule of a match (docs/feeds.md, "Matched by title"): a spelling is never a reason
 * to guess.
 */
import { nameWords, tokens } from './title-signals.js';

/** The store's part (title-matcher.ts's NamedProducts): products whose name holds any of `words`. */
interface NamedLookup {
  productsNamed(words: readonly string[]): readonly { productName: string }[];
}

/** Shortest word corrected: shorter words are too often one edit from another card's name. */
const MIN_CORRECTED_LENGTH = 5;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Every word one edit from `word` (letters a to z). */
function oneEditFrom(word: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    for (const c of LETTERS) out.add(head + c + tail);
    if (i < word.length) {
      out.add(head + tail.slice(1));
      for (const c of LETTERS) out.add(head + c + tail.slice(1));
    }
    if (i < word.length - 1) out.add(head + tail[1]! + tail[0]! + tail.slice(2));
  }
  out.delete(word);
  return out;
}

/** A title with its close spellings corrected, and what was corrected (`charzard=charizard`). */
export interface CorrectedTitle {
  readonly title: string;
  readonly fixes: readonly string[];
}

/**
 * `title` with each of `words` (title words that are no name word, `keep` aside) that is one
 * edit from exactly one catalog name word replaced by that word; null when none is.
 */
export function correctSpelling(
  title: string,
  words: readonly string[],
  store: NamedLookup,
  keep: (word: string) => boolean,
): CorrectedTitle | null {
  const variants = new Map<string, string>();
  const asked = words.filter((w) => w.length >= MIN_CORRECTED_LENGTH && /^[a-z]+$/.test(w) && !keep(w));
  for (const word of asked) for (const v of oneEditFrom(word)) if (!variants.has(v)) variants.set(v, word);
  if (variants.size === 0) return null;
  const named = new Set(
    store.productsNamed([...asked, ...variants.keys()]).flatMap((p) => nameWords(p.productName)),
  );
  const fixes = new Map<string, Set<string>>();
  for (const word of named) {
    const of = variants.get(word);
    if (of === undefined || named.has(of)) continue;
    fixes.set(of, (fixes.get(of) ?? new Set()).add(word));
  }
  let corrected = title;
  const made: string[] = [];
  for (const [word, to] of fixes) {
    if (to.size !== 1) continue;
    const [fix] = to;
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${word}(?![\\p{L}\\p{N}])`, 'giu');
    const next = corrected.replace(pattern, fix!);
    // A word tokens() folded (diacritics, apostrophes) is not written so in the title: left as it is.
    if (next === corrected || !tokens(next).includes(fix!)) continue;
    corrected = next;
    made.push(`${word}=${fix!}`);
  }
  return made.length === 0 ? null : { title: corrected, fixes: made };
}
