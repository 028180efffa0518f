/**
 * Prometheus metrics (`serve --metrics`), built on prom-client: requests by route, method
 * and status, a latency histogram per route, rate-limited requests, upstream calls by
 * outcome and the circuit breaker's state, bundle cache hits, and prom-client's process
 * metrics (CPU, memory, event-loop lag, GC). Loaded only when the flag is given.
 *
 * The request path only adds to plain numbers (a map lookup and two increments); prom-client
 * turns them into its registry's series when Prometheus scrapes. Its own Counter.inc and
 * Histogram.observe hash the labels on every call, a visible share of a cached request
 * (bench/findings.md). What the bundle cache and the oracle count (cache lookups, upstream
 * calls) is read from their own counters the same way, so neither calls prom-client.
 */
import { collectDefaultMetrics, Counter, Gauge, Registry, type LabelValues, type Metric } from 'prom-client';
import type { Oracle } from '../service/oracle.js';
import type { AccessLogEntry } from './access-log.js';
import type { BundleCache } from './bundle-cache.js';

/** Latency buckets, seconds: from a cached bundle (the finest buckets) up to an upstream call's 5 s deadline. */
const LATENCY_BUCKETS_S = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const LATENCY_NAME = 'oracle_http_request_duration_seconds';
const LATENCY_HELP = 'Time from a request reaching its route to its answer, by route pattern.';
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

interface RequestSeries {
  labels: { route: string; method: string; status: number };
  count: number;
}

/** One route's latency histogram: per-bucket (not cumulative) counts, the last one +Inf. */
interface LatencySeries {
  buckets: number[];
  sum: number;
  count: number;
}

/** A counter whose value is a running total kept elsewhere, copied in when scraped. */
function mirroredCounter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  read: () => Iterable<[LabelValues<L>, number]>,
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

/** The latency histograms in the shape prom-client's registry formats (a histogram's get()). */
function latencyMetric(series: Map<string, LatencySeries>): Metric {
  const get = async () => ({
    name: LATENCY_NAME,
    help: LATENCY_HELP,
    type: 'histogram',
    aggregator: 'sum',
    values: [...series].flatMap(([route, { buckets, sum, count }]) => {
      let cumulative = 0;
      return [
        ...buckets.map((n, i) => ({
          metricName: `${LATENCY_NAME}_bucket`,
          labels: { le: LATENCY_BUCKETS_S[i] ?? '+Inf', route },
          value: (cumulative += n),
        })),
        { metricName: `${LATENCY_NAME}_sum`, labels: { route }, value: sum },
        { metricName: `${LATENCY_NAME}_count`, labels: { route }, value: count },
      ];
    }),
  });
  return {
    name: LATENCY_NAME,
    help: LATENCY_HELP,
    type: 'histogram',
    get,
    reset: () => series.clear(),
  } as unknown as Metric;
}

/** `bundles`: the server's bundle cache (ServerDeps.bundles), whose lookups are counted. */
export function createMetrics(oracle: Oracle, bundles: BundleCache): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Map<string, RequestSeries>();
  const latency = new Map<string, LatencySeries>();
  let rateLimited = 0;

  mirroredCounter(
    registry,
    'oracle_http_requests_total',
    'HTTP requests answered, by route pattern, method and status.',
    ['route', 'method', 'status'],
    () =>
      [...requests.values()].map(
        ({ labels, count }): [LabelValues<'route' | 'method' | 'status'>, number] => [labels, count],
      ),
  );
  registry.registerMetric(latencyMetric(latency));
  mirroredCounter(
    registry,
    'oracle_http_rate_limited_total',
    'Requests refused with 429 because the key had no token left.',
    [],
    () => [[{}, rateLimited]],
  );
  mirroredCounter(
    registry,
    'oracle_bundle_cache_requests_total',
    'Pricing bundles asked for, by whether the cache had them.',
    ['result'],
    () => {
      const { hits, misses } = bundles.stats();
      return [
        [{ result: 'hit' }, hits],
        [{ result: 'miss' }, misses],
      ];
    },
  );
  mirroredCounter(
    registry,
    'oracle_upstream_requests_total',
    'Lookups of the upstream reference source, by outcome; breaker_open: refused by the open circuit without a call.',
    ['outcome'],
    () => {
      const { found, gone, failed, skipped } = oracle.upstreamStats();
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
      const { circuit } = oracle.upstreamStats();
      if (circuit) for (const state of CIRCUIT_STATES) this.set({ state }, state === circuit ? 1 : 0);
    },
  });

  return {
    observe({ route, method, status, ms }) {
      const routeLabel = route ?? NO_ROUTE;
      const key = `${status} ${method} ${routeLabel}`;
      const series = requests.get(key);
      if (series) series.count += 1;
      else requests.set(key, { labels: { route: routeLabel, method, status }, count: 1 });
      let histogram = latency.get(routeLabel);
      if (!histogram)
        latency.set(
          routeLabel,
          (histogram = {
            buckets: new Array<number>(LATENCY_BUCKETS_S.length + 1).fill(0),
            sum: 0,
            count: 0,
          }),
        );
      const seconds = ms / 1000;
      let bucket = 0;
      while (bucket < LATENCY_BUCKETS_S.length && seconds > (LATENCY_BUCKETS_S[bucket] as number))
        bucket += 1;
      histogram.buckets[bucket] = (histogram.buckets[bucket] as number) + 1;
      histogram.sum += seconds;
      histogram.count += 1;
      if (status === 429) rateLimited += 1;
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
