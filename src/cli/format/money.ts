import { minorDigits } from '../../engine/currency.js';
/** The dollars of every view: the one formatter, in the domain so the web pages print the same text. */
export { formatUsd } from '../../domain/money.js';

const SYMBOLS: Readonly<Record<string, string>> = { USD: '$', EUR: '€', GBP: '£', JPY: '¥' };

/** An amount in a currency's minor units for people: 98700 EUR -> "€987.00", 1500 JPY -> "¥1,500", 990 CHF -> "CHF 9.90". */
export function formatMinor(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  const whole = Math.trunc(minor / 10 ** digits).toLocaleString('en-US');
  const rest = digits === 0 ? '' : `.${String(Math.abs(minor % 10 ** digits)).padStart(digits, '0')}`;
  const symbol = SYMBOLS[currency];
  return symbol === undefined ? `${currency} ${whole}${rest}` : `${symbol}${whole}${rest}`;
}
