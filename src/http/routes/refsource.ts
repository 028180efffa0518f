/**
 * GET /api/v1/developer/refsource/{refsource_id} (SPEC.md 4.3) and its snapshot (4.4): the
 * bundle addressed by the upstream reference-source id, resolved as CONTRACT.md decision 3 says.
 */
import { snapshotWindow } from '../../domain/params.js';
import { priceCacheKey, snapshotCacheKey } from '../bundle-cache.js';
import { defineRoute, API_PREFIX } from '../route.js';
import { pricingBundle, pricingQuery, refsourceIdPath, snapshotQuery, pricingQueryOf } from '../schemas.js';

export const refsourceRoute = defineRoute({
  path: `${API_PREFIX}/developer/refsource/:refsource_id`,
  operationId: 'getPricingByRefsource',
  summary: 'Pricing bundle of a product addressed by its reference-source id',
  description:
    'Same bundle as the pricing route with `id` set. When the upstream fails and a local mapping exists, the ungraded slot\'s meta carries `refsource_upstream: "unavailable"`.',
  auth: true,
  rateLimited: true,
  pathParams: refsourceIdPath,
  query: pricingQuery,
  response: pricingBundle,
  errors: [400, 401, 429, 500, 502, 503],
  handle: ({ params, query, now, oracle, cache }) => {
    const ref = { refsourceId: params.refsource_id };
    const asked = pricingQueryOf(query, now);
    return oracle.price({ ref, query: asked, now, kept: cache.bundle(priceCacheKey(ref, asked), now) });
  },
});

export const snapshotRoute = defineRoute({
  path: `${API_PREFIX}/developer/refsource/:refsource_id/snapshot`,
  operationId: 'getSnapshot',
  summary: 'Pricing bundle as of a past UTC date',
  description: 'Window: 00:00Z of `date` to 00:00Z of the next day; `window_hours` is 24.',
  auth: true,
  rateLimited: true,
  pathParams: refsourceIdPath,
  query: snapshotQuery,
  response: pricingBundle,
  errors: [400, 401, 422, 429, 500, 502, 503],
  handle: ({ params, query, now, oracle, cache }) => {
    const id = params.refsource_id;
    const day = snapshotWindow(query.date, now, 'date');
    const kept = cache.bundle(snapshotCacheKey(id, day, query.outlier_stddevs), now);
    return oracle.snapshot({ id, day, outlierStddevs: query.outlier_stddevs, now, kept });
  },
});
