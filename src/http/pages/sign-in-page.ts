/** The sign-in form: an API key entered once, kept by the browser in an HttpOnly cookie (access.ts). */
import { html, type Html } from './html.js';

export function renderSignIn(next: string, refused: string | null): Html {
  return html`${refused === null ? '' : html`<p class="error" role="alert">${refused}</p>`}
    <form class="sign-in" method="post" action="/sign-in">
      <input type="hidden" name="next" value="${next}" />
      <label for="key">API key</label>
      <input id="key" name="key" type="password" autocomplete="current-password" required />
      <button type="submit">Sign in</button>
    </form>
    <p>
      The pages read what the API reads, with the same key and the same rate limit. The key is kept in a
      cookie this server alone can read (HttpOnly, SameSite=Strict); <code>oracle keys create</code> makes
      one.
    </p>`;
}
