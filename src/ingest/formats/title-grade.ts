/**
 * The grader and grade a sold listing's title states, for listings without structured
 * condition fields (scrapers, older marketplace data). Sellers write titles for search, not
 * for parsing: "PSA 10" may be the slab sold, a hope ("PSA 10 ready", "PSA 10 candidate"),
 * or a denial ("not PSA"). The rules, in the order they apply, are in docs/feeds.md
 * ("Grade from the title"); each is a named pattern below so a reject says which one fired.
 */

/**
 * What a title says: a grade, a raw card, not one card at all (a lot, a fake: rejected
 * whatever else the listing says), or a grade that cannot be told (rejected unless the
 * listing's structured fields tell it).
 */
export type TitleGrade =
  | { readonly kind: 'graded'; readonly grader: string; readonly grade: number }
  | { readonly kind: 'ungraded' }
  | { readonly kind: 'not one card'; readonly reason: string }
  | { readonly kind: 'unclear'; readonly reason: string };

interface Rule {
  readonly name: string;
  readonly pattern: RegExp;
}

/**
 * Titles that are not one genuine copy of one card: rejected, because their price is not a
 * price of the product (a lot, a fake, an empty slab).
 */
const NOT_ONE_CARD: readonly Rule[] = [
  { name: 'a lot', pattern: /\b(lot|lots|bulk|playset|pair|collection of|set of|complete set)\b/i },
  { name: 'several copies', pattern: /\b([2-9]|[1-9]\d{1,2})\s*x\b(?!\s*\d)|\bx\s*[2-9]\d?\b(?!\s*\/)|\(\s*[2-9]\s*\)/i },
  { name: 'a proxy', pattern: /\bproxy|\bproxies\b/i },
  { name: 'a custom card', pattern: /\bcustom\b/i },
  { name: 'a reprint', pattern: /\b(reprint|replica|re-print|facsimile|fake|counterfeit|orica|fan[\s-]?art|not authentic)\b/i },
  { name: 'not the card itself', pattern: /\b(empty\s+(slab|case)|slab\s+only|case\s+only|label\s+only|no\s+card|code\s+card|online\s+code|digital)\b/i },
  { name: 'a choice of cards', pattern: /\b(you\s+pick|pick\s+your|choose\s+your|u\s+pick|mystery|repack)\b/i },
];

const GRADERS = 'PSA|BGS|BVG|BCCG|CGC|SGC|CSG|TAG|ACE|HGA|GMA|KSA|MNT|ISA|BECKETT';
/** The graders whose name alone means a slab: the title must then give the grade too. */
const SLAB_GRADERS = /\b(PSA|BGS|CGC|SGC|BECKETT)\b/i;

/**
 * A raw card described by the grade it might get: stored as ungraded (it is a sale of the
 * card, raw), never as the grade it hopes for.
 */
const RAW: readonly Rule[] = [
  { name: 'ungraded', pattern: /\b(ungraded|un-graded|not\s+graded|non[\s-]?graded|no\s+grade|raw)\b/i },
  { name: 'not a grader', pattern: new RegExp(`\\b(not|no|non|never|isn't|is\\s+not)[\\s-]+(${GRADERS})\\b`, 'i') },
  {
    name: 'a grade hoped for',
    pattern: new RegExp(
      `\\b(${GRADERS}|grade|grading|gem)\\b[\\s\\w.+-]{0,14}?\\b(ready(?!\\s+to\\s+(ship|go|send))|candidates?|potential|possible|worthy|quality|prospect|contender|eligible)\\b` +
        `|\\b(potential|possible|future|likely|probable|could\\s+be|would\\s+be|should\\s+be|might\\s+be|easy|sure)\\s+(a\\s+)?(${GRADERS}|gem)\\b` +
        `|\\b(ready|candidate|worthy)\\s+(for\\s+)?(${GRADERS}|grading)\\b` +
        `|\\b(you\\s+grade|grade\\s+it\\s+yourself|pre-?grade[ds]?|send\\s+(it\\s+)?(in|to)|for\\s+grading|to\\s+grade|gradable|ready\\s+to\\s+grade)\\b`,
      'i',
    ),
  },
  { name: 'a grade asked', pattern: new RegExp(`\\b(${GRADERS})\\s*\\d{1,2}(\\.5)?\\s*\\?`, 'i') },
];

/** Words sellers put between a grader and its grade, or after it. */
const LABEL = String.raw`(?:gem\s*mint|gem\s*mt|gem-mt|mint\+?|mt|nm-mt\+?|nm|ex-mt|ex|vg-ex|vg|good|fair|poor|pristine|black\s*label|gold\s*label|perfect|authentic)`;

const GRADED = new RegExp(
  String.raw`\b(${GRADERS})(?![a-z])(?!\s*team)[\s:#-]*((?:${LABEL}[\s:#-]*)*)(\d{1,2}(?:\.5)?)(?![\d/.]|\s*\/\s*\d)((?:[\s-]*${LABEL})*)`,
  'gi',
);

/** Alternative names of a grader, to the name observations use. */
const GRADER_ALIASES: Readonly<Record<string, string>> = { BECKETT: 'BGS' };

/**
 * The grader and grade a title states, or that it states none (ungraded), or why it cannot
 * be read as one card's grade. `CGC Pristine 10` and `SGC Pristine 10` are kept apart from the regular 10 as
 * `CGC-PRISTINE` / `SGC-PRISTINE`, `CGC Perfect 10` as `CGC-PERFECT`, `BGS 10 Black Label` as
 * `BGS-BLACK` (stored, not priced), as the PriceCharting feed keeps them: they sell for a
 * multiple of the regular 10.
 */
export function gradeFromTitle(title: string): TitleGrade {
  for (const rule of NOT_ONE_CARD) {
    const hit = rule.pattern.exec(title);
    if (hit) return { kind: 'not one card', reason: `the title says ${JSON.stringify(hit[0].trim())}: ${rule.name}, not a sale of one card` };
  }
  for (const rule of RAW) if (rule.pattern.test(title)) return { kind: 'ungraded' };
  const found = new Map<string, { grader: string; grade: number }>();
  for (const match of title.matchAll(GRADED)) {
    const grade = Number(match[3]);
    if (grade < 1 || grade > 10) continue;
    const grader = gradeTier(match[1] as string, `${match[2] ?? ''} ${match[4] ?? ''}`, grade);
    found.set(`${grader} ${grade}`, { grader, grade });
  }
  if (found.size > 1) {
    return { kind: 'unclear', reason: `the title names ${found.size} grades (${[...found.keys()].join(', ')}): which one sold cannot be told` };
  }
  const [only] = found.values();
  if (only !== undefined) return { kind: 'graded', ...only };
  const slab = SLAB_GRADERS.exec(title);
  if (slab) return { kind: 'unclear', reason: `the title names ${slab[0]} but no grade from 1 to 10` };
  const gem = /\bgem\s*(mint|mt)\s*10\b/i.exec(title);
  if (gem) return { kind: 'unclear', reason: `the title gives the grade ${JSON.stringify(gem[0])} but names no grader` };
  return { kind: 'ungraded' };
}

/** The grader name of a grade, the tiers above a regular 10 kept apart. */
function gradeTier(name: string, labels: string, grade: number): string {
  const grader = GRADER_ALIASES[name.toUpperCase()] ?? name.toUpperCase();
  if (grade !== 10) return grader;
  if (grader === 'BGS' && /black\s*label/i.test(labels)) return 'BGS-BLACK';
  if (grader === 'CGC' && /perfect/i.test(labels)) return 'CGC-PERFECT';
  if ((grader === 'CGC' || grader === 'SGC') && /pristine/i.test(labels)) return `${grader}-PRISTINE`;
  return grader;
}
