/** Every route of the API, in one list: the server registers it, the OpenAPI document describes it. */
import type { Route } from '../route.js';
import { catalogRoute } from './catalog.js';
import { catalogSearchRoute } from './catalog-search.js';
import { healthRoute } from './health.js';
import { createOpenApiRoute } from './openapi.js';
import { historyRoute } from './history.js';
import { pricingRoute } from './pricing.js';
import { readyRoute } from './ready.js';
import { refsourceRoute, snapshotRoute } from './refsource.js';

export function apiRoutes(version: string): Route[] {
  const routes = [healthRoute, readyRoute, pricingRoute, historyRoute, refsourceRoute, snapshotRoute, catalogRoute, catalogSearchRoute];
  routes.push(createOpenApiRoute(routes, version));
  return routes;
}
