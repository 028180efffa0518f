/**
 * GET /api/v1/developer/catalog/search (CONTRACT.md additions 4): full-text search of the
 * catalog. Needs a key like the catalog, and takes a token from the shared bucket like every
 * addition (each search runs a query, where the catalog answers from its cache).
 */
import { searchBody } from '../../service/catalog.js';
import { defineRoute, API_PREFIX } from '../route.js';
import { searchQuery, searchResponse } from '../schemas.js';

export const catalogSearchRoute = defineRoute({
  path: `${API_PREFIX}/developer/catalog/search`,
  operationId: 'searchCatalog',
  summary: 'Find products by words of their name, set, number, subtitle or key',
  description:
    'Products matching every word of `q` (in any order, each word as a prefix), ranked by bm25 with the name weighing most. When none match, each word no catalog word starts with is corrected to the closest catalog word (1 edit for words of 4-5 characters, 2 from 6; numbers and shorter words are not corrected, a word with no close match is left out), and the body holds the products of the corrected text with that text as `did_you_mean` (`charzard` answers the Charizards with `did_you_mean: "charizard"`). A `q` without letters or digits matches nothing.',
  auth: true,
  rateLimited: true,
  pathParams: undefined,
  query: searchQuery,
  response: searchResponse,
  errors: [400, 401, 429, 500, 503],
  handle: async ({ query, oracle }) =>
    searchBody(query.q, query.limit, await oracle.search({ q: query.q, limit: query.limit })),
});
