/**
 * Prometheus metrics (`serve --metrics`), built on prom-client: requests by route, method
 * and status, a latency histogram per route, rate-limited requests, upstream calls by
 * outcome and the circuit breaker's state, bundle cache hits, and prom-client's process
 * metrics (CPU, memory, event-loop lag, GC). Loaded only when the flag is given.
 *
 * The request path pays one counter and one histogram update per request (label children
 * are looked up once per route, method and status); everything the service counts is read
 * from its plain counters when Prometheus scrapes, so the service never calls prom-client.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type LabelValues } from 'prom-client';
import type { ApiService } from '../service/api-service.js';
import type { AccessLogEntry } from './access-log.js';

/** Latency buckets, seconds: a cached bundle is well under 1 ms, an upstream call up to its 5 s deadline. */
const LATENCY_BUCKETS_S = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const CIRCUIT_STATES = ['closed', 'half-open', 'open'] as const;
/** The route label of a request that matched no route (404, malformed, CONNECT). */
const NO_ROUTE = 'none';

export interface ServerMetrics {
  /** Records one answered request (the access log's entry). */
  observe(entry: AccessLogEntry): void;
  /** The Prometheus text exposition of every metric. */
  render(): Promise<string>;
  readonly contentType: string;
}

/** A counter whose value is the service's own running total, set when scraped. */
function mirroredCounter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  read: () => [LabelValues<L>, number][],
): void {
  new Counter<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.inc(labels, value);
    },
  });
}

export function createMetrics(service: ApiService): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'oracle_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'oracle_http_request_duration_seconds',
    help: 'Time from a request reaching its route to its answer, by route pattern.',
    labelNames: ['route'] as const,
    buckets: LATENCY_BUCKETS_S,
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'oracle_http_rate_limited_total',
    help: 'Requests refused with 429 because the key had no token left.',
    registers: [registry],
  });
  mirroredCounter(registry, 'oracle_bundle_cache_requests_total', 'Pricing bundles asked for, by whether the cache had them.', ['result'], () => {
    const { hits, misses } = service.stats().bundleCache;
    return [
      [{ result: 'hit' }, hits],
      [{ result: 'miss' }, misses],
    ];
  });
  mirroredCounter(
    registry,
    'oracle_upstream_requests_total',
    'Lookups of the upstream reference source, by outcome; breaker_open: refused by the open circuit without a call.',
    ['outcome'],
    () => {
      const { found, gone, failed, skipped } = service.stats().upstream;
      return [
        [{ outcome: 'found' }, found],
        [{ outcome: 'gone' }, gone],
        [{ outcome: 'failed' }, failed],
        [{ outcome: 'breaker_open' }, skipped],
      ];
    },
  );
  new Gauge({
    name: 'oracle_upstream_circuit_state',
    help: 'The upstream circuit breaker: 1 for its current state (no series without an upstream).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const { circuit } = service.stats().upstream;
      if (circuit) for (const state of CIRCUIT_STATES) this.set({ state }, state === circuit ? 1 : 0);
    },
  });

  // Label children by key, so a request costs a map lookup instead of prom-client hashing its labels.
  const requestChildren = new Map<string, Counter.Internal>();
  const latencyChildren = new Map<string, Histogram.Internal<'route'>>();
  return {
    observe({ route, method, status, ms }) {
      const routeLabel = route ?? NO_ROUTE;
      const key = `${status} ${method} ${routeLabel}`;
      let counter = requestChildren.get(key);
      if (!counter) requestChildren.set(key, (counter = requests.labels({ route: routeLabel, method, status })));
      counter.inc();
      let histogram = latencyChildren.get(routeLabel);
      if (!histogram) latencyChildren.set(routeLabel, (histogram = latency.labels({ route: routeLabel })));
      histogram.observe(ms / 1000);
      if (status === 429) rateLimited.inc();
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
