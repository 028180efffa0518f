/** The home page: the search's hits (typos and word order forgiven, as `catalog --search`) and the recent movers. */
import type { MoversBody } from '../../domain/movers.js';
import type { SearchBody } from '../../service/catalog.js';
import { href, html, productHref, type Html } from './html.js';
import { renderMovers } from './movers-view.js';

function renderHits(search: SearchBody, at: string | undefined): Html {
  const correction =
    search.did_you_mean === undefined
      ? ''
      : html`<p class="note">
          No product matches “${search.q}”; showing the matches of “<strong>${search.did_you_mean}</strong>”.
        </p>`;
  if (search.products.length === 0)
    return html`${correction}
      <p>No product matches “${search.q}”.</p>`;
  return html`${correction}
    <ol class="hits">
      ${search.products.map(
        (p) =>
          html`<li>
            <a href="${productHref(p.product_key, at)}">${p.product_name}</a> <span>${p.subtitle}</span>
            <small
              >${p.set_name}${p.printing === null ? '' : ` · ${p.printing}`}${p.language === null ? '' : ` · ${p.language}`}
              · ${p.product_key}</small
            >
          </li>`,
      )}
    </ol>`;
}

export function renderHome(search: SearchBody | null, movers: MoversBody, at: string | undefined): Html {
  return html`${
      search === null
        ? ''
        : html`<section aria-labelledby="hits">
            <h2 id="hits">Products matching “${search.q}”</h2>
            ${renderHits(search, at)}
          </section>`
    }
    <section aria-labelledby="movers">
      <h2 id="movers">Recent movers</h2>
      ${renderMovers(movers, at)}
      <p><a href="${href('/movers', { at })}">More movers, other spans and grades</a></p>
    </section>
    <section aria-labelledby="indexes">
      <h2 id="indexes">Market indexes</h2>
      <p>
        How a set, an era, a grade or a list of cards moved:
        <a href="${href('/indexes', { at })}">the market indexes</a>, each with its chart and what moved it.
      </p>
    </section>`;
}
