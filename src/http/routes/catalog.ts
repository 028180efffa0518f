/** GET /api/v1/developer/catalog (SPEC.md 4.5): needs a key, not rate limited. */
import { defineRoute, API_PREFIX } from '../route.js';
import { catalogResponse } from '../schemas.js';

export const catalogRoute = defineRoute({
  path: `${API_PREFIX}/developer/catalog`,
  operationId: 'getCatalog',
  summary: 'Every tracked product',
  auth: true,
  rateLimited: false,
  pathParams: undefined,
  query: undefined,
  response: catalogResponse,
  errors: [401, 500, 503],
  handle: ({ cache }) => cache.catalog(),
});
