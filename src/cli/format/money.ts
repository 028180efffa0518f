/** Integer cents to dollars for people: 195000 -> "$1,950.00". Integer arithmetic only. */
export function formatUsd(cents: number): string {
  const dollars = Math.trunc(cents / 100);
  const rest = String(Math.abs(cents % 100)).padStart(2, '0');
  return `$${dollars.toLocaleString('en-US')}.${rest}`;
}
