/**
 * `oracle history` for people: per slot a line chart fitted to the terminal width (asciichart)
 * with a date axis under it, then first / last / min / max and the change over 7, 30 and 90
 * days (gains green, losses red); and the CSV view.
 */
import asciichart from 'asciichart';
import type { History, HistoryValue, PricedAt } from '../../service/history.js';
import { csvOutputLine } from '../../domain/csv.js';
import { convertedFiguresLine } from './bundle-view.js';
import { formatChanges, formatInterval } from './change.js';
import { variantWords } from './identity.js';
import { formatUsd } from './money.js';
import { wrapLine, type Terminal } from './terminal.js';

const CHART_HEIGHT = 10;
/** Columns of the y-axis labels ("$13,266.72 ┤"). */
const LABEL_WIDTH = 13;

/** A span longer than this has its axis in dates; a shorter one in month, day and hour. */
const AXIS_DATES_AFTER_MS = 2 * 24 * 3_600_000;

/**
 * The prices to draw, at most `columns` of them, and the index of the point each shows: each
 * column shows the point nearest its place (a drawn price is always one the history holds).
 * Unpriced points are drawn at the price before them; leading ones are left out.
 */
function chartSeries(
  prices: readonly (number | null)[],
  columns: number,
): { prices: number[]; points: number[] } {
  const filled: number[] = [];
  const points: number[] = [];
  let last: number | null = null;
  prices.forEach((p, i) => {
    if (p !== null) last = p;
    if (last !== null) {
      filled.push(last);
      points.push(i);
    }
  });
  if (filled.length <= columns) return { prices: filled, points };
  const pick = (c: number) => Math.round((c * (filled.length - 1)) / (columns - 1));
  return {
    prices: Array.from({ length: columns }, (_, c) => filled[pick(c)]!),
    points: Array.from({ length: columns }, (_, c) => points[pick(c)]!),
  };
}

/**
 * The x axis under a chart: the first column's date under it, the last's ending under it and,
 * where there is room, the middle one's centred, so the eye can place a bump in time (a chart
 * too narrow for two dates gets `first - last` from its first column).
 * `axis` is the column of the chart's y axis (where its first point is drawn).
 */
function dateAxis(ats: readonly string[], axis: number): string {
  const long = Date.parse(ats.at(-1)!) - Date.parse(ats[0]!) > AXIS_DATES_AFTER_MS;
  const label = (at: string) => (long ? at.slice(0, 10) : `${at.slice(5, 10)} ${at.slice(11, 16)}`);
  const first = label(ats[0]!);
  const last = label(ats.at(-1)!);
  const end = axis + ats.length; // one past the last point's column
  const line = `${' '.repeat(axis)}${first}`;
  // A chart narrower than two dates: the last follows the first.
  if (line.length + 2 + last.length > end) return ats.length > 1 ? `${line} - ${last}` : line;
  const mid = label(ats[Math.floor((ats.length - 1) / 2)]!);
  const midStart = axis + Math.floor((ats.length - 1) / 2) - Math.floor(mid.length / 2);
  const withMid =
    midStart >= line.length + 3 && midStart + mid.length + 3 <= end - last.length
      ? `${line.padEnd(midStart)}${mid}`
      : line;
  return `${withMid.padEnd(end - last.length)}${last}`;
}

/**
 * A chart of prices over time (`ats`, one a price; `label` writes an axis value, dollars by
 * default) as wide as the terminal, with its date axis:
 * null when fewer than two points are priced, nothing to draw.
 */
export function priceChart(
  prices: readonly (number | null)[],
  ats: readonly string[],
  terminal: Terminal,
  label: (value: number) => string = (x) => formatUsd(Math.round(x)),
): string[] | null {
  const series = chartSeries(prices, Math.max(10, terminal.width - LABEL_WIDTH - 1));
  if (series.prices.length < 2) return null;
  const chart = asciichart.plot(series.prices, {
    height: CHART_HEIGHT,
    format: (x: number) => label(x).padStart(LABEL_WIDTH - 2),
  });
  const axis = chart
    .split('\n')
    .at(-1)!
    .search(/[\u2524\u253c]/);
  return [
    ...chart.split('\n').map((row) => row.trimEnd()),
    terminal.colour.dim(
      dateAxis(
        series.points.map((i) => ats[i]!),
        axis,
      ),
    ),
  ];
}

const at = (p: PricedAt | null) => (p === null ? '-' : `${formatUsd(p.price_minor)} (${p.at.slice(0, 10)})`);

export function renderHistory(history: History, terminal: Terminal): string {
  const { width, colour } = terminal;
  const { body, summary, metadata } = history;
  const lines: string[] = [];
  const points = body.points;
  lines.push(
    `${metadata.product_name}${metadata.subtitle ? ` - ${metadata.subtitle}` : ''} | ${metadata.set_name}${variantWords(metadata)}`,
  );
  lines.push(body.product_key);
  lines.push(
    `${points[0]!.at} -> ${points.at(-1)!.at}, every ${body.every}, ${points.length} point${points.length === 1 ? '' : 's'}`,
  );
  for (const s of summary) {
    lines.push('');
    lines.push(s.slot);
    const prices = points.map((p) => (p[s.slot] as HistoryValue).price_minor);
    const chart = priceChart(
      prices,
      points.map((p) => p.at),
      terminal,
    );
    if (chart === null)
      lines.push(s.priced_points === 0 ? '  no price at any point' : '  one priced point: nothing to draw');
    else lines.push(...chart);
    const interval = formatInterval(history.latest[s.slot] ?? null);
    lines.push(`  last   ${at(s.last)}${interval ? `  interval ${interval}` : ''}`);
    lines.push(`  first  ${at(s.first)}`);
    lines.push(`  min    ${at(s.min)}   max ${at(s.max)}`);
    lines.push(`  change ${formatChanges(s.changes, colour)}`);
    const converted = convertedFiguresLine(history.latestConverted[s.slot]);
    if (converted !== null) lines.push(`  last${converted.slice(1)}`);
  }
  return `${lines.flatMap((l) => wrapLine(l, width)).join('\n')}\n`;
}

/** CSV: `at`, then per slot its price and interval in cents (empty when unknown). */
export function renderHistoryCsv(history: History): string {
  const { body } = history;
  const head = [
    'at',
    ...body.slots.flatMap((s) => [`${s}_price_minor`, `${s}_low_minor`, `${s}_high_minor`]),
  ];
  const rows = body.points.map((p) => [
    p.at,
    ...body.slots.flatMap((s) => {
      const v = p[s] as HistoryValue;
      return [v.price_minor, v.confidence?.low_minor, v.confidence?.high_minor];
    }),
  ]);
  return `${[head, ...rows].map(csvOutputLine).join('\n')}\n`;
}
