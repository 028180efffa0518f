/**
 * `oracle explain` for people: a plain summary (evidence-summary.ts), then the points (kept or
 * why not, weight, z) fitted to the terminal, then each step in words with its section of
 * docs/methodology.md; every line wrapped to the terminal's width.
 */
import type { EvidenceBody } from '../../domain/evidence.js';
import { fitColumns } from './columns.js';
import { summariseEvidence } from './evidence-summary.js';
import { formatUsd } from './money.js';
import { wrapText } from './wrap.js';

/** Reasons that cover whole runs of points (their count is shown, not each point). */
const BULK = new Set(['outside_reference_set', 'older_than_30_days']);

/** The reason's code: the text before its first colon. */
const code = (reason: string) => reason.slice(0, reason.indexOf(':'));

export function renderEvidence(ev: EvidenceBody, width: number): string {
  const lines: string[] = [];
  const say = (text: string, indent = 0) => lines.push(...wrapText(text, width, indent));
  const who = ev.id === null ? ev.product_key : `${ev.product_key} (refsource ${ev.id})`;
  say(`${who} · ${ev.slot} · as of ${ev.as_of}`);
  for (const sentence of summariseEvidence(ev)) say(`  ${sentence}`, 2);
  lines.push('');
  say(`Details: price ${ev.price_minor === null ? 'none (no_observations)' : `${formatUsd(ev.price_minor)} (${ev.price_minor} cents)`} · window ${ev.window_hours} h · outlier threshold ${ev.outlier_stddevs} sd · methodology ${ev.methodology}`, 2);
  lines.push('');
  const kept = ev.points.filter((p) => p.kept).length;
  say(`Points: ${ev.points.length} read, ${kept} kept (weight: share of its condition's estimate; z: robust z of the filter)`, 2);
  // Points left out wholesale (outside the reference set, older than 30 days) are counted, not listed: --json lists every one.
  const p = ev.points.filter((x) => x.reason === null || !BULK.has(code(x.reason)));
  if (p.length > 0) {
    lines.push(
      fitColumns(
        [
          { head: 'condition', cells: p.map((x) => x.condition), shrink: 0, min: 9 },
          { head: 'observed_at', cells: p.map((x) => x.observed_at), shrink: 0, min: 20 },
          { head: 'source', cells: p.map((x) => x.source), shrink: 2, min: 6 },
          { head: 'price', cells: p.map((x) => formatUsd(x.price_minor)), shrink: 0, min: 5, alignRight: true },
          { head: 'kept', cells: p.map((x) => (x.reason === null ? 'yes' : code(x.reason))), shrink: 1, min: 4 },
          { head: 'weight', cells: p.map((x) => x.weight.toFixed(4)), shrink: 0, min: 6, alignRight: true },
          ...(p.some((x) => x.sales_volume !== undefined)
            ? [{ head: 'volume', cells: p.map((x) => (x.sales_volume === undefined ? '' : String(x.sales_volume))), shrink: 0, min: 6, alignRight: true }]
            : []),
          { head: 'z', cells: p.map((x) => (x.z === null ? '' : `${x.z >= 0 ? '+' : ''}${x.z.toFixed(2)}`)), shrink: 0, min: 5, alignRight: true, optional: true },
        ],
        width,
      ).trimEnd(),
    );
  }
  // Why each point was left out: one line per distinct reason and condition, with how many it covers.
  const reasons = new Map<string, { condition: string; reason: string; count: number; first: string; last: string; price: number }>();
  for (const x of ev.points) {
    if (x.reason === null) continue;
    const key = `${x.condition}|${x.reason}`;
    const r = reasons.get(key);
    if (r === undefined) reasons.set(key, { condition: x.condition, reason: x.reason, count: 1, first: x.observed_at, last: x.observed_at, price: x.price_minor });
    else {
      r.count++;
      r.first = x.observed_at; // points are newest first
    }
  }
  if (reasons.size > 0) {
    lines.push('');
    lines.push('Left out:');
    for (const r of reasons.values()) {
      const span = r.count === 1 ? `${r.first} ${formatUsd(r.price)}` : `${r.count} points, ${r.first} to ${r.last}`;
      say(`  ${r.condition} ${span}: ${r.reason}`, 4);
    }
  }
  // Sales that named no product: how their title matched this one (docs/feeds.md, "Matched by title").
  const matched = ev.points.filter((x) => x.matched_by !== undefined);
  if (matched.length > 0) {
    lines.push('');
    lines.push('Matched by title:');
    for (const x of matched) say(`  ${x.condition} ${x.observed_at} ${formatUsd(x.price_minor)} ${x.source}: ${x.matched_by}`, 4);
  }
  lines.push('');
  lines.push('Steps:');
  ev.steps.forEach((s, i) => {
    say(`${String(i + 1).padStart(2)}. ${s.name}${s.condition === undefined ? '' : ` (${s.condition})`}, §${s.section}: ${s.text}`, 4);
  });
  lines.push('');
  say('Sections: docs/methodology.md (each step\'s link is in --json).');
  return `${lines.join('\n')}\n`;
}
