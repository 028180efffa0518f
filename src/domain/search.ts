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
