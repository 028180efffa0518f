/** `oracle movers` for people: the gainers, then the losers, each a table fitted to the terminal. */
import { conditionLabel } from '../../domain/conditions.js';
import type { Mover, MoversBody } from '../../domain/movers.js';
import { fitColumns } from './columns.js';
import { formatMinor, formatUsd } from './money.js';
import { ratesText } from './bundle-view.js';

// The sign is the change's, which a rounded percent may not show (+0.0%).
const pct = (m: Pick<Mover, 'change_minor' | 'change_pct'>) =>
  `${m.change_minor > 0 ? '+' : m.change_minor < 0 ? '-' : '±'}${Math.abs(m.change_pct).toFixed(1)}%`;

/** `€12.00 +4.3%`: where the move ended in the currency and by how much it moved in it. */
function inCurrency(m: Mover, currency: string): string {
  return m.converted == null ? '-' : `${formatMinor(m.converted.to_minor, currency)} ${pct(m.converted)}`;
}

function table(movers: readonly Mover[], width: number, currency: string | undefined): string {
  return fitColumns(
    [
      // The key is what a user copies into `oracle price`: never cut. In a narrow terminal the name
      // gives way first (cut, then left out), then the price the move started from; the change stays.
      { head: 'product key', cells: movers.map((m) => m.product_key), shrink: 0, min: 11 },
      { head: 'name', cells: movers.map((m) => m.product_name), shrink: 1, min: 8, lastResort: 1 },
      {
        head: 'from',
        cells: movers.map((m) => formatUsd(m.from_minor)),
        shrink: 0,
        min: 4,
        alignRight: true,
        lastResort: 2,
      },
      { head: 'to', cells: movers.map((m) => formatUsd(m.to_minor)), shrink: 0, min: 2, alignRight: true },
      { head: 'change', cells: movers.map(pct), shrink: 0, min: 6, alignRight: true },
      ...(currency === undefined
        ? []
        : [
            {
              head: `in ${currency}`,
              cells: movers.map((m) => inCurrency(m, currency)),
              shrink: 0,
              min: 6,
              alignRight: true,
            },
          ]),
      {
        head: 'sales',
        cells: movers.map((m) => m.observations.toLocaleString('en-US')),
        shrink: 0,
        min: 5,
        alignRight: true,
        optional: true,
      },
    ],
    width,
  ).trimEnd();
}

export function renderMovers(body: MoversBody, width: number): string {
  const lines = [
    `Movers of ${conditionLabel(body.condition)} over ${body.span}: ${body.from} -> ${body.to}`,
    `${body.candidates} product${body.candidates === 1 ? '' : 's'} with at least ${body.min_observations} observations in the span, ${body.priced} priced at both ends`,
  ];
  const c = body.converted;
  if (c !== undefined && c.rate_dates.first !== null) {
    lines.push(
      `in ${c.currency}: each observation at the rate of its own day, ${ratesText(c)} (ranked by the move in US dollars)`,
    );
  }
  for (const [title, list] of [
    ['Gainers', body.gainers],
    ['Losers', body.losers],
  ] as const) {
    lines.push('', title);
    lines.push(list.length === 0 ? '  none' : table(list, width, c?.currency));
  }
  return `${lines.join('\n')}\n`;
}
