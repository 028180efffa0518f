/**
 * Matching a sold listing to a catalog product by its title, for listings that name no
 * product (docs/feeds.md, "Matched by title"). The store's full-text index gives the
 * candidates (every product whose name holds a word of the title); title-signals.ts says
 * which of them the title agrees with and how strongly. A match is made only when exactly
 * one product agrees best and the title names its number or its set: anything else is
 * rejected with the reason and the best candidates by key, never guessed.
 */
import type { StoredProduct } from '../../store/store.js';
import { agreement, isOwnerWord, setsNamed, titleSignals, tokens, type Agreement } from './title-signals.js';
import { correctSpelling } from './title-spelling.js';

/** Candidates a reject names. */
export const CANDIDATES_NAMED = 3;

/** Words of titles that are never a card's name: the store is not asked for products named by them. */
const NOT_NAME_WORDS = new Set([
  'pokemon',
  'card',
  'cards',
  'tcg',
  'psa',
  'bgs',
  'cgc',
  'sgc',
  'tag',
  'gem',
  'mint',
  'mt',
  'nm',
  'holo',
  'rare',
  'graded',
  'edition',
  'first',
  '1st',
  'unlimited',
  'shadowless',
  'reverse',
  'foil',
  'holofoil',
  'promo',
  'japanese',
  'english',
  'the',
  'of',
  'and',
  'a',
  'set',
  'full',
  'art',
  'secret',
  'ultra',
  'vintage',
  'wotc',
  'new',
  'low',
  'pop',
]);

/** The store's part: products whose name holds any of `words` (the FTS index of the catalog). */
export interface NamedProducts {
  productsNamed(words: readonly string[]): StoredProduct[];
}

export type TitleMatch =
  | { readonly product: StoredProduct; readonly matchedBy: string }
  | { readonly reason: string; readonly kind: 'unknown' | 'ambiguous' };

interface Scored {
  product: StoredProduct;
  agreement: Extract<Agreement, { ok: true }>;
}

/**
 * The product a title describes, or why none is chosen. A title that matches no product as
 * written is read once more with its close spellings corrected (title-spelling.ts); the
 * match then says so (`+ spelling charzard=charizard`).
 */
export function matchTitle(title: string, store: NamedProducts): TitleMatch {
  const written = matchAsWritten(title, store);
  // Only a title whose name words no product holds may be misspelt: a card refused for its
  // language or number is a card whose name was read (and the variants' lookup costs).
  if ('product' in written || written.kind === 'ambiguous' || written.nameFound === true) return written;
  const corrected = correctSpelling(title, nameWordsOf(title), store, isOwnerWord);
  if (corrected === null) return written;
  const read = matchAsWritten(corrected.title, store);
  return 'product' in read
    ? { product: read.product, matchedBy: `${read.matchedBy} + spelling ${corrected.fixes.join(' ')}` }
    : written;
}

/** The words of a title that may be a card's name: letters, none of NOT_NAME_WORDS. */
function nameWordsOf(title: string): string[] {
  return [...new Set(tokens(title))].filter((w) => !NOT_NAME_WORDS.has(w) && /\p{L}/u.test(w));
}

/** A title's match as written; an unknown one says whether some product's name words were all in it. */
function matchAsWritten(title: string, store: NamedProducts): TitleMatch & { readonly nameFound?: boolean } {
  const signals = titleSignals(title);
  const words = nameWordsOf(title);
  const found = words.length === 0 ? [] : store.productsNamed(lookupWords(words));
  // The sets the candidates are of: a title naming one of them names that set's card, not another's.
  const sets = setsNamed(
    signals,
    found.map((p) => p.setName),
  );
  const agreeing: Scored[] = [];
  const refused: { product: StoredProduct; why: string }[] = [];
  for (const product of found) {
    const a = agreement(signals, product, sets);
    if (a.ok) agreeing.push({ product, agreement: a });
    else if (a.why !== 'name') refused.push({ product, why: a.why });
  }
  // The title names the most specific name it holds: "Dark Charizard" is not "Charizard".
  const specific = agreeing.filter(
    (c) => !agreeing.some((o) => o !== c && strictSubset(c.agreement.name, o.agreement.name)),
  );
  if (specific.length === 0) {
    // The nearest first: the card in another language or printing, then in another set, then another number.
    const near = refused.sort((a, b) => nearness(a.why) - nearness(b.why)).slice(0, CANDIDATES_NAMED);
    const because =
      near.length === 0
        ? 'no catalog product has the name words of the title'
        : `no catalog product agrees with it: ${near.map((r) => `${r.product.productKey} (${r.why})`).join('; ')}`;
    return { kind: 'unknown', reason: `title matches no product: ${because}`, nameFound: near.length > 0 };
  }
  specific.sort((a, b) => rank(b) - rank(a) || (a.product.productKey < b.product.productKey ? -1 : 1));
  const best = specific[0]!;
  const tied = specific.filter((c) => rank(c) === rank(best));
  if (best.agreement.number === 0 && best.agreement.set === 0) {
    return {
      kind: 'ambiguous',
      reason: `title names neither the number nor the set of ${named(specific)}: give product_key`,
    };
  }
  if (tied.length > 1) {
    return {
      kind: 'ambiguous',
      reason: `title matches ${tied.length} products equally (${how(best.agreement)}): ${named(tied)}; give product_key`,
    };
  }
  return { product: best.product, matchedBy: `title: ${how(best.agreement)}` };
}

/**
 * The words to look the title's words up by: each, and for a word ending in `d` or `s` also
 * the word without it. Titles write `Farfetch'd` as `Farfetchd` (tokens drop the apostrophe),
 * while the store's index splits the catalog's `Farfetch'd` (or `Farfetch\u2019d`) at the
 * apostrophe into `farfetch` and `d`: without the stem, a card whose only name word has an
 * apostrophe is never a candidate.
 */
function lookupWords(words: readonly string[]): string[] {
  const stems = words.filter((w) => w.length > 3 && /[ds]$/.test(w)).map((w) => w.slice(0, -1));
  return [...new Set([...words, ...stems])];
}

/** How near a refused candidate came, by the signal that refused it (lower: nearer). */
function nearness(why: string): number {
  const order = ['language', 'printing', 'rarity', 'set', 'number'];
  const at = order.indexOf(why.slice(0, why.indexOf(':')));
  return at < 0 ? order.length : at;
}

/** Number with total, then number, then set words, then a holo rarity the title names: the stronger signal first. */
function rank(c: Scored): number {
  return c.agreement.number * 1000 + c.agreement.set * 10 + (c.agreement.holo ? 1 : 0);
}

function strictSubset(a: readonly string[], b: readonly string[]): boolean {
  return a.length < b.length && a.every((w) => b.includes(w));
}

function named(candidates: readonly Scored[]): string {
  const keys = candidates.slice(0, CANDIDATES_NAMED).map((c) => c.product.productKey);
  return (
    keys.join(', ') +
    (candidates.length > CANDIDATES_NAMED ? ` and ${candidates.length - CANDIDATES_NAMED} more` : '')
  );
}

/** `number 4/102 + name charizard + set base + 1st Edition + Japanese`: what agreed. */
function how(a: Scored['agreement']): string {
  const parts = [];
  if (a.numberText !== null) parts.push(`number ${a.numberText}`);
  parts.push(`name ${a.name.join(' ')}`);
  if (a.setText !== null) parts.push(`set ${a.setText}`);
  if (a.holo) parts.push('holo');
  if (a.printing !== null) parts.push(a.printing);
  if (a.language !== null) parts.push(a.language);
  return parts.join(' + ');
}
