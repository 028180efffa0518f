/** GET /api/v1/developer/pricing/{product_key} (SPEC.md 4.2). */
import { priceCacheKey } from '../bundle-cache.js';
import { defineRoute, API_PREFIX } from '../route.js';
import { pricingBundle, pricingQuery, productKeyPath, pricingQueryOf } from '../schemas.js';

export const pricingRoute = defineRoute({
  path: `${API_PREFIX}/developer/pricing/:product_key`,
  operationId: 'getPricing',
  summary: 'Pricing bundle of a catalog product',
  description:
    'The ungraded price and the 4 graders x grades 7-10 matrix, as of now (or `at`). `id` is null on this route.',
  auth: true,
  rateLimited: true,
  pathParams: productKeyPath,
  query: pricingQuery,
  response: pricingBundle,
  errors: [400, 401, 429, 500, 503],
  handle: ({ params, query, now, oracle, cache }) => {
    const ref = { productKey: params.product_key };
    const asked = pricingQueryOf(query, now);
    return oracle.price({ ref, query: asked, now, kept: cache.bundle(priceCacheKey(ref, asked), now) });
  },
});
