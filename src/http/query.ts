/**
 * The query string and path of a request, read strictly: every parameter the route does not
 * take is refused by name (a misspelt `window_hour` would otherwise price the default 24 h
 * silently), a query of more parameters than any route takes is refused whole instead of
 * being cut short, and text that is not valid UTF-8 percent-encoding is refused instead of
 * being read as U+FFFD. docs/CONTRACT.md, additions 15.
 */
import { InvalidParameterError } from '../domain/errors.js';

/**
 * The most query parameters a request may carry, repeats counted: well above what any route
 * takes (a few names, `slots` repeated for the 17 slots), far below Node's querystring cut of
 * 1,000, after which the rest used to be dropped unread.
 */
export const MAX_QUERY_PARAMETERS = 64;

/** A decoded query: each name's value, or its values when repeated. */
export type Query = Record<string, string | string[]>;

function decode(text: string, what: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch (error) {
    throw new InvalidParameterError(what, `${what} is not valid UTF-8 percent-encoding`, { cause: error });
  }
}

/**
 * Parses `search` (`?a=1&b=2`, or '') for a route that takes the parameters `names`; throws
 * InvalidParameterError for too many parameters, an unknown name or undecodable text.
 */
export function readQuery(search: string, names: readonly string[]): Query {
  const query: Query = {};
  const text = search.startsWith('?') ? search.slice(1) : search;
  if (text === '') return query;
  const pairs = text.split('&').filter((pair) => pair !== '');
  if (pairs.length > MAX_QUERY_PARAMETERS) {
    throw new InvalidParameterError(
      'query',
      `too many query parameters: ${pairs.length.toLocaleString('en-US')} (at most ${MAX_QUERY_PARAMETERS})`,
    );
  }
  const unknown: string[] = [];
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const name = decode(eq === -1 ? pair : pair.slice(0, eq), 'a query parameter name');
    const value = decode(eq === -1 ? '' : pair.slice(eq + 1), name);
    if (!names.includes(name)) {
      if (!unknown.includes(name)) unknown.push(name);
      continue;
    }
    const previous = query[name];
    query[name] =
      previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  if (unknown.length > 0) {
    const taken =
      names.length === 0 ? 'this route takes no query parameters' : `this route takes ${names.join(', ')}`;
    throw new InvalidParameterError(
      unknown[0]!,
      `unknown query parameter${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => JSON.stringify(n)).join(', ')}: ${taken}`,
    );
  }
  return query;
}

/** Refuses a path whose percent-encoding is not valid UTF-8 (a product key of `%FF`). */
export function checkPath(path: string): void {
  decode(path, 'the path');
}
