/** Parameters of catalog search, shared by `oracle catalog --search` and the search route. */
import { InvalidParameterError } from './errors.js';

/** Longest search text accepted (as long as the longest catalog key). */
export const MAX_SEARCH_CHARS = 200;

/** The search text: required, not blank, at most MAX_SEARCH_CHARS characters. */
export function parseSearchText(raw: string | undefined, name = 'q'): string {
  if (raw === undefined || raw.trim() === '') {
    throw new InvalidParameterError(name, `${name} is required: the words to search for, e.g. "base charizard 4/102"`);
  }
  if (raw.length > MAX_SEARCH_CHARS) {
    throw new InvalidParameterError(name, `${name} must be at most ${MAX_SEARCH_CHARS} characters (got ${raw.length})`);
  }
  return raw;
}
