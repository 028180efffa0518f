/**
 * GET /api/v1/developer/watches and /watches/events (docs/alerts.md): the watch rules and their
 * recent events, read-only (rules are made with `oracle watch add`). One token of the shared
 * bucket each.
 */
import type { DeliveryStatus } from '../../domain/watch.js';
import { watchEventRecordBody, watchRuleBody } from '../../service/watch-bodies.js';
import { defineRoute, API_PREFIX } from '../route.js';
import { watchEventsQuery, watchEventsResponse, watchRulesResponse } from '../watch-schemas.js';

export const watchRulesRoute = defineRoute({
  path: `${API_PREFIX}/developer/watches`,
  operationId: 'getWatchRules',
  summary: 'Watch rules',
  description:
    'Every watch rule, by id, with its state: whether its condition held at the last check, and the value seen then. Not in SPEC.md (docs/alerts.md).',
  auth: true,
  rateLimited: true,
  pathParams: undefined,
  query: undefined,
  response: watchRulesResponse,
  errors: [401, 429, 500, 503],
  handle: async ({ oracle }) => {
    const rules = (await oracle.watches()).map(watchRuleBody);
    return { total: rules.length, rules };
  },
});

export const watchEventsRoute = defineRoute({
  path: `${API_PREFIX}/developer/watches/events`,
  operationId: 'getWatchEvents',
  summary: 'Recent watch events',
  description:
    'The latest events, newest first, each with the body POSTed to its webhook and its delivery: `delivered`, `pending` (retried by the next check) or `unsent` (no webhook). Not in SPEC.md (docs/alerts.md).',
  auth: true,
  rateLimited: true,
  pathParams: undefined,
  query: watchEventsQuery,
  response: watchEventsResponse,
  errors: [400, 401, 429, 500, 503],
  handle: async ({ query, oracle }) => ({
    events: (
      await oracle.watchEvents({ limit: query.limit, status: query.status as DeliveryStatus | undefined })
    ).map(watchEventRecordBody),
  }),
});
