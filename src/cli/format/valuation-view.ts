/**
 * `oracle value` for people (a table of lines fitted to the terminal, the key never cut, gains
 * green and losses red, then the total) and as CSV.
 */
import type { Valuation, ValuedLine } from '../../service/valuation.js';
import { csvOutputLine, type CsvCell } from '../../domain/csv.js';
import { fitTable, type Column } from './columns.js';
import { formatMinor, formatUsd } from './money.js';
import { convertedFiguresLine } from './bundle-view.js';
import { bySign, wrapLine, type Terminal } from './terminal.js';

const usd = (cents: number | null) => (cents === null ? '-' : formatUsd(cents));
const signed = (cents: number | null) =>
  cents === null ? '-' : `${cents > 0 ? '+' : cents < 0 ? '-' : '±'}${formatUsd(Math.abs(cents))}`;
const range = (low: number | null, high: number | null) =>
  low === null || high === null ? '-' : `${formatUsd(low)}-${formatUsd(high)}`;

export function renderValuation(v: Valuation, terminal: Terminal): string {
  const { width, colour } = terminal;
  const lines = v.lines;
  const cells = (pick: (l: ValuedLine) => string) => lines.map(pick);
  const columns: Column[] = [
    { head: 'line', cells: cells((l) => String(l.line)), shrink: 0, min: 4, alignRight: true, lastResort: 1 },
    { head: 'product key', cells: cells((l) => l.product_key), shrink: 0, min: 16, keep: true },
    { head: 'name', cells: cells((l) => l.product_name), shrink: 1, min: 6, lastResort: 1 },
    { head: 'cond', cells: cells((l) => l.condition), shrink: 0, min: 4 },
    {
      head: 'qty',
      cells: cells((l) => l.quantity.toLocaleString('en-US')),
      shrink: 0,
      min: 3,
      alignRight: true,
    },
    {
      head: 'unit',
      cells: cells((l) => (l.unit_price_minor === null ? 'no price' : formatUsd(l.unit_price_minor))),
      shrink: 0,
      min: 4,
      alignRight: true,
    },
    { head: 'subtotal', cells: cells((l) => usd(l.subtotal_minor)), shrink: 0, min: 8, alignRight: true },
  ];
  const currency = v.total.converted?.currency;
  if (currency !== undefined) {
    const money = (minor: number | null | undefined) => (minor == null ? '-' : formatMinor(minor, currency));
    columns.push({
      head: `in ${currency}`,
      cells: cells((l) => money(l.converted?.subtotal_minor)),
      shrink: 0,
      min: 6,
      alignRight: true,
    });
  }
  if (lines.some((l) => l.cost_basis_minor !== null)) {
    columns.push({
      head: 'gain',
      cells: cells((l) => signed(l.gain_minor)),
      shrink: 0,
      min: 4,
      alignRight: true,
      paint: (text, r) => bySign(colour, lines[r]!.gain_minor, text),
    });
  }
  const t = v.total;
  const table = fitTable(columns, width);
  const anyInterval = lines.some((o) => o.subtotal_low_minor !== null);
  // An interval does not fit beside the rest in 80 columns: it gets its own line under its row.
  const under = (l: ValuedLine): string[] => {
    if (l.unpriced_reason !== null) return [`      ${l.unpriced_reason}`];
    if (l.subtotal_low_minor === null && !anyInterval) return [];
    const level = l.level === null ? '' : `${Math.round(l.level * 100)}% `;
    return [
      colour.dim(
        `      interval ${l.subtotal_low_minor === null ? '-' : `${level}${range(l.subtotal_low_minor, l.subtotal_high_minor)}`} (unit ${range(l.unit_low_minor, l.unit_high_minor)})`,
      ),
    ];
  };
  const out =
    lines.length > 0
      ? [...table.head, ...table.rows.flatMap((row, i) => [...row, ...under(lines[i]!)])]
      : ['no line could be valued'];
  out.push('');
  const counted = `${t.priced_lines} line${t.priced_lines === 1 ? '' : 's'} priced${t.unpriced_lines > 0 ? `, ${t.unpriced_lines} without a price (not counted)` : ''}`;
  out.push(`total:       ${formatUsd(t.value_minor)}  (${counted})`);
  out.push(
    t.low_minor === null
      ? 'interval:    - (not every priced line has one)'
      : `interval:    ${t.level === null ? '' : `${Math.round(t.level * 100)}% `}${range(t.low_minor, t.high_minor)}  (sum of the lines' intervals)`,
  );
  const inCurrency =
    t.converted && convertedFiguresLine({ ...t.converted, price_minor: t.converted.value_minor });
  if (inCurrency) out.push(`total ${inCurrency.trimStart()}`);
  if (t.cost_basis_minor !== null) {
    const gain = `${signed(t.gain_minor)}${t.gain_pct === null ? '' : ` (${t.gain_pct > 0 ? '+' : ''}${t.gain_pct.toFixed(1)}%)`}`;
    out.push(`cost basis:  ${formatUsd(t.cost_basis_minor)}  gain ${bySign(colour, t.gain_minor, gain)}`);
  }
  out.push(`as of:       ${v.at}`);
  return `${out.flatMap((l) => wrapLine(l, width)).join('\n')}\n`;
}

const CSV_COLUMNS = [
  'line',
  'product_key',
  'refsource_id',
  'condition',
  'quantity',
  'unit_price_minor',
  'unit_low_minor',
  'unit_high_minor',
  'subtotal_minor',
  'subtotal_low_minor',
  'subtotal_high_minor',
  'cost_basis_minor',
  'gain_minor',
  'product_name',
] as const;

type CsvRow = Partial<Record<(typeof CSV_COLUMNS)[number], CsvCell>>;

/** One row per valued line, then a `total` row (line column `total`) with the sums. */
export function renderValuationCsv(v: Valuation): string {
  const t = v.total;
  const totalRow: CsvRow = {
    line: 'total',
    subtotal_minor: t.value_minor,
    subtotal_low_minor: t.low_minor,
    subtotal_high_minor: t.high_minor,
    cost_basis_minor: t.cost_basis_minor,
    gain_minor: t.gain_minor,
  };
  const rows: CsvRow[] = [...v.lines, totalRow];
  return `${[CSV_COLUMNS.join(','), ...rows.map((r) => csvOutputLine(CSV_COLUMNS.map((c) => r[c])))].join('\n')}\n`;
}
