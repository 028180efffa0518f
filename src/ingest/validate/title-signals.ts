/**
 * What a sold listing's title says about the card, and whether a catalog product agrees:
 * the pure half of matching a listing by its title (title-matcher.ts asks the store for
 * candidates and decides). Sellers write titles for search, so every signal is read from
 * words, never from positions: the card's name words, its number (`4/102`, `#4`, `025/165`,
 * `SV49/SV94`, or `4 102` once a URL slug has lost the slash), set words, printing words
 * (1st Edition, Shadowless, Reverse Holo) and language words (Japanese, Korean...). The rules
 * are in docs/feeds.md, "Matched by title".
 */
import { REGULAR_PRINTINGS } from '../../domain/printing.js';

/** The parts of a product the title is compared with (StoredProduct has them). */
export interface TitleCandidate {
  readonly productKey: string;
  readonly productName: string;
  readonly subtitle: string;
  readonly setName: string;
  readonly printing?: string | null;
  /** null: English (products.language). */
  readonly language?: string | null;
}

/** Language words of titles, to the name products.language gives the language. */
const LANGUAGE_WORDS: Readonly<Record<string, string>> = {
  japanese: 'Japanese',
  jpn: 'Japanese',
  jap: 'Japanese',
  japan: 'Japanese',
  jp: 'Japanese',
  korean: 'Korean',
  kor: 'Korean',
  chinese: 'Chinese',
  german: 'German',
  deutsch: 'German',
  french: 'French',
  francais: 'French',
  italian: 'Italian',
  italiano: 'Italian',
  spanish: 'Spanish',
  espanol: 'Spanish',
  portuguese: 'Portuguese',
  dutch: 'Dutch',
  polish: 'Polish',
  polski: 'Polish',
  thai: 'Thai',
};

/** Words that name English explicitly: they agree with English products only, as no word does. */
const ENGLISH_WORDS = new Set(['english', 'eng']);

/**
 * Words a card's name may be written with in titles: `M Charizard-EX` is sold as "Mega
 * Charizard EX", `Charizard & Braixen` as "Charizard and Braixen".
 */
const NAME_ALIASES: Readonly<Record<string, string>> = { mega: 'm', and: '' };

/**
 * Words of set names that say nothing about which set (series words, "Promos"): a title
 * need not repeat them for its set to count as named.
 */
const GENERIC_SET_WORDS = new Set([
  'set',
  'the',
  'of',
  'and',
  'series',
  'promos',
  'promo',
  'cards',
  'card',
  'collection',
  'black',
  'star',
  'pokemon',
  'tcg',
]);

/**
 * Trainers whose cards are named for them, as titles write the owner (`Blaine's`, `Blaines`,
 * `Blaine s` once a slug lost the apostrophe, all `blaines` as tokens): Gym Heroes and Gym
 * Challenge (the gym leaders, Lt. Surge, Team Rocket's), and the trainers' Pokemon of Scarlet &
 * Violet. A title naming one is never the plain card of that name ("Blaine's Charizard" is not
 * Base Set's Charizard).
 */
const OWNER_WORDS = new Set([
  'blaines',
  'brocks',
  'mistys',
  'erikas',
  'kogas',
  'sabrinas',
  'giovannis',
  'surges',
  'rockets',
  'ethans',
  'cynthias',
  'lillies',
  'ionos',
  'arvens',
  'hops',
  'marnies',
  'stevens',
  'ns',
]);

/** A trainer's possessive of OWNER_WORDS (`blaines`): never corrected as a misspelling of another name. */
export function isOwnerWord(word: string): boolean {
  return OWNER_WORDS.has(word);
}

/**
 * Sets of reprints that keep the original cards' numbers: Celebrations' Classic Collection
 * reprints Base Set Charizard as `4/102`. A title naming one is never a product of another set,
 * whether or not the catalog holds the reprint.
 */
export const REPRINT_SETS: readonly string[] = ['Celebrations', 'Celebrations: Classic Collection'];

/**
 * Graders and their grade, grading words and years: numbers in them are not card numbers
 * ("PSA 9" would otherwise agree with card 9/68).
 */
const NOT_CARD_NUMBERS =
  /\b(?:psa|bgs|bvg|cgc|sgc|tag|ace|hga|gma|ars|pcg|beckett|grade[ds]?|grading)(?:\s+(?:gem|mint|mt|nm|pristine|graded|black|label|perfect))*\s*(?:10|[1-9](?:\.5)?)\b|\b(?:gem|mint|mt|nm|pristine)\s*(?:10|[1-9](?:\.5)?)\b(?!\s*\d)|\b(?:pop|population|low\s*pop|lowpop)\s*\d+\b|\b(?:19[89]\d|20[0-4]\d)\b/gi;

/** The tokens of text: lower case letters and digits, diacritics and apostrophes dropped (`Erika's` -> `erikas`). */
export function tokens(text: string): string[] {
  const folded = text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['\u2019`]/g, '');
  const words = folded.match(/[\p{L}\p{N}]+/gu) ?? [];
  // A URL slug turns "Erika's" into "Erika s": join the lone letter back.
  const out: string[] = [];
  for (const word of words) {
    if ((word === 's' || word === 'd') && out.length > 0 && /\p{L}$/u.test(out[out.length - 1]!))
      out[out.length - 1] += word;
    else out.push(word);
  }
  return out;
}

/** A card number token as compared: digit runs without leading zeros (`020` = `20`, `SV049` = `sv49`). */
function numberToken(token: string): string {
  return token.toLowerCase().replace(/\d+/g, (digits) => String(Number(digits)));
}

/** A card's number and the set total it is printed over (`4/102`), as compared. */
export interface CardNumber {
  readonly number: string;
  readonly total: string | null;
}

/** What a title says. */
export interface TitleSignals {
  /** Every token of the title (aliases applied). */
  readonly words: ReadonlySet<string>;
  /** Tokens that may be a card number, in order (grades and years removed), as compared. */
  readonly numberTokens: readonly string[];
  /** Numbers written `N/T` (with the slash): a product over total T with another number is contradicted. */
  readonly slashNumbers: readonly CardNumber[];
  readonly firstEdition: boolean;
  readonly shadowless: boolean;
  readonly reverse: boolean;
  /** A prerelease, staff or winner stamp, or a promo: only a promo set's product (or its stamped printing) is that card. */
  readonly stamped: boolean;
  /** "Holo" (not reverse), or "Non Holo": vintage sets print a card's holo and non-holo versions under two numbers. */
  readonly holo: boolean;
  readonly nonHolo: boolean;
  readonly promo: boolean;
  /** `Black Star` (the promo line of WotC and The Pokemon Company): a promo set's card, never a set's own. */
  readonly blackStar: boolean;
  /** Trainers' possessives the title names (`blaines`, OWNER_WORDS). */
  readonly owners: readonly string[];
  /** A possessive written with its apostrophe and the word after it (`Misty's Psyduck`: [`mistys`, `psyduck`]). */
  readonly possessives: readonly (readonly [string, string])[];
  /** Numbers of 1 to 3 digits the title states that are no grade, year or population. */
  readonly shortNumbers: readonly string[];
  /** The language a word names (`Japanese`), `English` for an explicit English word, or null (none named). */
  readonly language: string | null;
  /** Two language words that disagree. */
  readonly languages: readonly string[];
}

/** Reads a title's signals. */
export function titleSignals(title: string): TitleSignals {
  const all = tokens(title);
  const words = new Set(all.map((w) => NAME_ALIASES[w] ?? w).filter((w) => w !== ''));
  const languages = [
    ...new Set(
      all
        .map((w) => (ENGLISH_WORDS.has(w) ? 'English' : LANGUAGE_WORDS[w]))
        .filter((l): l is string => l !== undefined),
    ),
  ];
  const numberText = title.replace(NOT_CARD_NUMBERS, ' ');
  const numberTokens = tokens(numberText.replace(/[/#]/g, ' '))
    .filter((t) => /\d/.test(t))
    .map(numberToken);
  const slashNumbers: CardNumber[] = [];
  for (const m of numberText.matchAll(/([A-Za-z]{0,4}\d{1,4}[A-Za-z]?)\s*\/\s*([A-Za-z]{0,4}\d{1,4})/g)) {
    slashNumbers.push({ number: numberToken(m[1]!), total: numberToken(m[2]!) });
  }
  const lower = all.join(' ');
  return {
    words,
    numberTokens,
    slashNumbers,
    // "1st" alone is how sellers abbreviate it; "first" alone is no edition ("First Ever").
    firstEdition: /\b1st\b|\bfirst (edition|ed)\b|\b1ed\b/.test(lower),
    shadowless: /\bshadowless\b/.test(lower),
    reverse: /\breverse( holo| foil| holofoil)?\b|\brev holo\b/.test(lower),
    holo: /\bholo(foil)?\b/.test(lower.replace(/\b(non|reverse|rev) holo(foil)?\b/g, '')),
    nonHolo: /\bnon holo\b|\bnonholo\b/.test(lower),
    stamped: /\b(prerelease|pre release|stamped|stamp|staff|winner)\b/.test(lower),
    promo: /\b(promo|promos|etb|black star)\b/.test(lower),
    blackStar: /\bblack star\b/.test(lower),
    owners: all.filter((w) => OWNER_WORDS.has(w)),
    possessives: [...title.matchAll(/([\p{L}]+)['\u2019`]s\s+([\p{L}\p{N}]+)/gu)].map(
      (m) => [tokens(`${m[1]!}s`).join(''), tokens(m[2]!).join('')] as const,
    ),
    shortNumbers: numberTokens.filter((t) => /^\d{1,3}$/.test(t)),
    language: languages.length === 1 ? languages[0]! : null,
    languages,
  };
}

/** The words of a product's name a title must hold: the name without its number suffix (`Charizard ex - 199/165`, `Aerodactyl (1)`). */
export function nameWords(productName: string): string[] {
  // PriceCharting's tags (`Charizard [1st Edition] #4`) are its printing and number, not name words.
  const core = productName
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\s#\s*[A-Za-z]{0,4}\d+[A-Za-z]?\s*$/, '')
    .replace(/\s+-\s+[A-Za-z]{0,4}\d+[A-Za-z]?(\/[A-Za-z]{0,4}\d+)?\s*$/, '')
    .replace(/\(\s*\d+[A-Za-z]?\s*\)/g, ' ');
  return [
    ...new Set(
      tokens(core)
        .map((w) => NAME_ALIASES[w] ?? w)
        .filter((w) => w !== ''),
    ),
  ];
}

/** A set word in a title, a plural `s` aside ("Champion Path" names `Champion's Path`, "Emerging Power" `Emerging Powers`). */
function hasSetWord(words: ReadonlySet<string>, word: string): boolean {
  return (
    words.has(word) ||
    (word.length > 3 && word.endsWith('s') && words.has(word.slice(0, -1))) ||
    words.has(`${word}s`)
  );
}

/** The words of a set name a title must hold for it to name that set. */
export function setWords(setName: string): string[] {
  // "SWSH04: Vivid Voltage", "SM - Hidden Fates": the code before the colon is no word sellers write.
  const name = setName.replace(/^[A-Za-z]{1,5}\d{0,3}[a-z]?\s*[:\-\u2013\u2014]\s*/, '');
  const words = [...new Set(tokens(name).filter((w) => !GENERIC_SET_WORDS.has(w)))];
  // "Expedition Base Set" is sold as "Expedition"; "Base" and "Base Set 2" keep the word.
  const named = words.filter((w) => w !== 'base');
  return named.some((w) => /\p{L}/u.test(w)) ? named : words;
}

/**
 * The card number of a product: the first `N/T`, `#N` or `No. N` of its subtitle (`4/102 · Holo
 * Rare`), else the number its name ends with (`Charizard ex - 199/165`, `Aerodactyl (1)`);
 * null when it has none.
 */
export function productNumber(p: Pick<TitleCandidate, 'productName' | 'subtitle'>): CardNumber | null {
  const slash = /(?:^|[\s#])([A-Za-z]{0,4}\d{1,4}[A-Za-z]?)\s*\/\s*([A-Za-z]{0,4}\d{1,4})\b/.exec(p.subtitle);
  if (slash) return { number: numberToken(slash[1]!), total: numberToken(slash[2]!) };
  // Old Japanese cards are numbered by Pokedex, `No. 006`: the number is 6, as a title writes it.
  const single = /^\s*(?:#|no\.?\s*)?([A-Za-z]{0,5}\d{1,4}[A-Za-z]?)\b/i.exec(p.subtitle);
  if (single) return { number: numberToken(single[1]!), total: null };
  const suffix =
    /\s-\s([A-Za-z]{0,4}\d{1,4}[A-Za-z]?)(?:\/([A-Za-z]{0,4}\d{1,4}))?\s*$/.exec(p.productName) ??
    /\s#\s*([A-Za-z]{0,4}\d{1,4}[A-Za-z]?)\s*$/.exec(p.productName) ??
    /\((\d{1,4}[A-Za-z]?)\)/.exec(p.productName);
  if (suffix)
    return {
      number: numberToken(suffix[1]!),
      total: suffix[2] === undefined ? null : numberToken(suffix[2]),
    };
  return null;
}

/** A set a title names: its name and the words it was named by. */
export interface NamedSet {
  readonly name: string;
  readonly words: readonly string[];
  /** One of REPRINT_SETS. */
  readonly reprint: boolean;
}

/**
 * The sets of `setNames` (and REPRINT_SETS) a title names: every word of the set's name
 * (setWords) is in the title, one of them at least a word of letters, and a number word is
 * one of the title's card numbers (so `PSA 2` never names `Base Set 2`).
 */
export function setsNamed(s: TitleSignals, setNames: Iterable<string>): NamedSet[] {
  const out: NamedSet[] = [];
  for (const name of new Set([...setNames, ...REPRINT_SETS])) {
    const words = setWords(name);
    if (!words.some((w) => /\p{L}/u.test(w))) continue;
    const named = words.every((w) =>
      /\p{L}/u.test(w) ? hasSetWord(s.words, w) : s.numberTokens.includes(w),
    );
    if (named) out.push({ name, words, reprint: REPRINT_SETS.includes(name) });
  }
  return out;
}

/**
 * Why a title names another card than `p` by its owner or its set, or null: a trainer's
 * possessive that `p`'s name lacks ("Blaine's Charizard" is not Charizard), or a set the title
 * names that is not `p`'s (its words not all in `p`'s set name, nor all in its card name): a
 * reprint set always ("Charizard 4/102 Celebrations Classic Collection" is not Base Set's
 * Charizard), another set unless `ownSet` (the title names `p`'s set, or its number tells it).
 */
function otherCardRefusal(
  s: TitleSignals,
  p: TitleCandidate,
  name: readonly string[],
  ownSet: boolean,
  sets: readonly NamedSet[],
): string | null {
  const owner = s.owners.find((w) => !name.includes(w));
  if (owner !== undefined) return `name: the title names a trainer's card (${owner}), not ${p.productName}`;
  const possessive = s.possessives.find(([owns, next]) => next === name[0] && !name.includes(owns));
  if (possessive !== undefined)
    return `name: the title names ${possessive[0]} ${possessive[1]}, not ${p.productName}`;
  const own = new Set(tokens(p.setName));
  const other = sets.find(
    (set) =>
      (set.reprint || !ownSet) &&
      !set.words.every((w) => own.has(w)) &&
      !set.words.every((w) => name.includes(w) || name.includes(`${w}s`)),
  );
  return other === undefined ? null : `set: the title names ${other.name}, not ${p.setName}`;
}

/** Printings that carry a stamp: only a title naming a stamp is theirs. */
const STAMP_PRINTING = /prerelease|stamp|staff|winner/i;

/** How a product's printing reads: first edition, shadowless, reverse holo, or regular. */
function printingKind(p: TitleCandidate): { firstEdition: boolean; shadowless: boolean; reverse: boolean } {
  const printing = (p.printing ?? '').toLowerCase();
  const regular = printing === '' || REGULAR_PRINTINGS.some((r) => r.toLowerCase() === printing);
  // A catalog without printings may say it in the name or set (`Charizard [1st Edition] #4`).
  const named = /\b1st\s+edition\b/i.test(`${p.productName} ${p.setName}`);
  return {
    firstEdition: (!regular && printing.startsWith('1st edition')) || (printing === '' && named),
    shadowless: printing.includes('shadowless') || /shadowless/i.test(p.setName),
    reverse: !regular && printing.startsWith('reverse'),
  };
}

/** How well a product agrees with a title, or why it cannot be the title's card. */
export type Agreement =
  | {
      readonly ok: true;
      readonly name: readonly string[];
      readonly number: 0 | 1 | 2;
      readonly numberText: string | null;
      readonly set: number;
      readonly setText: string | null;
      /** The title says holo and the product's rarity is a holo one. */
      readonly holo: boolean;
      readonly printing: string | null;
      readonly language: string | null;
    }
  | { readonly ok: false; readonly why: string };

/**
 * Whether product `p` can be the card a title with `s` describes, and how strongly it agrees
 * (docs/feeds.md, "Matched by title"). It cannot when a word of its name is missing, when its
 * language, printing, stamp or holo rarity is not the title's, or when the title's numbers
 * say another card. Otherwise: its number with its total (2), its number alone (1) or not
 * (0); how many words of its set the title holds (0 unless all of them); a holo rarity the
 * title names.
 */
export function agreement(s: TitleSignals, p: TitleCandidate, sets: readonly NamedSet[] = []): Agreement {
  const name = nameWords(p.productName);
  if (name.length === 0 || name.some((w) => !s.words.has(w))) return { ok: false, why: 'name' };
  const language = p.language ?? null;
  const kind = printingKind(p);
  const promoSet = /\bpromo/i.test(p.setName);
  const holoRarity = /\bholo\b/i.test(p.subtitle);
  const refused =
    languageRefusal(s, language) ??
    printingRefusal(s, p, kind, promoSet) ??
    (s.nonHolo && holoRarity ? 'rarity: the title says non holo' : null);
  if (refused !== null) return { ok: false, why: refused };

  const number = productNumber(p);
  const found = number === null ? { score: 0 as const, text: null } : numberAgreement(s, number, promoSet);
  if ('why' in found) return { ok: false, why: found.why };
  if (s.promo && !promoSet && found.score === 0)
    return { ok: false, why: 'set: the title says promo and names no number of this card' };
  if (s.blackStar && !promoSet) return { ok: false, why: 'set: the title says Black Star Promo' };
  const set = setWords(p.setName);
  const setNamed = set.length > 0 && set.every((w) => hasSetWord(s.words, w));
  // A number with letters (`SV56`, `SWSH066`, `177a`) is the card's whatever set the title names:
  // catalogs file such cards apart (`Shiny Vault`, the promos) from the set sellers name.
  const distinctive = number !== null && /\p{L}/u.test(number.number);
  const other = otherCardRefusal(s, p, name, setNamed || (promoSet && s.promo) || distinctive, sets);
  if (other !== null) return { ok: false, why: other };
  const stray = s.shortNumbers.filter((n) => !set.includes(n));
  if (found.score === 0 && stray.length > 0)
    return { ok: false, why: `number: the title says ${stray.join(' ')}, not this card's number` };
  // A promo set is named by the words promo or black star: its own name ("Wizards Black Star Promos") is not how sellers write it.
  const setScore = setNamed ? set.length : promoSet && s.promo ? 1 : 0;
  // A plain number alone is no identity ("108" of a Topps card is not card 108 of every set): it needs the set.
  if (setScore === 0 && found.score === 1 && /^\d+$/.test(number?.number ?? '')) {
    return {
      ok: false,
      why: `set: the title names the number ${number?.number} but not the set (${p.setName})`,
    };
  }
  return {
    ok: true,
    name,
    number: found.score,
    numberText: found.text,
    set: setScore,
    setText: setNamed ? set.join(' ') : setScore > 0 ? 'promo' : null,
    holo: s.holo && holoRarity,
    printing: kind.firstEdition
      ? '1st Edition'
      : kind.shadowless
        ? 'Shadowless'
        : kind.reverse
          ? 'Reverse Holo'
          : null,
    language,
  };
}

/** Why a product of `language` (null: English) is not the title's card, or null. */
function languageRefusal(s: TitleSignals, language: string | null): string | null {
  if (s.languages.length > 1) return `language: the title names ${s.languages.join(' and ')}`;
  const titleLanguage = s.language === 'English' ? null : s.language;
  if (titleLanguage === language) return null;
  return `language: ${language ?? 'English'} product, title ${s.language === null ? 'names no language' : `says ${s.language}`}`;
}

/** Why a product's printing or stamp is not the title's, or null. */
function printingRefusal(
  s: TitleSignals,
  p: TitleCandidate,
  kind: ReturnType<typeof printingKind>,
  promoSet: boolean,
): string | null {
  if (kind.firstEdition !== s.firstEdition)
    return kind.firstEdition
      ? 'printing: 1st Edition product, the title does not say 1st Edition'
      : 'printing: the title says 1st Edition';
  // Every 1st Edition of Base Set is shadowless: a title may say it or not.
  if (!kind.firstEdition && kind.shadowless !== s.shadowless) {
    return kind.shadowless
      ? 'printing: Shadowless product, the title does not say Shadowless'
      : 'printing: the title says Shadowless';
  }
  if (kind.reverse !== s.reverse)
    return kind.reverse
      ? 'printing: Reverse Holo product, the title does not say Reverse'
      : 'printing: the title says Reverse Holo';
  const stampedPrinting = STAMP_PRINTING.test(p.printing ?? '');
  if (stampedPrinting && !s.stamped) return 'printing: stamped product, the title names no stamp';
  // A prerelease card is a promo (SWSH066) or a stamped printing, never the set's own card.
  if (s.stamped && !stampedPrinting && !promoSet)
    return 'printing: the title names a prerelease, staff or winner stamp';
  return null;
}

/** How the title states `number`: with its total (2), alone (1), not at all (0), or why it says another card. */
function numberAgreement(
  s: TitleSignals,
  number: CardNumber,
  promoSet: boolean,
): { score: 0 | 1 | 2; text: string | null } | { why: string } {
  if (
    number.total !== null &&
    s.slashNumbers.some((n) => n.total === number.total && n.number !== number.number)
  ) {
    return { why: `number: the title says another card over ${number.total}` };
  }
  if (s.numberTokens.includes(number.number)) {
    const withTotal =
      number.total !== null &&
      s.numberTokens.some((t, i) => t === number.number && s.numberTokens[i + 1] === number.total);
    return withTotal
      ? { score: 2, text: `${number.number}/${number.total}` }
      : { score: 1, text: number.number };
  }
  // "Black Star Promo 050" is promo SWSH050: a promo's digits count when the title says promo.
  const digits = /^[a-z]+(\d+)$/.exec(number.number)?.[1];
  if (promoSet && s.promo && digits !== undefined && s.numberTokens.includes(digits))
    return { score: 1, text: number.number };
  if (number.total !== null && /^\d+$/.test(number.total)) {
    // "101 108" in a slug: another number right before this card's total is another card of the set.
    const over = s.numberTokens.findIndex(
      (t, i) =>
        i > 0 &&
        t === number.total &&
        /^\d+$/.test(s.numberTokens[i - 1]!) &&
        Number(s.numberTokens[i - 1]) <= Number(t) + 100,
    );
    if (over > 0) return { why: `number: the title says ${s.numberTokens[over - 1]}/${number.total}` };
  }
  return { score: 0, text: null };
}
