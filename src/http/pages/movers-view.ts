/** The movers' tables (home page and movers page): the body of the movers route, in dollars. */
import type { Mover, MoversBody } from '../../domain/movers.js';
import { html, productHref, usd, type Html } from './html.js';

const signed = (pct: number) => `${pct > 0 ? '+' : ''}${pct.toFixed(1)} %`;

function moverRows(movers: readonly Mover[], at: string | undefined): Html {
  if (movers.length === 0)
    return html`<tr>
      <td colspan="4">none</td>
    </tr>`;
  return html`${movers.map(
    (m) =>
      html`<tr>
        <td>
          <a href="${productHref(m.product_key, at)}">${m.product_name}</a><br /><small>${m.set_name}</small>
        </td>
        <td class="num">${usd(m.from_minor)}</td>
        <td class="num">${usd(m.to_minor)}</td>
        <td class="num ${m.change_pct >= 0 ? 'up' : 'down'}">${signed(m.change_pct)}</td>
      </tr>`,
  )}`;
}

function moverTable(caption: string, movers: readonly Mover[], at: string | undefined): Html {
  return html`<div class="scroll">
    <table class="movers">
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          <th scope="col">Product</th>
          <th scope="col" class="num">Before</th>
          <th scope="col" class="num">Now</th>
          <th scope="col" class="num">Change</th>
        </tr>
      </thead>
      <tbody>
        ${moverRows(movers, at)}
      </tbody>
    </table>
  </div>`;
}

/** Gainers, then losers, of one slot over the body's span. */
export function renderMovers(body: MoversBody, at: string | undefined): Html {
  return html`<p>
      ${body.condition}, ${body.from} to ${body.to}: ${body.priced} of ${body.candidates} products with at
      least ${body.min_observations} observations in the span priced at both ends.
    </p>
    ${moverTable(`Largest rises over ${body.span}`, body.gainers, at)}
    ${moverTable(`Largest falls over ${body.span}`, body.losers, at)}`;
}
