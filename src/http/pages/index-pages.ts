/**
 * The market index pages (docs/indexes.md): the definitions with each one's latest value, and
 * one index's values as a chart with their interval as a band, its rulebook's terms (what picks
 * the members, the slot, the method, the base date) and the members that moved it most.
 */
import { conditionLabel } from '../../domain/conditions.js';
import type { IndexBody, IndexDefinitionBody } from '../../service/market-index.js';
import { points, renderChart } from './chart-view.js';
import { href, html, Html, productHref } from './html.js';
import { CHART_RANGES, type ChartRange } from './product-page.js';

const SELECTED = new Html(' selected');

export const indexHref = (name: string, at: string | undefined, range?: ChartRange): string =>
  href(`/indexes/${encodeURIComponent(name)}`, { at, range });

const members = (d: IndexDefinitionBody) => `${d.selector.replaceAll('_', ' ')} ${d.selector_value}`;
const signed = (pct: number | null) => (pct === null ? '–' : `${pct > 0 ? '+' : ''}${pct.toFixed(1)} %`);
const day = (iso: string) => iso.slice(0, 10);

/** One definition's row: its latest value (null before its base date) with interval and members priced. */
function listRow(d: IndexDefinitionBody, latest: IndexBody | null, at: string | undefined): Html {
  const last = latest?.points.at(-1);
  return html`<tr>
    <th scope="row"><a href="${indexHref(d.name, at)}">${d.name}</a></th>
    <td>${d.label}<small>${members(d)}, ${conditionLabel(d.slot)}</small></td>
    <td>${d.method}<small>base ${d.base_date} = ${d.base_value}</small></td>
    ${
      last === undefined
        ? html`<td class="num" colspan="2">not started: base date ${d.base_date}</td>`
        : html`<td class="num">
              <span data-index="${d.name}">${points(last.value)}</span
              ><small>${points(last.low)} – ${points(last.high)}, ${day(last.at)}</small>
            </td>
            <td class="num" data-priced="${d.name}">${last.priced} of ${latest!.members}</td>`
    }
  </tr>`;
}

export function renderIndexList(
  rows: readonly { definition: IndexDefinitionBody; latest: IndexBody | null }[],
  every: string,
  at: string | undefined,
): Html {
  if (rows.length === 0)
    return html`<p>No index is defined: <code>oracle index add</code> defines one (docs/indexes.md).</p>`;
  return html`<div class="scroll">
      <table class="indexes">
        <caption>
          Market indexes, 1000 at their base date, chained every ${every}
        </caption>
        <thead>
          <tr>
            <th scope="col">Index</th>
            <th scope="col">Label, members from, slot</th>
            <th scope="col">Method</th>
            <th scope="col" class="num">Latest value (80 % interval)</th>
            <th scope="col" class="num">Members priced</th>
          </tr>
        </thead>
        <tbody>
          ${rows.map((r) => listRow(r.definition, r.latest, at))}
        </tbody>
      </table>
    </div>
    <p class="legend">
      Members priced: of the products that were members at any rebalance up to the latest value, those with a
      price of their own at it (the others are carried). Each index is computed from its base date by the
      published rulebook, <a href="/api/v1/openapi.json">the API</a>'s <code>indexes</code> routes.
    </p>`;
}

function rangeForm(range: ChartRange, at: string | undefined): Html {
  return html`<form class="chart-form" method="get">
    ${at === undefined ? '' : html`<input type="hidden" name="at" value="${at}" />`}
    <label for="range">Range</label>
    <select id="range" name="range">
      ${Object.entries(CHART_RANGES).map(
        ([r, { every }]) =>
          html`<option value="${r}" ${r === range ? SELECTED : ''}>${r}, every ${every}</option>`,
      )}
    </select>
    <button type="submit">Show</button>
  </form>`;
}

function contributors(body: IndexBody, at: string | undefined): Html {
  if (body.top_contributors.length === 0) return html`<p>No member moved it over the span.</p>`;
  return html`<div class="scroll">
    <table class="contributors">
      <caption>
        Top contributors, ${day(body.from)} to ${day(body.to)}
      </caption>
      <thead>
        <tr>
          <th scope="col">Member</th>
          <th scope="col" class="num">Contribution</th>
        </tr>
      </thead>
      <tbody>
        ${body.top_contributors.map(
          (c) =>
            html`<tr>
              <td>
                <a href="${productHref(c.product_key, at)}">${c.product_name}</a
                ><small>${c.product_key}</small>
              </td>
              <td class="num ${c.contribution_pct >= 0 ? 'up' : 'down'}" data-contributor="${c.product_key}">
                ${signed(c.contribution_pct)}
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

export function renderIndex(body: IndexBody, range: ChartRange, at: string | undefined): Html {
  const last = body.points.at(-1)!;
  return html`<section aria-labelledby="rules">
      <h2 id="rules">${body.label}</h2>
      <dl>
        <dt>Members from</dt>
        <dd>${members(body)}: ${body.members} products were members up to ${day(body.to)}</dd>
        <dt>Slot</dt>
        <dd>${conditionLabel(body.slot)}</dd>
        <dt>Method</dt>
        <dd>${body.method} (<code>docs/methodology.md</code> §17)</dd>
        <dt>Base</dt>
        <dd>${body.base_value} on ${body.base_date}</dd>
        <dt>Latest</dt>
        <dd>
          <span data-index="${body.name}">${points(last.value)}</span> on ${day(last.at)}, 80 % interval
          ${points(last.low)} – ${points(last.high)}; ${last.priced} members priced, ${last.linked} linked
        </dd>
        <dt>Change</dt>
        <dd data-change="${body.name}">${signed(body.change_pct)} from ${day(body.from)}</dd>
      </dl>
    </section>
    <section aria-labelledby="values">
      <h2 id="values">Values</h2>
      ${rangeForm(range, at)}
      ${renderChart(
        {
          label: body.name,
          unit: 'points',
          t: body.points.map((p) => Date.parse(p.at) / 1000),
          price: body.points.map((p) => p.value),
          low: body.points.map((p) => p.low),
          high: body.points.map((p) => p.high),
        },
        `${body.label}, the last ${range}, every ${body.every}`,
      )}
    </section>
    <section aria-labelledby="contributors">
      <h2 id="contributors">What moved it</h2>
      ${contributors(body, at)}
      <p class="legend">
        Each member's capped share of the index's move over the span shown (ln × 100, about percent points).
      </p>
    </section>`;
}
