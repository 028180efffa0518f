/**
 * Characters that act on a terminal instead of being shown: C0 and C1 controls (`\p{Cc}`:
 * U+0000-001F, DEL, U+0080-009F, where U+009B is an 8-bit CSI), format characters
 * (`\p{Cf}`: the bidi overrides U+202A-202E and isolates U+2066-2069, zero-width characters,
 * the soft hyphen) and the line and paragraph separators U+2028, U+2029. Ingest rejects them
 * in names, keys and labels; the CLI escapes whatever is already stored (src/cli/format/inert.ts).
 */
import { onFirstUse } from './first-use.js';

/** One active character (made on first use: a Unicode property class is built as it is made). */
export const activeCharacter = onFirstUse(() => /[\p{Cc}\p{Cf}\u2028\u2029]/u);

/** The same class, every occurrence (for replacing). */
export const activeCharacters = onFirstUse(() => /[\p{Cc}\p{Cf}\u2028\u2029]/gu);

/** A code point as Unicode writes it: `U+009B`. */
export const codePointName = (char: string): string =>
  `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** The first active character of `text` by name (`U+202E`), or null when there is none. */
export function firstActiveCharacter(text: string): string | null {
  const match = activeCharacter().exec(text);
  return match === null ? null : codePointName(match[0]);
}
