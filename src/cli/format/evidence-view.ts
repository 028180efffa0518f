/**
 * `oracle explain` for people: a plain summary (evidence-summary.ts), then the points (kept or
 * why not, weight, z) fitted to the terminal (points left out dimmed), then each step in words
 * with its section of docs/methodology.md; every line wrapped to the terminal's width.
 */
import type { ExplainedEvidence } from '../../domain/evidence.js';
import { convertedFiguresLine } from './bundle-view.js';
import { fitColumns, type Column } from './columns.js';
import { summariseEvidence } from './evidence-summary.js';
import { formatUsd } from './money.js';
import { joinWrapped, wrapText, type Terminal } from './terminal.js';

/** Reasons that cover whole runs of points (their count is shown, not each point). */
const BULK = new Set(['outside_reference_set', 'older_than_30_days']);

/** The reason's code: the text before its first colon. */
const code = (reason: string) => reason.slice(0, reason.indexOf(':'));

export function renderEvidence(ev: ExplainedEvidence, terminal: Terminal): string {
  const { width, colour } = terminal;
  const lines: string[] = [];
  const who = ev.id === null ? ev.product_key : `${ev.product_key} (refsource ${ev.id})`;
  lines.push(...joinWrapped([who, ev.slot, `as of ${ev.as_of}`], ' · ', width));
  for (const sentence of summariseEvidence(ev)) lines.push(`  ${sentence}`);
  lines.push('');
  lines.push(
    ...joinWrapped(
      [
        `Details: price ${ev.price_minor === null ? 'none (no_observations)' : `${formatUsd(ev.price_minor)} (${ev.price_minor} cents)`}`,
        `window ${ev.window_hours} h`,
        `outlier threshold ${ev.outlier_stddevs} sd`,
        `methodology ${ev.methodology}`,
      ],
      ' · ',
      width,
    ),
  );
  const converted = convertedFiguresLine(ev.converted);
  if (converted !== null) lines.push(converted.trimStart());
  lines.push('');
  const kept = ev.points.filter((p) => p.kept).length;
  lines.push(
    `Points: ${ev.points.length} read, ${kept} kept (weight: share of its condition's estimate; z: robust z of the filter)`,
  );
  // Points left out wholesale (outside the reference set, older than 30 days) are counted, not listed: --json lists every one.
  const p = ev.points.filter((x) => x.reason === null || !BULK.has(code(x.reason)));
  if (p.length > 0) {
    const columns: Column[] = [
      { head: 'condition', cells: p.map((x) => x.condition), shrink: 0, min: 9 },
      { head: 'observed_at', cells: p.map((x) => x.observed_at), shrink: 0, min: 20 },
      { head: 'source', cells: p.map((x) => x.source), shrink: 2, min: 6, lastResort: 1 },
      { head: 'price', cells: p.map((x) => formatUsd(x.price_minor)), shrink: 0, min: 5, alignRight: true },
      { head: 'kept', cells: p.map((x) => (x.reason === null ? 'yes' : code(x.reason))), shrink: 1, min: 4 },
      { head: 'weight', cells: p.map((x) => x.weight.toFixed(4)), shrink: 0, min: 6, alignRight: true },
      ...(p.some((x) => x.sales_volume !== undefined)
        ? [
            {
              head: 'volume',
              cells: p.map((x) => (x.sales_volume === undefined ? '' : String(x.sales_volume))),
              shrink: 0,
              min: 6,
              alignRight: true,
            },
          ]
        : []),
      {
        head: 'z',
        cells: p.map((x) => (x.z === null ? '' : `${x.z >= 0 ? '+' : ''}${x.z.toFixed(2)}`)),
        shrink: 0,
        min: 5,
        alignRight: true,
        optional: true,
      },
    ];
    const dimLeftOut = (text: string, row: number) => (p[row]!.reason === null ? text : colour.dim(text));
    lines.push(
      fitColumns(
        columns.map((c) => ({ ...c, paint: dimLeftOut })),
        width,
      ).trimEnd(),
    );
  }
  // Why each point was left out: one line per distinct reason and condition, with how many it covers.
  const reasons = new Map<
    string,
    { condition: string; reason: string; count: number; first: string; last: string; price: number }
  >();
  for (const x of ev.points) {
    if (x.reason === null) continue;
    const key = `${x.condition}|${x.reason}`;
    const r = reasons.get(key);
    if (r === undefined)
      reasons.set(key, {
        condition: x.condition,
        reason: x.reason,
        count: 1,
        first: x.observed_at,
        last: x.observed_at,
        price: x.price_minor,
      });
    else {
      r.count++;
      r.first = x.observed_at; // points are newest first
    }
  }
  if (reasons.size > 0) {
    lines.push('');
    lines.push('Left out:');
    for (const r of reasons.values()) {
      const span =
        r.count === 1 ? `${r.first} ${formatUsd(r.price)}` : `${r.count} points, ${r.first} to ${r.last}`;
      lines.push(`  ${r.condition} ${span}: ${r.reason}`);
    }
  }
  // Sales that named no product: how their title matched this one (docs/feeds.md, "Matched by title").
  const matched = ev.points.filter((x) => x.matched_by !== undefined);
  if (matched.length > 0) {
    lines.push('');
    lines.push('Matched by title:');
    for (const x of matched)
      lines.push(
        `  ${x.condition} ${x.observed_at} ${formatUsd(x.price_minor)} ${x.source}: ${x.matched_by}`,
      );
  }
  lines.push('');
  lines.push('Steps:');
  ev.steps.forEach((s, i) => {
    lines.push(
      `${String(i + 1).padStart(2)}. ${s.name}${s.condition === undefined ? '' : ` (${s.condition})`}, §${s.section}: ${s.text}`,
    );
  });
  lines.push('');
  lines.push("Sections: docs/methodology.md (each step's link is in --json).");
  return wrapText(`${lines.join('\n')}\n`, width);
}
