/**
 * GET /api/v1/ready: readiness, beside the liveness of /health. 200 when the database can
 * be read and at least one key can call the API; 503 with the reason otherwise. No key
 * needed (a probe has none), not rate limited.
 */
import { NotReadyError } from '../errors.js';
import { defineRoute, API_PREFIX } from '../route.js';
import { readyResponse } from '../schemas.js';

export const readyRoute = defineRoute({
  path: `${API_PREFIX}/ready`,
  operationId: 'ready',
  summary: 'Readiness check',
  description:
    '200 when the database can be read and an API key exists; 503 with the reason (`database unavailable: ...` or `no API key exists ...`) otherwise. Refsource routes may still answer 503 when no upstream is configured: `refsource` says how ids are resolved.',
  auth: false,
  rateLimited: false,
  pathParams: undefined,
  query: undefined,
  response: readyResponse,
  errors: [503],
  async handle({ cache }) {
    const inventory = await cache.inventory();
    if (!inventory.ready) {
      throw new NotReadyError(
        "no API key exists: create one with 'oracle keys create --label <name>' (or set ORACLE_API_KEYS)",
      );
    }
    return {
      status: 'ready' as const,
      products: inventory.products,
      observations: inventory.observations,
      keys: inventory.keys,
      refsource: inventory.refsource,
    };
  },
});
