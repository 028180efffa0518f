import { RowRejection } from './types.js';

/**
 * Dollar amounts as the price feeds print them (`$2,325.00`, `6.31`, blank) to integer
 * US cents, by string arithmetic: a float would turn 0.29 into 28.999... cents.
 */

// Optional `$`, whole dollars either plain or in comma-separated groups of three, at most 2 decimals.
const USD_AMOUNT = /^\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/**
 * Parses a USD amount to integer cents. Returns null when the text is blank or zero: the feeds
 * print nothing (PriceCharting) or 0 when they have no price, and CONTRACT.md prices are > 0.
 * Throws a RowRejection naming the text when it is not an amount.
 */
export function parseUsdCents(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const match = USD_AMOUNT.exec(trimmed);
  if (!match) throw new RowRejection(`not a USD amount with at most 2 decimals: ${JSON.stringify(text)}`);
  const dollars = (match[1] ?? '').replaceAll(',', '');
  const cents = (match[2] ?? '').padEnd(2, '0');
  const value = Number(dollars + cents);
  if (!Number.isSafeInteger(value))
    throw new RowRejection(`USD amount out of range: ${JSON.stringify(text)}`);
  return value === 0 ? null : value;
}

/** parseUsdCents of a feed's column, its rejection naming the column: `marketPrice: not a USD amount ...`. */
export function columnCents(column: string, text: string): number | null {
  try {
    return parseUsdCents(text);
  } catch (error) {
    if (!(error instanceof RowRejection)) throw error;
    throw new RowRejection(`${column}: ${error.message}`, { cause: error });
  }
}
