import { minorDigits } from '../../engine/currency.js';
/** Integer cents to dollars for people: 195000 -> "$1,950.00". Integer arithmetic only. */
export function formatUsd(cents: number): string {
  const dollars = Math.trunc(cents / 100);
  const rest = String(Math.abs(cents % 100)).padStart(2, '0');
  return `$${dollars.toLocaleString('en-US')}.${rest}`;
}

const SYMBOLS: Readonly<Record<string, string>> = { USD: '$', EUR: '€', GBP: '£', JPY: '¥' };

/** An amount in a currency's minor units for people: 98700 EUR -> "€987.00", 1500 JPY -> "¥1,500", 990 CHF -> "CHF 9.90". */
export function formatMinor(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  const whole = Math.trunc(minor / 10 ** digits).toLocaleString('en-US');
  const rest = digits === 0 ? '' : `.${String(Math.abs(minor % 10 ** digits)).padStart(digits, '0')}`;
  const symbol = SYMBOLS[currency];
  return symbol === undefined ? `${currency} ${whole}${rest}` : `${symbol}${whole}${rest}`;
}
