/**
 * The grader and grade a sold listing's title states, for listings without structured
 * condition fields (scrapers, older marketplace data). Sellers write titles for search, not
 * for parsing: "PSA 10" may be the slab sold, a hope ("PSA 10 ready", "PSA 10 candidate"),
 * or a denial ("not PSA"). The rules, in the order they apply, are in docs/feeds.md
 * ("Grade from the title"); each is a named pattern below so a reject says which one fired.
 */
import type { PlayedCondition } from '../../domain/conditions.js';

/**
 * What a title says: a grade, a raw card (near mint, or in a played condition it names), not
 * one card at all (a lot, a fake: rejected whatever else the listing says), or a grade that
 * cannot be told (rejected unless the listing's structured fields tell it).
 */
export type TitleGrade =
  | { readonly kind: 'graded'; readonly grader: string; readonly grade: number }
  | { readonly kind: 'ungraded' }
  | { readonly kind: 'played'; readonly condition: PlayedCondition; readonly words: string }
  | { readonly kind: 'not one card'; readonly reason: string }
  | { readonly kind: 'unclear'; readonly reason: string };

interface Rule {
  readonly name: string;
  readonly pattern: RegExp;
}

/**
 * Graders whose name followed by a grade is a slab of theirs, with or without a label: the
 * Professional Grader values of eBay's trading-card condition descriptor 27501 (PSA, BCCG,
 * BVG, BGS, CSG, CGC, SGC, KSA, GMA, HGA, ISA, PCA, GSG, PGS, MNT, TAG, RCG, PCG, ACE, CGA,
 * ARK; Leoglme/PokeBay-CLI constants/graders.ts), ARS (a Japanese grader: the issue's
 * `Ninetales Holo ARS 10 GEM MINT`) and Beckett (BGS). eBay's `TCG` and `Rare` are left
 * out: "Pokemon TCG 2" and "Rare 8" are no slabs. Graders not listed here are still read
 * when a grading label or a half grade follows them (UNKNOWN_GRADED).
 */
export const KNOWN_GRADERS = [
  'PSA',
  'BGS',
  'CGC',
  'SGC',
  'BVG',
  'BCCG',
  'CSG',
  'TAG',
  'ACE',
  'HGA',
  'GMA',
  'KSA',
  'MNT',
  'ISA',
  'PCA',
  'GSG',
  'PGS',
  'RCG',
  'PCG',
  'CGA',
  'ARK',
  'ARS',
  'BECKETT',
] as const;
const GRADERS = KNOWN_GRADERS.join('|');

/**
 * The known graders whose name alone, without a grade, means a slab (`PSA slab`, `TAG Magikarp
 * ... GEM MINT`): the title is then unclear. `TAG TEAM`, `ACE SPEC` are card types, and the
 * other short names are words too often (`MNT` for mint, `ISA`, `ARK`), so they need a grade.
 */
const SLAB_GRADERS = /\b(PSA|BGS|CGC|SGC|BECKETT|BVG|BCCG|CSG|HGA|GMA|KSA|ARS)\b|\bTAG\b(?!\s*team)/i;

/** A grade range after a grader: several slabs (`PSA 1-8`, `PSA 8 to 10`). */
const GRADE_RANGE = new RegExp(
  String.raw`\b(?:${GRADERS})(?![a-z])[\s:#-]*(\d{1,2}(?:\.5)?)\s*(?:-|\u2013|to|thru|through)\s*(\d{1,2}(?:\.5)?)(?![\d.]|\s*\/)`,
  'gi',
);

/**
 * Titles that are not one genuine copy of one card: rejected, because their price is not a
 * price of the product (a lot, a fake, an empty slab).
 */
const NOT_ONE_CARD: readonly Rule[] = [
  {
    name: 'a lot',
    pattern: /\b(lot|lots|bulk|playset|pair|collection of|set of|complete set)\b|(?<!booster\s)\bbundle\b/i,
  },
  {
    name: 'several copies',
    pattern:
      /\b([2-9]|[1-9]\d{1,2})\s*x\b(?!\s*\d{1,2}\b)|\bx\s*[2-9]\d?\b(?!\s*\/)|\(\s*[2-9]\s*\)|\b([2-9]|[1-9]\d)\s+(?:[a-z]+\s+)?(cards|slabs)\b/i,
  },
  { name: 'a proxy', pattern: /\bproxy|\bproxies\b/i },
  { name: 'a custom card', pattern: /\bcustom\b/i },
  {
    name: 'a reprint',
    pattern: /\b(reprint|replica|re-print|facsimile|fake|counterfeit|orica|fan[\s-]?art|not authentic)\b/i,
  },
  {
    name: 'not the card itself',
    pattern:
      /\b(empty\s+(slab|case)|slab\s+only|case\s+only|label\s+only|no\s+card|code\s+card|online\s+code|digital)\b/i,
  },
  {
    name: 'a display case',
    pattern: /\b(display\s+(slab|case|stand|frame)|slab\s+case|[a-z]+\s+style\s+(slab|case|display))\b/i,
  },
  {
    // Not a printed card of the game: stored as the card, its price would be a trinket's. `Metal Energy` is a card.
    name: 'a novelty item',
    pattern:
      /\b(metal(?!\s+energy)|24\s*k|gold[\s-]+plated|plated|stickers?|coins?|jumbo|oversized?|art\s+print|poster|playmat|play\s+mat|handmade|hand[\s-]+made|altered|unofficial|keychain)\b/i,
  },
  {
    name: 'sealed product',
    pattern: /\b(booster\s+(pack|box)|sealed\s+pack|blister\s+pack|elite\s+trainer\s+box|theme\s+deck)\b/i,
  },
  {
    name: 'a choice of cards',
    pattern: /\b(you\s+pick|pick\s+your|choose\s+your|u\s+pick|mystery|repack)\b/i,
  },
];

/**
 * A raw card described by the grade it might get: stored as a raw card (it is a sale of the
 * card, raw), never as the grade it hopes for.
 */
const RAW: readonly Rule[] = [
  { name: 'ungraded', pattern: /\b(ungraded|un-graded|not\s+graded|non[\s-]?graded|no\s+grade|raw)\b/i },
  {
    name: 'a grade hoped for',
    pattern: new RegExp(
      `\\b(${GRADERS}|grade|grading|gem)\\b[\\s\\w.+-]{0,14}?\\b(ready(?!\\s+to\\s+(ship|go|send))|candidates?|potential|possible|worthy|quality|prospect|contender|eligible)\\b` +
        `|\\b(potential|possible|future|likely|probable|could\\s+be|would\\s+be|should\\s+be|might\\s+be|easy|sure|like|looks\\s+like|similar\\s+to|comparable\\s+to|equivalent\\s+to)\\s+(a\\s+)?(${GRADERS}|gem)\\b` +
        `|\\b(ready|candidate|worthy)\\s+(for\\s+)?(${GRADERS}|grading)\\b` +
        `|\\b(you\\s+grade|grade\\s+it\\s+yourself|pre-?grade[ds]?|send\\s+(it\\s+)?(in|to)|for\\s+grading|to\\s+grade|to\\s+be\\s+graded|get\\s+(it\\s+)?graded|gradable|ready\\s+to\\s+grade)\\b`,
      'i',
    ),
  },
  { name: 'a grade asked', pattern: new RegExp(`\\b(${GRADERS})\\s*\\d{1,2}(\\.5)?\\s*\\?`, 'i') },
];

/** `PSA 1 Quality`: nobody hopes for a 1, so a grade of 1 called quality is the slab's (not RAW's hope). */
const LOWEST_GRADE_QUALITY = new RegExp(`\\b(${GRADERS})\\s*1(\\.5)?\\s+quality\\b`, 'i');

/**
 * A slab that is not a clean slab of a plain grade: a qualified grade (PSA's OC off-center, MC
 * miscut, ST stain, PD print defect, OF out of focus, MK marks), worth well below the plain
 * grade, or a damaged holder. The grade cannot be stored as the plain one: refused.
 */
const NOT_PLAIN_SLAB: readonly Rule[] = [
  {
    name: 'a qualified grade',
    pattern: new RegExp(`\\b(${GRADERS})\\s*\\d{1,2}(\\.5)?\\s*\\(?\\s*(OC|MC|ST|PD|OF|MK)\\b\\)?`, 'i'),
  },
  {
    name: 'a damaged slab',
    pattern:
      /\b(damaged|cracked|broken|chipped|scratched)\s+(slab|case|holder)\b|\b(slab|case|holder)\s+(is\s+)?(damaged|cracked|broken|chipped)\b/i,
  },
];

/** A grader denied (`not PSA`, `no PSA`): that grader's grade in the title is not the slab. */
const DENIED = new RegExp(`\\b(?:not|no|non|never|isn't|is\\s+not)[\\s-]+(${GRADERS})\\b`, 'gi');

/** Words sellers put between a grader and its grade, or after it. */
const LABEL = String.raw`(?:gem\s*mint|gem\s*mt|gem-mt|mint\+?|mt|nm-mt\+?|nm|ex-mt|ex\s*\/\s*nm\+?|vg\s*\/\s*ex\+?|ex\+?|vg-ex\+?|vg|good|fair|poor|pristine|black\s*label|gold\s*label|perfect|authentic)`;
/** A label, or a word saying the card is graded (`PSA GRADED MINT 9`, `TAG grading 9`, `CGC Grade 9.5`). */
const BETWEEN = String.raw`(?:${LABEL}|graded|grading|grade)`;
/** The labels that mean a grade, not a raw card's condition (`NM` and `EX` describe raw cards too). */
const GRADE_LABEL = /gem|mint|mt|pristine|perfect|black\s*label|gold\s*label/i;

const GRADE = String.raw`(\d{1,2}(?:\.5)?)(?![\d/.]|\s*\/\s*\d)(?![a-z])`;

const GRADED = new RegExp(
  String.raw`\b(${GRADERS})(?![a-z])(?!\s*team)(?!\s*spec)[\s:#-]*((?:${BETWEEN}[\s:#-]*)*)${GRADE}((?:[\s-]*${LABEL})*)`,
  'gi',
);

/**
 * A grader this parser does not know, written in capitals (2 to 5 letters) where a grader
 * stands: followed by a grade with a grading label on either side or by a half grade
 * (`XYZ 10 GEM MINT`, `XYZ 8.5`). Stored as graded under that word, never as ungraded.
 */
const UNKNOWN_GRADED = new RegExp(
  String.raw`\b([A-Za-z]{2,5})(?![a-z])[\s:#-]*((?:${BETWEEN}[\s:#-]*)*)${GRADE}((?:[\s-]*${LABEL})*)`,
  'gi',
);

/**
 * Capitalised words that stand before a small number in card titles and are no graders:
 * grading labels, card kinds and rarities (`VMAX 10`, `SIR`), set codes (`SV 3.5` is a set,
 * 151; `SWSH 4.5`, `SM 11.5`), languages, and words of titles written in capitals (`SET 2`).
 */
const NOT_GRADERS: ReadonlySet<string> = new Set(
  (
    'GEM MINT MT NM EX VG GOOD FAIR POOR PERFECT BLACK GOLD LABEL AUTH GRADE ' +
    'GX VMAX VSTAR LV LVX BREAK PRIME STAR MEGA TEAM SPEC TAG ACE ' +
    'SR SAR AR SIR IR CHR CSR UR HR RR RRR SSR PR TR FA SP SSP RC AU AUTO REF ' +
    'SV SWSH SM XY BW DP HGSS ADV VS WEB NEO GYM BASE SET POP CERT ' +
    'JP JPN JAP ENG EN KOR KR CHN CN DE GER FR ITA IT ES SPA ' +
    'NO NR VOL PART GEN WAVE LOT BOX PACK CARD HOLO RARE FULL ART ALT PROMO ' +
    'THE AND OF FOR WITH NEW TOP HOT USA UK US EU TCG CCG OCG MTG NBA NFL MLB NHL UFC WWE ' +
    'WOTC ED EDT MEW MUK ABRA ONIX JYNX EEVEE EKANS ZUBAT'
  ).split(' '),
);

/** Hit points: a number of 2 or 3 digits that is no card number's total (`80 HP`, not `1/102 HP`). */
const HIT_POINTS_BEFORE = String.raw`(?<!(?:^|[^/\d])\d{2,3}\s?)`;
/** Hit points after the letters (`HP 120`, `HP:120`), not a card number (`HP 11/102`). */
const HIT_POINTS_AFTER = String.raw`(?![\s:]*\d{2,3}\b(?!\s*\/))`;

/**
 * Words of a raw card's played condition, worst first (the worst a title states is kept:
 * `NM/LP` is LP). The abbreviations follow TCGplayer's scale; `HP` next to a number of hit
 * points (2 or 3 digits: `120 HP`, `40HP`, `HP 120`) is hit points, not heavily played. A card
 * number's total or a year before it (`1/102 HP`, `1999 HP/Played`) and a card number after it
 * (`MP-HP 11/102`) are no hit points: real active-listing titles write them so (docs/feeds.md,
 * "Raw condition"). `Very good condition` is eBay's `Moderately Played (Very Good)`.
 * `Excellent`, `EX` and `Good` alone are not read: `EX` is a card kind, and sellers write
 * `Excellent` of prices and centering.
 */
const PLAYED: readonly { readonly condition: PlayedCondition; readonly pattern: RegExp }[] = [
  {
    condition: 'DMG',
    pattern:
      /\b(damaged|damage|dmg|creased|crease|creases|creasing|bent|torn|ripped|water[\s-]?damaged?)\b/gi,
  },
  {
    condition: 'HP',
    pattern: new RegExp(
      String.raw`\b(heavily[\s-]+played|heavy[\s-]+play(?:ed)?|poor(?:\s+condition)?)\b(?!\s+(?:centering|centered|cut))|${HIT_POINTS_BEFORE}\bHP\b${HIT_POINTS_AFTER}`,
      'gi',
    ),
  },
  {
    condition: 'MP',
    pattern:
      /\b(moderately[\s-]+played|moderate[\s-]+play(?:ed)?|very[\s-]+good[\s-]+cond(?:ition)?|MP|(?<!(?:lightly|slightly|heavily|moderately|light|heavy|moderate)[\s-]+)played)\b(?!\d)/gi,
  },
  {
    condition: 'LP',
    pattern: /\b(lightly[\s-]+played|light[\s-]+play(?:ed)?|slightly[\s-]+played|LP)\b(?!\d)/gi,
  },
];

/** A condition word denied before it (`no creases`, `never played`) or after it (`crease free`). */
const DENIED_BEFORE = /\b(no|not|never|without|zero|free\s+of|non)[\s-]+(?:[a-z]+[\s-]+)?$/i;
const DENIED_AFTER = /^[\s-]*free\b/i;

/** Alternative names of a grader, to the name observations use. */
const GRADER_ALIASES: Readonly<Record<string, string>> = { BECKETT: 'BGS' };

/**
 * The grader and grade a title states, or that it states none (a raw card, near mint or in
 * the played condition it names), or why it cannot be read as one card's grade.
 * `CGC Pristine 10` and `SGC Pristine 10` are kept apart from the regular 10 as
 * `CGC-PRISTINE` / `SGC-PRISTINE`, `CGC Perfect 10` as `CGC-PERFECT`, `BGS 10 Black Label` as
 * `BGS-BLACK` (priced apart as extra grades), as the PriceCharting feed keeps them: they sell for a
 * multiple of the regular 10.
 */
export function gradeFromTitle(title: string): TitleGrade {
  for (const rule of NOT_ONE_CARD) {
    const hit = rule.pattern.exec(title);
    if (hit)
      return {
        kind: 'not one card',
        reason: `the title says ${JSON.stringify(hit[0].trim())}: ${rule.name}, not a sale of one card`,
      };
  }
  for (const range of title.matchAll(GRADE_RANGE)) {
    if (Number(range[2]) > Number(range[1]) && Number(range[2]) <= 10) {
      return {
        kind: 'not one card',
        reason: `the title says ${JSON.stringify(range[0].trim())}: a range of grades, several slabs, not a sale of one card`,
      };
    }
  }
  for (const rule of NOT_PLAIN_SLAB) {
    const hit = rule.pattern.exec(title);
    if (hit)
      return {
        kind: 'unclear',
        reason: `the title says ${JSON.stringify(hit[0].trim())}: ${rule.name}, not a clean slab of a plain grade`,
      };
  }
  for (const rule of RAW) {
    if (rule.name === 'a grade hoped for' && LOWEST_GRADE_QUALITY.test(title)) continue;
    if (rule.pattern.test(title)) return rawCard(title);
  }
  const denied = new Set([...title.matchAll(DENIED)].map((m) => graderName(m[1] as string)));
  const found = new Map<string, { grader: string; grade: number }>();
  const add = (name: string, grade: number, labels: string) => {
    if (!(grade >= 1 && grade <= 10) || denied.has(graderName(name))) return;
    const grader = gradeTier(name, labels, grade);
    found.set(`${grader} ${grade}`, { grader, grade });
  };
  for (const match of title.matchAll(GRADED))
    add(match[1] as string, Number(match[3]), `${match[2] ?? ''} ${match[4] ?? ''}`);
  for (const match of title.matchAll(UNKNOWN_GRADED)) {
    const word = match[1] as string;
    const labels = `${match[2] ?? ''} ${match[4] ?? ''}`;
    if (
      word !== word.toUpperCase() ||
      NOT_GRADERS.has(word) ||
      (KNOWN_GRADERS as readonly string[]).includes(word)
    )
      continue;
    if (!GRADE_LABEL.test(labels) && !(match[3] as string).endsWith('.5')) continue;
    add(word, Number(match[3]), labels);
  }
  if (found.size > 1) {
    return {
      kind: 'unclear',
      reason: `the title names ${found.size} grades (${[...found.keys()].join(', ')}): which one sold cannot be told`,
    };
  }
  const [only] = found.values();
  if (only !== undefined) return { kind: 'graded', ...only };
  if (denied.size > 0) return rawCard(title);
  const slab = SLAB_GRADERS.exec(title);
  if (slab) return { kind: 'unclear', reason: `the title names ${slab[0]} but no grade from 1 to 10` };
  // `Gem Mint 10` and `Pristine 10` are the 10 of several graders (PSA, BGS, CGC, TAG): which cannot be told.
  const gem = /\b(?:gem\s*(?:mint|mt)|pristine)\s*10\b/i.exec(title);
  if (gem)
    return {
      kind: 'unclear',
      reason: `the title gives the grade ${JSON.stringify(gem[0])} but names no grader`,
    };
  const graded = /\bgraded\b/i.exec(title);
  if (graded)
    return {
      kind: 'unclear',
      reason: `the title says ${JSON.stringify(graded[0])} but names no grader and grade`,
    };
  return rawCard(title);
}

/** A raw card: the worst played condition the title states, else near mint (ungraded). */
function rawCard(title: string): TitleGrade {
  for (const { condition, pattern } of PLAYED) {
    for (const hit of title.matchAll(pattern)) {
      const at = hit.index;
      if (DENIED_BEFORE.test(title.slice(0, at)) || DENIED_AFTER.test(title.slice(at + hit[0].length)))
        continue;
      return { kind: 'played', condition, words: hit[0] };
    }
  }
  return { kind: 'ungraded' };
}

function graderName(name: string): string {
  return GRADER_ALIASES[name.toUpperCase()] ?? name.toUpperCase();
}

/** The grader name of a grade, the tiers above a regular 10 kept apart. */
function gradeTier(name: string, labels: string, grade: number): string {
  const grader = graderName(name);
  if (grade !== 10) return grader;
  if (grader === 'BGS' && /black\s*label/i.test(labels)) return 'BGS-BLACK';
  if (grader === 'CGC' && /perfect/i.test(labels)) return 'CGC-PERFECT';
  if ((grader === 'CGC' || grader === 'SGC') && /pristine/i.test(labels)) return `${grader}-PRISTINE`;
  return grader;
}
