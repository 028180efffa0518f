/**
 * The analyst's view of a pricing bundle: the ungraded price, the grader x grade matrix in
 * dollars with the points used, fallback and sparse cells marked, the window and methodology.
 */
import type { PricingBundle, Slot } from '../../domain/bundle.js';
import { GRADERS, MATRIX_GRADES, POOLED_GRADER } from '../../domain/conditions.js';
import { HOUR_MS, toIsoUtc } from '../../domain/time.js';
import { variantWords } from './identity.js';
import { formatUsd } from './money.js';

const SPARSE_MARK = '~';
const FALLBACK_MARK = '*';
const STALE_MARK = '!';

interface Confidence {
  level: number;
  low_minor: number;
  high_minor: number;
}

/** The 80 % interval as ±% of the price: half its width, so "±8%" reads "within about 8 %". */
function spread(slot: Slot): string {
  const c = slot.meta.confidence as Confidence | undefined;
  if (c === undefined || slot.price_minor === null) return '';
  return ` ±${Math.round(((c.high_minor - c.low_minor) / 2 / slot.price_minor) * 100)}%`;
}

/** One cell: "$1,950.00 ±8% (12)", then ~ (window extended), * (fallback tier), ! (stale). */
function cell(slot: Slot): string {
  if (slot.price_minor === null) return slot.error ?? '-';
  const marks =
    (slot.meta.twap_sparse_window_extended === true ? SPARSE_MARK : '') +
    (typeof slot.meta.oracle_fallback_tier === 'string' ? FALLBACK_MARK : '') +
    (slot.meta.stale === true ? STALE_MARK : '');
  return `${formatUsd(slot.price_minor)}${spread(slot)} (${slot.included_points})${marks}`;
}

function describeSlot(slot: Slot): string {
  const parts = [`${slot.included_points} points used, ${slot.excluded_points} excluded`];
  const c = slot.meta.confidence as Confidence | undefined;
  if (c !== undefined) parts.push(`80 %: ${formatUsd(c.low_minor)} - ${formatUsd(c.high_minor)}`);
  if (typeof slot.meta.newest_observation_at === 'string') {
    parts.push(`newest ${slot.meta.newest_observation_at}${slot.meta.stale === true ? ' (STALE)' : ''}`);
  }
  if (slot.meta.twap_sparse_window_extended === true) parts.push('window extended');
  if (typeof slot.meta.oracle_fallback_tier === 'string') parts.push(`fallback: ${slot.meta.oracle_fallback_tier}`);
  return parts.join('; ');
}

/**
 * The extra grades (`--extra-grades`, CONTRACT.md additions 6), one a line in the bundle's
 * order: label, price, ±%, points and marks as in the matrix, then the newest sale's date.
 */
function extraGradeLines(bundle: PricingBundle): string[] {
  const slots = Object.values(bundle.extra_grades ?? {}).flatMap((grades) => Object.values(grades));
  if (slots.length === 0) return ['Extra grades: none has an observation of its own in the 30 days'];
  const labels = slots.map((s) => `${s.company} ${s.grade}`);
  const width = Math.max(...labels.map((l) => l.length));
  const cells = slots.map(cell);
  const cellWidth = Math.max(...cells.map((c) => c.length));
  const lines = [
    'Extra grades (own sales only, no fallback; absent without data):',
    ...slots.map((s, i) => {
      const newest = typeof s.meta.newest_observation_at === 'string' ? `  newest ${s.meta.newest_observation_at.slice(0, 10)}` : '';
      return `  ${labels[i]!.padEnd(width)}  ${cells[i]!.padStart(cellWidth)}${newest}`;
    }),
  ];
  if (slots.some((s) => s.company === POOLED_GRADER)) lines.push(`  ${POOLED_GRADER}: any grader, pooled (a price guide's grade column)`);
  return lines;
}

export async function renderBundle(bundle: PricingBundle): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const m = bundle.metadata;
  const lines: string[] = [];
  lines.push(`${m.product_name}${m.subtitle ? ` - ${m.subtitle}` : ''}${variantWords(m)}`);
  lines.push(
    `${bundle.product_key}${bundle.id ? ` (refsource ${bundle.id})` : ''} | ${m.set_name} | ${m.product_type} | ${m.era}` +
      (m.release_date ? ` | released ${m.release_date}` : '') +
      (m.tcgplayer_id ? ` | tcgplayer ${m.tcgplayer_id}` : ''),
  );
  lines.push('');
  const u = bundle.ungraded;
  lines.push(`Ungraded: ${u.price_minor === null ? (u.error ?? '-') : formatUsd(u.price_minor)}  (${describeSlot(u)})`);
  const sources = u.meta.source_counts as Record<string, number> | undefined;
  if (sources && Object.keys(sources).length > 0) {
    lines.push(`  sources: ${Object.entries(sources).map(([s, n]) => `${s} ${n}`).join(', ')}`);
  }
  lines.push('');

  const table = new Table({
    head: ['', ...MATRIX_GRADES.map((g) => `grade ${g}`)],
    colAligns: ['left', 'right', 'right', 'right', 'right'],
    style: { head: [], border: [] },
  });
  for (const grader of GRADERS) {
    table.push([grader, ...MATRIX_GRADES.map((g) => cell(bundle.graded[grader][String(g) as '7'])) ]);
  }
  lines.push(table.toString());
  lines.push(
    `±% half the 80 % interval (meta.confidence)   (n) points used   ${SPARSE_MARK} sparse: window extended (up to 30 days)\n` +
      `${FALLBACK_MARK} priced by a fallback tier (meta.oracle_fallback_tier)   ${STALE_MARK} stale: newest observation older than 7 days`,
  );
  if (bundle.extra_grades !== undefined) lines.push(...extraGradeLines(bundle), '');
  const requested = toIsoUtc(Date.parse(u.window_end) - bundle.window_hours * HOUR_MS);
  const read = u.price_minor !== null && u.window_start !== requested ? `; ungraded read from ${u.window_start}` : '';
  lines.push(`window:      ${requested} -> ${u.window_end} (${bundle.window_hours} h requested${read})`);
  lines.push(`outliers:    beyond ${bundle.outlier_stddevs} robust standard deviations excluded`);
  lines.push(`methodology: ${u.methodology} (docs/methodology.md)`);
  return `${lines.join('\n')}\n`;
}
