/** Every route of the API, in one list: the server registers it, the OpenAPI document describes it. */
import type { ServerMetrics } from '../metrics.js';
import type { Route } from '../route.js';
import { catalogRoute } from './catalog.js';
import { catalogSearchRoute } from './catalog-search.js';
import { healthRoute } from './health.js';
import { createMetricsRoute } from './metrics.js';
import { createOpenApiRoute } from './openapi.js';
import { evidenceRoute } from './evidence.js';
import { historyRoute } from './history.js';
import { pricingRoute } from './pricing.js';
import { readyRoute } from './ready.js';
import { salesRoute } from './sales.js';
import { moversRoute } from './movers.js';
import { refsourceRoute, snapshotRoute } from './refsource.js';
import { valueHistoryRoute, valueRoute } from './value.js';
import { watchEventsRoute, watchRulesRoute } from './watches.js';
import { indexListRoute, indexRoute } from './indexes.js';

/** `metrics`: the server's metrics when `serve --metrics` is on (the route exists only then). */
export function apiRoutes(version: string, metrics?: ServerMetrics): Route[] {
  const routes = [
    healthRoute,
    readyRoute,
    pricingRoute,
    historyRoute,
    evidenceRoute,
    salesRoute,
    refsourceRoute,
    snapshotRoute,
    catalogRoute,
    catalogSearchRoute,
    moversRoute,
    watchRulesRoute,
    watchEventsRoute,
    indexListRoute,
    indexRoute,
    valueRoute,
    valueHistoryRoute,
  ];
  if (metrics) routes.push(createMetricsRoute(metrics));
  routes.push(createOpenApiRoute(routes, version));
  return routes;
}
