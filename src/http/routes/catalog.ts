/**
 * GET /api/v1/developer/catalog (SPEC.md 4.5): needs a key, and takes a token from the shared
 * bucket like every other keyed route. Paginated by key (`cursor`, `limit` up to
 * CATALOG_PAGE.max): a page is read and sent in time and memory of the page, so a catalog of
 * any size never holds the server (a whole 300,000-product body took seconds and hundreds of MB).
 */
import { defineRoute, API_PREFIX } from '../route.js';
import { catalogQuery, catalogResponse } from '../schemas.js';

export const catalogRoute = defineRoute({
  path: `${API_PREFIX}/developer/catalog`,
  operationId: 'getCatalog',
  summary: 'The tracked products, a page at a time',
  description:
    "SPEC.md 4.5's `{total, products}`, by product_key, a page of at most `limit` products (default and most 1000) with `next_cursor` for the next (null on the last page): a catalog of up to 1000 products is one page, as SPEC.md has it. Not in SPEC.md: `cursor`, `limit`, `next_cursor` (CONTRACT.md additions).",
  auth: true,
  rateLimited: true,
  pathParams: undefined,
  query: catalogQuery,
  response: catalogResponse,
  errors: [400, 401, 429, 500, 503],
  handle: ({ query, oracle }) => oracle.catalogPage({ cursor: query.cursor ?? null, limit: query.limit }),
});
