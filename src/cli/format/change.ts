/** A price move for people: "+$12.34 (+2.5%)" in green, a fall in red, or "n/a" when either end is unknown. */
import type { PriceChange } from '../../service/history.js';
import type { Confidence } from '../../service/history.js';
import { formatUsd } from './money.js';
import { bySign, type Palette } from './terminal.js';

function formatChange(change: PriceChange, colour: Palette): string {
  if (change.change_minor === null || change.change_pct === null) return 'n/a';
  const sign = change.change_minor > 0 ? '+' : change.change_minor < 0 ? '-' : '±';
  const pct = `${change.change_pct > 0 ? '+' : ''}${change.change_pct.toFixed(1)}`;
  return bySign(colour, change.change_minor, `${sign}${formatUsd(Math.abs(change.change_minor))} (${pct}%)`);
}

/** "7d +$12.34 (+2.5%)  30d n/a" */
export function formatChanges(changes: readonly PriceChange[], colour: Palette): string {
  return changes.map((c) => `${c.days}d ${formatChange(c, colour)}`).join('  ');
}

/** An interval: "80% $450.00-$540.00"; '' without one. */
export function formatInterval(confidence: Confidence | null): string {
  if (confidence === null) return '';
  return `${Math.round(confidence.level * 100)}% ${formatUsd(confidence.low_minor)}-${formatUsd(confidence.high_minor)}`;
}
