/**
 * `oracle sales` for people (the observations newest first, kept or why not, fitted to the
 * terminal) and as CSV (every field, the reason in full).
 */
import { csvOutputLine } from '../../domain/csv.js';
import type { EvidencePoint } from '../../domain/evidence.js';
import type { SalesBody } from '../../domain/sales.js';
import { conditionLabel } from '../../domain/conditions.js';
import { fitColumns } from './columns.js';
import { formatMinor, formatUsd } from './money.js';
import { ratesText } from './bundle-view.js';

/** A reason in a few words: its code in words, and an outlier's z (the whole reason is in --json and --csv). */
function shortReason(p: EvidencePoint): string {
  if (p.reason === null) return 'kept';
  const code = p.reason.slice(0, p.reason.indexOf(':'));
  if (code === 'outlier' && p.z !== null) return `outlier, z ${p.z >= 0 ? '+' : ''}${p.z.toFixed(2)}`;
  return code.replaceAll('_', ' ');
}

/** `2026-10-15T11:00:00Z` -> `2026-10-15 11:00`. */
const minute = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

export function renderSales(body: SalesBody, width: number): string {
  const lines: string[] = [];
  const who = body.id === null ? body.product_key : `${body.product_key} (refsource ${body.id})`;
  lines.push(`${body.product_name} · ${who}`);
  const what = body.condition === null ? 'every condition' : conditionLabel(body.condition);
  const span = body.since === null ? 'read for its price' : `since ${body.since}`;
  lines.push(`${what} · as of ${body.as_of} · ${span}`);
  const shown = body.sales.length < body.total ? `newest ${body.sales.length} of ` : '';
  const counts = `${shown}${body.total} observation${body.total === 1 ? '' : 's'}, ${body.kept} kept`;
  lines.push(`${counts} (window ${body.window_hours} h, outlier threshold ${body.outlier_stddevs} sd)`);
  const s = body.sales;
  const c = body.converted;
  if (c !== undefined && c.rate_dates.first !== null) {
    lines.push(`in ${c.currency}: each sale at the rate of its own day, ${ratesText(c)}`);
  }
  if (s.length === 0) return `${lines.join('\n')}\n`;
  const inCurrency =
    c === undefined
      ? []
      : [
          {
            head: `in ${c.currency}`,
            cells: s.map((p) =>
              p.converted_minor === undefined ? '-' : formatMinor(p.converted_minor, c.currency),
            ),
            shrink: 0,
            min: 6,
            alignRight: true,
          },
        ];
  lines.push('');
  lines.push(
    fitColumns(
      [
        { head: 'observed (UTC)', cells: s.map((p) => minute(p.observed_at)), shrink: 0, min: 16 },
        { head: 'condition', cells: s.map((p) => p.condition), shrink: 0, min: 9 },
        { head: 'source', cells: s.map((p) => p.source), shrink: 2, min: 6 },
        { head: 'price', cells: s.map((p) => formatUsd(p.price_minor)), shrink: 0, min: 5, alignRight: true },
        ...inCurrency,
        { head: 'kept or why not', cells: s.map(shortReason), shrink: 1, min: 8 },
      ],
      width,
    ).trimEnd(),
  );
  return `${lines.join('\n')}\n`;
}

const CSV_COLUMNS = [
  'observed_at',
  'condition',
  'source',
  'price_minor',
  'kept',
  'reason',
  'z',
  'weight',
  'sales_volume',
  'matched_by',
] as const;

/** One row per observation listed, newest first. */
export function renderSalesCsv(body: SalesBody): string {
  const rows = body.sales.map((p) =>
    csvOutputLine(
      CSV_COLUMNS.map((c) => {
        const v = p[c];
        return typeof v === 'boolean' ? String(v) : v;
      }),
    ),
  );
  return `${[CSV_COLUMNS.join(','), ...rows].join('\n')}\n`;
}
