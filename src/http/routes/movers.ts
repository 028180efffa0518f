/**
 * GET /api/v1/developer/movers: the catalog's biggest gainers and losers of one slot over a
 * span, the body of `oracle movers --json`. One token of the shared bucket.
 */
import { stepMs } from '../../domain/history.js';
import { defineRoute, API_PREFIX } from '../route.js';
import { moversQuery, moversResponse, pricingQueryOf } from '../schemas.js';

export const moversRoute = defineRoute({
  path: `${API_PREFIX}/developer/movers`,
  operationId: 'getMovers',
  summary: "The catalog's biggest gainers and losers over a span",
  description:
    "Every product with at least `min_observations` observations of the slot's condition in the span, priced at the span's start and end (the pricing route's price of the slot with `at` at each), ranked by the change in percent: the largest rises, then the largest falls. The span ends now (or at `at`).",
  auth: true,
  rateLimited: true,
  pathParams: undefined,
  query: moversQuery,
  response: moversResponse,
  errors: [400, 401, 429, 500, 503],
  handle: ({ query, now, oracle }) => {
    const { asOf, ...params } = pricingQueryOf(query, now);
    return oracle.movers({
      ...params,
      asOf: asOf ?? now,
      condition: query.condition,
      span: query.span,
      spanMs: stepMs(query.span),
      limit: query.limit,
    });
  },
});
