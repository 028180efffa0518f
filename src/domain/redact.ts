/**
 * URLs as they may be shown: a webhook's or a source's URL often carries a secret, in its
 * user name and password (`https://user:PW@host/...`), a query value (`?token=...`) or its fragment.
 * Every URL written to a message, an event, the database or a log goes through here first,
 * as libpq and psql print a connection URI without its password.
 */

/** What stands in for a secret that was taken out. */
export const REDACTED = '***';

/** `url` with its user name, password, every query value and its fragment replaced by `***`; not a URL: as given. */
export function redactedUrl(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '' && parsed.search === '' && parsed.hash === '')
    return url;
  const userinfo = parsed.username !== '' || parsed.password !== '' ? `${REDACTED}@` : '';
  const query =
    parsed.search === ''
      ? ''
      : `?${parsed.search
          .slice(1)
          .split('&')
          .map((pair) => {
            const eq = pair.indexOf('=');
            return eq < 0 ? pair : `${pair.slice(0, eq + 1)}${REDACTED}`;
          })
          .join('&')}`;
  const hash = parsed.hash === '' ? '' : `#${REDACTED}`;
  return `${parsed.protocol}//${userinfo}${parsed.host}${parsed.pathname}${query}${hash}`;
}

/** An http(s) URL inside free text: up to the next space, quote or angle bracket. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>]+/gi;

/** `text` with every http(s) URL in it redacted (redactedUrl): for an error message that quotes a URL. */
export function redactUrlsIn(text: string): string {
  return text.replace(URL_IN_TEXT, (url) => redactedUrl(url));
}

/** True when `url` holds a user name or password, which no stored URL may (they would be echoed). */
export function hasUserinfo(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return parsed.username !== '' || parsed.password !== '';
}
