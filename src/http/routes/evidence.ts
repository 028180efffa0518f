/**
 * GET /api/v1/developer/pricing/{product_key}/evidence: the evidence
 * of one slot, the body of `oracle explain --json` (README, HTTP API). One token of the shared bucket.
 */
import { defineRoute, API_PREFIX } from '../route.js';
import { evidenceQuery, evidenceResponse, productKeyPath, pricingQueryOf } from '../schemas.js';

export const evidenceRoute = defineRoute({
  path: `${API_PREFIX}/developer/pricing/:product_key/evidence`,
  operationId: 'getPricingEvidence',
  summary: 'The evidence behind one slot of a pricing bundle',
  description:
    "Every observation the slot's computation read (`points`: kept or not, why not, its robust z and weight) and each step from them to the published price (`steps`: name, section of docs/methodology.md, text, value, inputs), as of now (or `at`), with the parameters of the pricing route.",
  auth: true,
  rateLimited: true,
  pathParams: productKeyPath,
  query: evidenceQuery,
  response: evidenceResponse,
  errors: [400, 401, 429, 500, 503],
  handle: ({ params, query, now, oracle }) =>
    oracle.evidence({
      ref: { productKey: params.product_key },
      slot: query.slot,
      query: pricingQueryOf(query, now),
      now,
    }),
});
