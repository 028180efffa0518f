/**
 * GET /metrics (`serve --metrics`): Prometheus text format, at the path Prometheus scrapes
 * by default; no key (restrict it by network, as usual for metrics), not rate limited.
 */
import { z } from 'zod';
import type { ServerMetrics } from '../metrics.js';
import { defineRoute, type Route } from '../route.js';

export function createMetricsRoute(metrics: ServerMetrics): Route {
  return defineRoute({
    path: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics (only with serve --metrics)',
    auth: false,
    rateLimited: false,
    pathParams: undefined,
    query: undefined,
    response: z.string(),
    contentType: metrics.contentType,
    errors: [],
    handle: () => metrics.render(),
  });
}
