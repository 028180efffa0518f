/** The inputs of catalog search, shared by `oracle catalog --search` and the search route. */
import * as z from 'zod/mini';
import { checkedText, integerWithDefault } from './input.js';

/** Longest search text accepted (as long as the longest catalog key). */
export const MAX_SEARCH_CHARS = 200;

/** Search results per request, by default and at most. */
export const SEARCH_LIMIT = { min: 1, max: 100, default: 20 } as const;

/** `q` / `--search`: the search text, required, not blank, at most MAX_SEARCH_CHARS characters. */
export const searchText = checkedText((raw) => {
  if (raw === undefined || raw.trim() === '')
    return 'is required: the words to search for, e.g. "base charizard 4/102"';
  return raw.length > MAX_SEARCH_CHARS
    ? `must be at most ${MAX_SEARCH_CHARS} characters (got ${raw.length})`
    : null;
}).check(z.maxLength(MAX_SEARCH_CHARS), z.regex(/\S/));

/** `limit`: the most results a search returns. */
export const searchLimit = integerWithDefault(SEARCH_LIMIT);

/**
 * A page of the catalog (`GET /api/v1/developer/catalog`, `oracle catalog --json`): products
 * per page, by default and at most. The default is the most, so that a catalog of up to 1,000
 * products is, as SPEC.md 4.5 has it, all in the first answer; a bigger one is read page by page
 * (`next_cursor`), each read and sent in time and memory of the page, not of the catalog.
 */
export const CATALOG_PAGE = { min: 1, max: 1_000, default: 1_000 } as const;

/** `limit`: the most products one page of the catalog holds. */
export const catalogLimit = integerWithDefault(CATALOG_PAGE);

/** The cursor after a page: the page's last key, base64url (opaque to clients: they pass it back). */
export const cursorAfter = (productKey: string) => Buffer.from(productKey, 'utf8').toString('base64url');

/** The product key a cursor stands for, or null when the text is no cursor this API gave. */
export function keyOfCursor(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) return null;
  const key = Buffer.from(cursor, 'base64url').toString('utf8');
  return key !== '' && cursorAfter(key) === cursor ? key : null;
}

/** `cursor`: the `next_cursor` of the page before, as given. */
export const catalogCursor = checkedText((raw) =>
  raw === undefined || keyOfCursor(raw) !== null
    ? null
    : `must be the next_cursor of a previous page, as given (got ${JSON.stringify(raw.slice(0, 40))})`,
);
