/**
 * GET /api/v1/developer/pricing/{product_key}/sales: the recent observations of a product, the
 * body of `oracle sales --json`. One token of the shared bucket.
 */
import { stepMs } from '../../domain/history.js';
import { defineRoute, API_PREFIX } from '../route.js';
import { productKeyPath, pricingQueryOf, salesQuery, salesResponse } from '../schemas.js';

export const salesRoute = defineRoute({
  path: `${API_PREFIX}/developer/pricing/:product_key/sales`,
  operationId: 'getSales',
  summary: 'The recent observations of a product, kept in its price or why not',
  description:
    "The observations the pricing route reads for the product (of every condition and extra grade, or of `condition`), newest first: date, condition, source, price, and whether each entered the price or why not (the engine's reason, as in the evidence route), as of now (or `at`), with the parameters of the pricing route.",
  auth: true,
  rateLimited: true,
  pathParams: productKeyPath,
  query: salesQuery,
  response: salesResponse,
  errors: [400, 401, 429, 500, 503],
  handle: ({ params, query, now, oracle }) => {
    const spanMs = query.span === undefined ? undefined : stepMs(query.span);
    return oracle.sales({
      ref: { productKey: params.product_key },
      query: {
        ...pricingQueryOf(query, now),
        condition: query.condition ?? null,
        spanMs,
        limit: query.limit,
      },
      now,
    });
  },
});
