/**
 * The evidence of one slot, as `oracle explain` and `oracle sales` give it: each step from the
 * observations to the published price, then every observation read, with its source, date, and
 * whether it was kept or why not.
 */
import type { EvidenceBody, EvidencePoint } from '../../domain/evidence.js';
import type { SalesBody } from '../../domain/sales.js';
import { conditionLabel } from '../../domain/conditions.js';
import { html, productHref, usd, type Html } from './html.js';

function pointRows(points: readonly EvidencePoint[]): Html {
  if (points.length === 0)
    return html`<tr>
      <td colspan="5">no observations</td>
    </tr>`;
  return html`${points.map(
    (p) =>
      html`<tr class="${p.kept ? 'kept' : 'left-out'}">
        <td>${p.observed_at.replace('T', ' ').replace('Z', '')}</td>
        <td>${conditionLabel(p.condition)}</td>
        <td>${p.source}</td>
        <td class="num">${usd(p.price_minor)}</td>
        <td>
          ${p.kept ? `kept, weight ${p.weight.toFixed(3)}` : `left out: ${(p.reason ?? '').replaceAll('_', ' ')}`}
        </td>
      </tr>`,
  )}`;
}

function pointTable(caption: string, points: readonly EvidencePoint[]): Html {
  return html`<div class="scroll">
    <table class="points">
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          <th scope="col">Observed (UTC)</th>
          <th scope="col">Grade</th>
          <th scope="col">Source</th>
          <th scope="col" class="num">Price</th>
          <th scope="col">Kept?</th>
        </tr>
      </thead>
      <tbody>
        ${pointRows(points)}
      </tbody>
    </table>
  </div>`;
}

export function renderEvidence(evidence: EvidenceBody, sales: SalesBody, at: string | undefined): Html {
  const kept = evidence.points.filter((p) => p.kept).length;
  return html`<p>
      <a href="${productHref(evidence.product_key, at)}">${sales.product_name}</a>,
      ${conditionLabel(evidence.slot)}:
      <strong class="price" data-slot="${evidence.slot}">${usd(evidence.price_minor)}</strong>, from ${kept}
      of ${evidence.points.length} observations (${evidence.methodology}, window ${evidence.window_hours} h).
    </p>
    <section aria-labelledby="steps">
      <h2 id="steps">From the observations to the price</h2>
      <ol class="steps">
        ${evidence.steps.map(
          (s) =>
            html`<li>
              <strong>${s.name.replaceAll('_', ' ')}</strong
              >${s.value_minor == null ? '' : html` <span class="num">${usd(s.value_minor)}</span>`}:
              ${s.text} <small>(methodology ${s.section})</small>
            </li>`,
        )}
      </ol>
    </section>
    <section aria-labelledby="read">
      <h2 id="read">Observations the price read</h2>
      ${pointTable(`${evidence.points.length} observations, newest first`, evidence.points)}
    </section>
    <section aria-labelledby="sales">
      <h2 id="sales">Recent sales and quotes of this grade</h2>
      ${pointTable(`${sales.sales.length} of ${sales.total} observations, ${sales.kept} kept`, sales.sales)}
    </section>`;
}
