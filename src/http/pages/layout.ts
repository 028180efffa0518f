/**
 * The frame every page shares: a search box first (the first stop of Tab after the skip link),
 * the links between the pages, the `at` the figures are as of, and the page's JSON twins (the
 * API routes that answer the same figures, datasette's `.json`).
 */
import { html, Html } from './html.js';

export interface Frame {
  title: string;
  /** The API routes with this page's figures, by what each holds. */
  twins: readonly { label: string; href: string }[];
  /** The `at` of the request, kept in the search form and shown. */
  at?: string;
  /** Whether a signed-in key is behind the request (a sign-out button), false in `--public` mode without one. */
  signedIn: boolean;
  /** The search box's text. */
  q?: string;
  /** Scripts the page needs (the chart's), served by this server. */
  scripts?: readonly string[];
}

const NAV = [
  ['/', 'Home'],
  ['/movers', 'Movers'],
  ['/indexes', 'Indexes'],
  ['/value', 'Collection value'],
  ['/watches', 'Watches'],
] as const;

export function renderPage(frame: Frame, body: Html): string {
  const styles =
    (frame.scripts ?? []).length > 0 ? html`<link rel="stylesheet" href="/assets/uPlot.min.css" />` : '';
  return `<!doctype html>\n${
    html`<html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${frame.title} · oracle</title>
        <link rel="stylesheet" href="/assets/web.css" />
        ${styles}
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header>
          <form class="search" action="/" method="get" role="search">
            <label for="q">Search the catalog</label>
            <input
              id="q"
              name="q"
              type="search"
              value="${frame.q ?? ''}"
              placeholder="charizard 4/102"
              autocomplete="off"
            />
            ${frame.at === undefined ? '' : html`<input type="hidden" name="at" value="${frame.at}" />`}
            <button type="submit">Search</button>
          </form>
          <nav aria-label="Pages">
            <ul>
              ${NAV.map(([path, label]) => html`<li><a href="${path}">${label}</a></li>`)}
            </ul>
            ${
              frame.signedIn
                ? html`<form action="/sign-out" method="post" class="sign-out">
                    <button type="submit">Sign out</button>
                  </form>`
                : ''
            }
          </nav>
        </header>
        <main id="main">
          <h1>${frame.title}</h1>
          ${frame.at === undefined ? '' : html`<p class="as-of">As of <time>${frame.at}</time></p>`} ${body}
        </main>
        <footer>
          ${
            frame.twins.length === 0
              ? ''
              : html`<p>
                  The same figures as JSON:
                  ${frame.twins.map(
                    (t, i) => html`${i > 0 ? ', ' : ''}<a href="${t.href}" class="twin">${t.label}</a>`,
                  )}
                </p>`
          }
          <p>
            oracle: prices in US dollars with their 80 % interval; <a href="/api/v1/openapi.json">the API</a>.
          </p>
        </footer>
        ${(frame.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`)}
      </body>
    </html> `.text
  }`;
}

/** A page of its own for a refused request: the status's words and the API's `{detail}`. */
export function renderErrorPage(status: number, detail: string, signedIn: boolean): string {
  return renderPage(
    { title: status === 404 ? 'Not found' : 'That request cannot be answered', twins: [], signedIn },
    html`<p class="error" role="alert">${detail}</p>
      <p><a href="/">Back to the search</a></p>`,
  );
}
