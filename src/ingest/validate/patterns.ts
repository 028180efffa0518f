/**
 * The text patterns of the canonical records, without zod: the schemas (fields.ts,
 * observation.ts, catalog.ts) are built from them and observation-fast.ts checks CSV cells
 * against the same objects, so the fast path and the schema cannot drift apart on what a
 * field may look like.
 */

/**
 * product_key, external_id: 1 to 200 characters (code points) without control or format
 * characters (C0, C1, bidi overrides and the other Cf characters, U+2028/9: domain/inert-text.ts),
 * which would act on a terminal instead of being shown.
 */
export const NO_CONTROL_200 = /^[^\p{Cc}\p{Cf}\u2028\u2029]{1,200}$/u;
/** Free-text catalog fields: the same characters, up to 2,000. */
export const NO_CONTROL_2000 = /^[^\p{Cc}\p{Cf}\u2028\u2029]{1,2000}$/u;
/** refsource_id, tcgplayer_id. */
export const DIGITS = /^\d{1,20}$/;
export const SOURCE = /^[a-z0-9_-]{1,32}$/;
export const PRICE_MINOR = /^-?\d{1,15}$/;
export const PRICE = /^-?\d{1,13}(\.\d{1,2})?$/;
/** An ISO 4217 code, any case: an amount in another currency than USD is converted to US cents at its day's rate. */
export const CURRENCY = /^[A-Za-z]{3}$/;
export const GRADER = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
export const GRADE = /^-?\d{1,3}(\.\d+)?$/;
/** sales_volume: a whole number of sales, 0 or more (at most 9 digits). */
export const SALES_VOLUME = /^\d{1,9}$/;

/** Integer cents of a decimal amount that matches PRICE, by string arithmetic (no float error). */
export function toCents(amount: string): number {
  const negative = amount.charCodeAt(0) === 0x2d; // '-'
  let cents = 0;
  let decimals = -1; // digits seen after the point; -1 before it
  for (let i = negative ? 1 : 0; i < amount.length; i += 1) {
    const c = amount.charCodeAt(i);
    if (c === 0x2e) decimals = 0;
    else {
      cents = cents * 10 + (c - 0x30);
      if (decimals >= 0) decimals += 1;
    }
  }
  if (decimals <= 0) cents *= 100;
  else if (decimals === 1) cents *= 10;
  return negative ? -cents : cents;
}
