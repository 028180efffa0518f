/**
 * GET /api/v1/developer/indexes and /indexes/{name} (docs/indexes.md): the market index
 * definitions, and one index's values over a span (the body of `oracle index show --json`).
 * Read-only: indexes are defined with `oracle index add`. One token of the shared bucket each.
 */
import { defineRoute, API_PREFIX } from '../route.js';
import { indexListResponse, indexNamePath, indexQuery, indexResponse } from '../index-schemas.js';

export const indexListRoute = defineRoute({
  path: `${API_PREFIX}/developer/indexes`,
  operationId: 'getIndexes',
  summary: 'Market index definitions',
  description: 'Every market index defined (`oracle index add`), by name. Not in SPEC.md (docs/indexes.md).',
  auth: true,
  rateLimited: true,
  pathParams: undefined,
  query: undefined,
  response: indexListResponse,
  errors: [401, 429, 500, 503],
  handle: async ({ oracle }) => {
    const indexes = await oracle.indexes();
    return { total: indexes.length, indexes };
  },
});

export const indexRoute = defineRoute({
  path: `${API_PREFIX}/developer/indexes/:name`,
  operationId: 'getIndex',
  summary: "A market index's values over a span",
  description:
    "The index chained from its base date (1000) at every `every`, shown from `from` to `to`: each point's value, interval, members priced and linked, and the members that moved it most (docs/methodology.md §17). A day published with `oracle index publish` is read back as published, with its `version` (a restatement is a new version; `version` reads an older one); other points are computed now, `version` null. An unknown name or version is a 400. Not in SPEC.md (docs/indexes.md).",
  auth: true,
  rateLimited: true,
  pathParams: indexNamePath,
  query: indexQuery,
  response: indexResponse,
  errors: [400, 401, 429, 500, 503],
  handle: ({ params, query, now, oracle }) =>
    oracle.index({
      name: params.name,
      request: { from: query.from, to: query.to, every: query.every, version: query.version },
      params: { windowHours: query.window_hours, outlierStddevs: query.outlier_stddevs },
      now,
    }),
});
