/**
 * GET /api/v1/developer/pricing/{product_key}/history (CONTRACT.md additions 4): the bundle's
 * slots at every step of a span, the body of `oracle history --json`. One token of the shared
 * bucket per request, at most HISTORY_MAX_POINTS points.
 */
import { parseHistoryRequest } from '../../domain/history.js';
import { defineRoute, API_PREFIX, JsonBytes } from '../route.js';
import { historyQuery, historyResponse, productKeyPath } from '../schemas.js';

export const historyRoute = defineRoute({
  path: `${API_PREFIX}/developer/pricing/:product_key/history`,
  operationId: 'getPricingHistory',
  summary: 'Price history of a catalog product',
  description:
    'Each point is the bundle as of that instant (the pricing route with `at`), reduced to the requested slots: `price_minor` and `confidence` (the interval, null until a bundle carries one). Points step back from `to` every `every` down to `from`, oldest first.',
  auth: true,
  rateLimited: true,
  pathParams: productKeyPath,
  query: historyQuery,
  response: historyResponse,
  errors: [400, 401, 429, 500, 503],
  // Serialised by the service as it goes (a long body would hold the event loop); the key's
  // histories take turns with other keys' (service/turns.ts).
  handle: ({ params, query, now, oracle, keyId }) =>
    oracle
      .historyJson({
        ref: { productKey: params.product_key },
        params: { windowHours: query.window_hours, outlierStddevs: query.outlier_stddevs },
        request: parseHistoryRequest(query, now),
        owner: keyId ?? undefined,
      })
      .then((bytes) => new JsonBytes(bytes)),
});
