/**
 * A product's printing and language in words for the terminal views: in full (`oracle price`'s
 * header), or short enough for a column of `oracle catalog`'s table. `--json` and the API give
 * them as stored (null: the regular printing, English).
 */

/** What a product without a printing is (docs/feeds.md, "Printings"). */
export const REGULAR_PRINTING = 'regular printing';
/** What a product without a language is: the feeds name none for English cards. */
export const DEFAULT_LANGUAGE = 'English';

export const printingName = (printing: string | null): string => printing ?? REGULAR_PRINTING;
export const languageName = (language: string | null): string => language ?? DEFAULT_LANGUAGE;

/**
 * Which variant a view is of, for a header line: the printing (none for a sealed product
 * without one, which has no printing to name) and the language, each after ` | `.
 */
export function variantWords(m: {
  product_type: string;
  printing: string | null;
  language: string | null;
}): string {
  const printing =
    m.product_type === 'booster_box' && m.printing === null ? '' : ` | ${printingName(m.printing)}`;
  return `${printing} | ${languageName(m.language)}`;
}

/**
 * The words of TCGplayer's printing names as collectors shorten them in listing titles
 * (`1st Ed Holo`, `Rev Holo`): `1st Edition Holofoil` fits the table's column uncut. Words
 * not listed (`Normal`, `Foil`, a printing of another game) are shown as written.
 */
const PRINTING_WORDS: readonly (readonly [RegExp, string])[] = [
  [/\b1st Edition\b/gi, '1st Ed'],
  [/\bReverse Holofoil\b/gi, 'Rev Holo'],
  [/\bHolofoil\b/gi, 'Holo'],
  [/\bUnlimited\b/gi, 'Unl'],
];

/**
 * Languages as collectors mark them in titles (`JP`); a language not listed is shown as
 * written. Only the table shortens them; the feeds' names are kept in the store.
 */
const LANGUAGE_CODES: Readonly<Record<string, string>> = {
  japanese: 'JP',
  korean: 'KR',
  chinese: 'CN',
  french: 'FR',
  german: 'DE',
  italian: 'IT',
  spanish: 'ES',
  portuguese: 'PT',
};

/**
 * The table's variant cell: the printing, shortened, then the language's code when the card
 * is not English (`1st Ed Holo`, `Holo JP`, `JP`); empty for an English card of its regular
 * printing, so the variants stand out.
 */
export function variantCell(printing: string | null, language: string | null): string {
  const words: string[] = [];
  if (printing !== null)
    words.push(PRINTING_WORDS.reduce((text, [word, short]) => text.replace(word, short), printing));
  if (language !== null) words.push(LANGUAGE_CODES[language.toLowerCase()] ?? language);
  return words.join(' ');
}
