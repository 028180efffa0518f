/**
 * How products are named and placed whatever feed made them: the slugs of product keys and
 * the era of a release date. Shared by the feeds that build catalogs (pricecharting.ts,
 * tcgcsv-catalog.ts) so that neither depends on the other.
 */
import type { Era } from '../../domain/product.js';

/**
 * Products released before this year are `vintage`: it ends the first print era of the big
 * games (Wizards of the Coast's Pokémon sets ran until 2003, Magic changed its card frame in
 * 2003), whose cards reach grade 10 far more rarely and so need their own ratio table.
 * A product without a release date has no era the download can tell.
 */
export const VINTAGE_BEFORE_YEAR = 2004;

/**
 * A readable URL-safe slug: accents dropped, `&` spelled out, apostrophes removed
 * (`Farfetch'd` -> `farfetchd`), every other run of non-alphanumerics one dash.
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['\u2019]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** `vintage` when released before VINTAGE_BEFORE_YEAR, else `modern`; null when the date is unknown. */
export function eraFor(releaseDate: string | null): Era | null {
  if (releaseDate === null) return null;
  return Number(releaseDate.slice(0, 4)) < VINTAGE_BEFORE_YEAR ? 'vintage' : 'modern';
}
