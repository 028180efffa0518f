/** `oracle value --history` for people (the collection's value charted, then its change and gain) and as CSV. */
import type { ValuationHistory } from '../../service/valuation-history.js';
import { priceChart } from './history-view.js';
import { formatUsd } from './money.js';
import type { Terminal } from './terminal.js';

const signed = (cents: number) => `${cents > 0 ? '+' : cents < 0 ? '-' : '±'}${formatUsd(Math.abs(cents))}`;

export function renderValuationHistory(h: ValuationHistory, terminal: Terminal): string {
  const points = h.points;
  const lines = [
    `Collection value, ${h.lines} line${h.lines === 1 ? '' : 's'}, every ${h.every}, ${points.length} point${points.length === 1 ? '' : 's'}`,
    `${h.from} -> ${h.to}`,
    '',
  ];
  const priced = points.map((p) => (p.priced_lines === 0 ? null : p.value_minor));
  const chart = priceChart(
    priced,
    points.map((p) => p.at),
    terminal,
  );
  if (chart === null)
    lines.push(
      priced.every((p) => p === null)
        ? '  no line is priced at any point'
        : '  one priced point: nothing to draw',
    );
  else lines.push(...chart);
  const first = points[0]!;
  const last = points.at(-1)!;
  const of = (p: typeof first) =>
    `${formatUsd(p.value_minor)} (${p.at.slice(0, 10)}, ${p.priced_lines} of ${h.lines} lines priced)`;
  lines.push('', `first:       ${of(first)}`, `last:        ${of(last)}`);
  lines.push(
    h.change_minor === null
      ? 'change:      - (not every line is priced at both ends)'
      : `change:      ${signed(h.change_minor)}${h.change_pct === null ? '' : ` (${h.change_pct > 0 ? '+' : ''}${h.change_pct.toFixed(1)}%)`}`,
  );
  if (h.cost_basis_minor !== null) {
    lines.push(
      `cost basis:  ${formatUsd(h.cost_basis_minor)}  gain ${h.gain_minor === null ? '- (not every line has a cost basis and a price)' : signed(h.gain_minor)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** One row per instant: `at,value_minor,priced_lines`. */
export function renderValuationHistoryCsv(h: ValuationHistory): string {
  return `${['at,value_minor,priced_lines', ...h.points.map((p) => `${p.at},${p.value_minor},${p.priced_lines}`)].join('\n')}\n`;
}
