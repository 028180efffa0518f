/** The movers page's choice of span and grade: a GET form, so it works without a script. */
import type { MoversBody } from '../../domain/movers.js';
import { conditionLabel } from '../../domain/conditions.js';
import { SLOT_KEYS } from '../../domain/history.js';
import { html, Html } from './html.js';

const SPANS = ['24h', '7d', '30d', '90d'] as const;
const SELECTED = new Html(' selected');

export function moversForm(body: MoversBody, at: string | undefined): Html {
  const spans = SPANS.includes(body.span as (typeof SPANS)[number]) ? SPANS : [...SPANS, body.span];
  return html`<form class="filters" method="get" action="/movers">
    ${at === undefined ? '' : html`<input type="hidden" name="at" value="${at}" />`}
    <label for="span">Over</label>
    <select id="span" name="span">
      ${spans.map((s) => html`<option value="${s}" ${s === body.span ? SELECTED : ''}>${s}</option>`)}
    </select>
    <label for="condition">Grade</label>
    <select id="condition" name="condition">
      ${SLOT_KEYS.map(
        (c) =>
          html`<option value="${c}" ${c === body.condition ? SELECTED : ''}>${conditionLabel(c)}</option>`,
      )}
    </select>
    <button type="submit">Show</button>
  </form>`;
}
