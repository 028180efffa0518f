/** `oracle index show` for people (the index charted, its change, interval and top contributors) and as CSV. */
import type { IndexBody } from '../../service/market-index.js';
import { priceChart } from './history-view.js';
import { joinWrapped, wrapText, type Terminal } from './terminal.js';

const level = (x: number) => x.toFixed(2);
const pct = (x: number) => `${x > 0 ? '+' : ''}${x.toFixed(1)}%`;

export function renderIndex(body: IndexBody, terminal: Terminal): string {
  const points = body.points;
  // The title breaks between its parts, as `price`'s identity line does, to fit the terminal.
  const lines = [
    ...joinWrapped(
      [
        `${body.label} (${body.name}):`,
        `${body.selector} ${body.selector_value},`,
        `${body.slot},`,
        `${body.method},`,
        `${body.base_value} at ${body.base_date}`,
      ],
      ' ',
      terminal.width,
    ),
    ...joinWrapped(
      [
        `${body.from} -> ${body.to}`,
        `every ${body.every},`,
        `${body.members} member${body.members === 1 ? '' : 's'}`,
      ],
      ' ',
      terminal.width,
    ),
    '',
  ];
  const chart = priceChart(
    points.map((p) => p.value),
    points.map((p) => p.at),
    terminal,
    level,
  );
  lines.push(...(chart ?? ['  one point: nothing to draw']));
  const first = points[0]!;
  const last = points.at(-1)!;
  const of = (p: typeof first) =>
    `${level(p.value)} (${level(p.low)}-${level(p.high)}) ${p.at.slice(0, 10)}, ${p.priced} priced, ${p.version === null ? 'not published' : `version ${p.version}`}`;
  lines.push('', `first:   ${of(first)}`, `last:    ${of(last)}`);
  const published = points.filter((p) => p.version !== null);
  if (published.length > 0) {
    const restated = published.filter((p) => p.version! > 1).length;
    lines.push(
      `published: ${published.length} of ${points.length} points (${restated} restated), the rest computed now`,
    );
  }
  if (body.change_pct !== null) lines.push(`change:  ${pct(body.change_pct)}`);
  if (body.top_contributors.length > 0) {
    lines.push('', 'top contributors (share of the move, points of %):');
    for (const c of body.top_contributors)
      lines.push(`  ${pct(c.contribution_pct).padStart(7)}  ${c.product_key}  ${c.product_name}`);
  }
  return wrapText(`${lines.join('\n')}\n`, terminal.width);
}

/** One row per instant: `at,value,low,high,priced,linked,version` (version empty: not published). */
export function renderIndexCsv(body: IndexBody): string {
  return `${['at,value,low,high,priced,linked,version', ...body.points.map((p) => `${p.at},${p.value},${p.low},${p.high},${p.priced},${p.linked},${p.version ?? ''}`)].join('\n')}\n`;
}
