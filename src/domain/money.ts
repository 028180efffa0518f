/** Amounts of money as people write them, in US dollars, read exactly into integer cents. */

/** Dollars as people write them: an optional `$`, digits (thousands may be grouped by commas), up to two decimals. */
const DOLLARS = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/** `$1,250.5` -> 125050 cents, exactly (no floating point); null when the text is no amount of dollars. */
export function parseDollars(text: string): number | null {
  const m = DOLLARS.exec(text.trim());
  if (m === null) return null;
  const whole = m[1]!.replaceAll(',', '');
  if (whole.length > 13) return null;
  return Number(whole) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
}

/** Integer cents to dollars for people: 195000 -> "$1,950.00". Integer arithmetic only. */
export function formatUsd(cents: number): string {
  const dollars = Math.trunc(cents / 100);
  const rest = String(Math.abs(cents % 100)).padStart(2, '0');
  return `$${dollars.toLocaleString('en-US')}.${rest}`;
}
