/**
 * `oracle history` for people: per slot a line chart fitted to the terminal width (asciichart),
 * then first / last / min / max and the change over 7, 30 and 90 days; and the CSV view.
 */
import asciichart from 'asciichart';
import type { History, HistoryValue, PricedAt } from '../../service/history.js';
import { csvOutputLine } from '../../domain/csv.js';
import { formatChanges, formatInterval } from './change.js';
import { variantWords } from './identity.js';
import { formatUsd } from './money.js';

const CHART_HEIGHT = 10;
/** Columns of the y-axis labels ("$13,266.72 ┤"). */
const LABEL_WIDTH = 13;

/**
 * The prices to draw, at most `columns` of them: each column shows the point nearest its
 * place (a drawn price is always one the history holds). Unpriced points are drawn at the
 * price before them; leading ones are left out.
 */
function chartSeries(prices: readonly (number | null)[], columns: number): number[] {
  const filled: number[] = [];
  let last: number | null = null;
  for (const p of prices) {
    if (p !== null) last = p;
    if (last !== null) filled.push(last);
  }
  if (filled.length <= columns) return filled;
  return Array.from({ length: columns }, (_, c) => filled[Math.round((c * (filled.length - 1)) / (columns - 1))]!);
}

const at = (p: PricedAt | null) => (p === null ? '-' : `${formatUsd(p.price_minor)} (${p.at.slice(0, 10)})`);

export function renderHistory(history: History, width: number): string {
  const { body, summary, metadata } = history;
  const lines: string[] = [];
  const points = body.points;
  lines.push(`${metadata.product_name}${metadata.subtitle ? ` - ${metadata.subtitle}` : ''} | ${metadata.set_name}${variantWords(metadata)}`);
  lines.push(body.product_key);
  lines.push(`${points[0]!.at} -> ${points.at(-1)!.at}, every ${body.every}, ${points.length} point${points.length === 1 ? '' : 's'}`);
  for (const s of summary) {
    lines.push('');
    lines.push(s.slot);
    const prices = points.map((p) => (p[s.slot] as HistoryValue).price_minor);
    const series = chartSeries(prices, Math.max(10, width - LABEL_WIDTH - 1));
    if (series.length < 2) {
      lines.push(s.priced_points === 0 ? '  no price at any point' : '  one priced point: nothing to draw');
    } else {
      lines.push(
        asciichart.plot(series, {
          height: CHART_HEIGHT,
          format: (x: number) => formatUsd(Math.round(x)).padStart(LABEL_WIDTH - 2),
        }),
      );
    }
    const interval = formatInterval(history.latest[s.slot] ?? null);
    lines.push(`  last   ${at(s.last)}${interval ? `  interval ${interval}` : ''}`);
    lines.push(`  first  ${at(s.first)}`);
    lines.push(`  min    ${at(s.min)}   max ${at(s.max)}`);
    lines.push(`  change ${formatChanges(s.changes)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** CSV: `at`, then per slot its price and interval in cents (empty when unknown). */
export function renderHistoryCsv(history: History): string {
  const { body } = history;
  const head = ['at', ...body.slots.flatMap((s) => [`${s}_price_minor`, `${s}_low_minor`, `${s}_high_minor`])];
  const rows = body.points.map((p) => [
    p.at,
    ...body.slots.flatMap((s) => {
      const v = p[s] as HistoryValue;
      return [v.price_minor, v.confidence?.low_minor, v.confidence?.high_minor];
    }),
  ]);
  return `${[head, ...rows].map(csvOutputLine).join('\n')}\n`;
}
