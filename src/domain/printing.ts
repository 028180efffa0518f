/**
 * Printings of a card: the variants TCGplayer prices separately under one product id
 * (its `subTypeName`), which PriceCharting lists as separate products (`[Reverse Holo]`,
 * `[1st Edition]`). A catalog product names its printing so a TCGplayer price row lands on
 * the product of that printing and no other (docs/feeds.md, "Printings").
 */

/** TCGplayer's printing names (subTypeName values of its price rows), in their spelling. */
export const TCGPLAYER_PRINTINGS = [
  'Normal',
  'Holofoil',
  'Reverse Holofoil',
  '1st Edition',
  '1st Edition Normal',
  '1st Edition Holofoil',
  'Unlimited',
  'Unlimited Normal',
  'Unlimited Holofoil',
] as const;

/**
 * The regular printings: a product without a printing (a PriceCharting name without a
 * printing tag) is the card in whichever of these TCGplayer lists for it.
 */
export const REGULAR_PRINTINGS: readonly string[] = [
  'Normal',
  'Holofoil',
  'Unlimited',
  'Unlimited Normal',
  'Unlimited Holofoil',
];

/** First-edition printings of a finish, which also land on a product of printing `1st Edition`. */
const FIRST_EDITION_FINISHES: readonly string[] = ['1st Edition Normal', '1st Edition Holofoil'];

/**
 * A printing as stored: trimmed, inner spaces collapsed, and one of TCGPLAYER_PRINTINGS in
 * TCGplayer's spelling whatever the case it was written in (`reverse holofoil`); another
 * name (a printing of another game) is kept as written. null for empty text.
 */
export function canonicalPrinting(text: string): string | null {
  const collapsed = text.trim().replace(/\s+/g, ' ');
  if (collapsed === '') return null;
  const lower = collapsed.toLowerCase();
  return TCGPLAYER_PRINTINGS.find((name) => name.toLowerCase() === lower) ?? collapsed;
}

/**
 * The catalog printings a TCGplayer row of printing `subType` lands on, in order of
 * preference: the same printing; for `1st Edition Holofoil` or `1st Edition Normal` also
 * `1st Edition` (the card's only first edition, as PriceCharting's `[1st Edition]` tag names
 * it); and for a regular printing, null (a product without a printing). Nothing else: a row
 * never lands on another printing's product.
 */
export function landingPrintings(subType: string): (string | null)[] {
  const printing = canonicalPrinting(subType);
  if (printing === null) return [null];
  const landings: (string | null)[] = [printing];
  if (FIRST_EDITION_FINISHES.includes(printing)) landings.push('1st Edition');
  if (REGULAR_PRINTINGS.includes(printing)) landings.push(null);
  return landings;
}

/** Two printings are the same when their canonical forms are equal, case aside. */
export function samePrinting(a: string | null, b: string | null): boolean {
  return (a === null ? null : a.toLowerCase()) === (b === null ? null : b.toLowerCase());
}
