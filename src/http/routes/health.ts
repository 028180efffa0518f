/** GET /api/v1/health (SPEC.md 4.1): no key, no database; 200 while the process serves. */
import { defineRoute, API_PREFIX } from '../route.js';
import { healthResponse } from '../schemas.js';

export const healthRoute = defineRoute({
  path: `${API_PREFIX}/health`,
  operationId: 'health',
  summary: 'Liveness check',
  auth: false,
  rateLimited: false,
  pathParams: undefined,
  query: undefined,
  response: healthResponse,
  errors: [],
  handle: async () => HEALTHY,
});

const HEALTHY = { status: 'ok' } as const;
