/**
 * A collection's value, `oracle value`'s lines and totals and `oracle value --history`'s
 * series, from a CSV pasted (or read from a file by the page's script) into a GET form: the
 * text travels in the URL, nothing is kept on the server.
 */
import type { Valuation } from '../../service/valuation.js';
import type { ValuationHistory } from '../../service/valuation-history.js';
import { conditionLabel } from '../../domain/conditions.js';
import { renderChart } from './chart-view.js';
import { html, productHref, usd, type Html } from './html.js';

/** The form, with the text asked about. */
export function renderValueForm(csv: string, at: string | undefined, maxLines: number): Html {
  return html`<form class="value-form" method="get" action="/value">
    ${at === undefined ? '' : html`<input type="hidden" name="at" value="${at}" />`}
    <p>
      A CSV with a header: <code>product_key</code> and/or <code>refsource_id</code>, <code>condition</code>,
      <code>quantity</code>, and optionally <code>cost_basis</code> (dollars) or
      <code>cost_basis_minor</code> (cents), as <code>oracle value</code> reads it; at most ${maxLines} lines.
      Nothing is stored.
    </p>
    <label for="csv">Collection CSV</label>
    <textarea id="csv" name="csv" rows="8" spellcheck="false">${csv}</textarea>
    <label for="csv-file" class="file">Or read a file</label>
    <input id="csv-file" type="file" accept=".csv,text/csv" data-into="csv" />
    <button type="submit">Value it</button>
  </form>`;
}

const gainClass = (gain: number | null) => (gain === null ? '' : gain >= 0 ? 'up' : 'down');

export function renderValuation(
  valuation: Valuation,
  history: ValuationHistory,
  at: string | undefined,
): Html {
  const t = valuation.total;
  const problems =
    valuation.problems.length === 0
      ? ''
      : html`<div class="problems" role="alert">
          <h2>Lines not valued</h2>
          <ul>
            ${valuation.problems.map((p) => html`<li>line ${p.line}: ${p.reason}</li>`)}
          </ul>
        </div>`;
  return html`${problems}
    <section aria-labelledby="total">
      <h2 id="total">Total</h2>
      <p class="total">
        <strong class="price" data-total="value">${usd(t.value_minor)}</strong>${
          t.low_minor === null ? '' : html` <small>80 %: ${usd(t.low_minor)} – ${usd(t.high_minor)}</small>`
        }
      </p>
      <p>
        ${t.priced_lines} lines priced, ${t.unpriced_lines} without a price. Cost basis
        ${usd(t.cost_basis_minor)}, gain
        <span class="${gainClass(t.gain_minor)}"
          >${usd(t.gain_minor)}${t.gain_pct === null ? '' : ` (${t.gain_pct} %)`}</span
        >.
      </p>
    </section>
    <section aria-labelledby="lines">
      <h2 id="lines">Lines</h2>
      <div class="scroll">
        <table class="lines">
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Product</th>
              <th scope="col">Grade</th>
              <th scope="col" class="num">Qty</th>
              <th scope="col" class="num">Unit</th>
              <th scope="col" class="num">Subtotal</th>
              <th scope="col">80 %</th>
              <th scope="col" class="num">Cost</th>
              <th scope="col" class="num">Gain</th>
            </tr>
          </thead>
          <tbody>
            ${valuation.lines.map(
              (l) =>
                html`<tr>
                  <td>${l.line}</td>
                  <td><a href="${productHref(l.product_key, at)}">${l.product_name}</a></td>
                  <td>${conditionLabel(l.condition)}</td>
                  <td class="num">${l.quantity}</td>
                  <td class="num">
                    ${l.unit_price_minor === null ? (l.unpriced_reason ?? '–') : usd(l.unit_price_minor)}
                  </td>
                  <td class="num" data-line="${l.line}">${usd(l.subtotal_minor)}</td>
                  <td>
                    ${l.subtotal_low_minor === null ? '–' : `${usd(l.subtotal_low_minor)} – ${usd(l.subtotal_high_minor)}`}
                  </td>
                  <td class="num">${usd(l.cost_basis_minor)}</td>
                  <td class="num ${gainClass(l.gain_minor)}">${usd(l.gain_minor)}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </section>
    <section aria-labelledby="over-time">
      <h2 id="over-time">Value over time</h2>
      <p>
        From ${history.from} to ${history.to}, every
        ${history.every}${history.change_minor === null ? '' : `: ${history.change_minor >= 0 ? '+' : ''}${usd(history.change_minor)} (${history.change_pct} %)`}.
      </p>
      ${renderChart(
        {
          label: 'value',
          unit: 'usd',
          t: history.points.map((p) => Date.parse(p.at) / 1000),
          price: history.points.map((p) => p.value_minor),
          low: [],
          high: [],
        },
        'The collection\u2019s value',
      )}
    </section>`;
}
