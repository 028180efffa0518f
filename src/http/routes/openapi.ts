/** GET /api/v1/openapi.json: the API described from its own route table; public, like health. */
import { openApiDocument } from '../openapi.js';
import { defineRoute, API_PREFIX, type Route } from '../route.js';
import { openApiResponse } from '../schemas.js';

export function createOpenApiRoute(routes: readonly Route[], version: string): Route {
  let document: Record<string, unknown> | undefined;
  return defineRoute({
    path: `${API_PREFIX}/openapi.json`,
    operationId: 'getOpenApiDocument',
    summary: 'This document',
    auth: false,
    rateLimited: false,
    pathParams: undefined,
    query: undefined,
    response: openApiResponse,
    errors: [],
    // Built on first request: the route list is complete by then, this route included.
    handle: async () => (document ??= openApiDocument(routes, version)),
  });
}
