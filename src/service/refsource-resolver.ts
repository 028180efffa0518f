/**
 * Resolution of a reference-source id to a catalog product (SPEC.md 4.3, CONTRACT.md
 * decision 3). The upstream is asked first; its answers are cached for a while, concurrent
 * questions about one id share one call, and a circuit breaker stops calls to an upstream
 * that keeps failing. The local catalog then decides.
 */
import { LRUCache } from 'lru-cache';
import {
  NoCatalogMappingError,
  UpstreamNotConfiguredError,
  UpstreamUnavailableError,
} from '../domain/errors.js';
import type { StoredProduct } from '../store/store.js';
import type { Awaitable } from './awaitable.js';
import { CircuitBreaker, CIRCUIT_BREAKER_DEFAULTS, type CircuitBreakerOptions, type CircuitState } from '../upstream/circuit-breaker.js';
import type { RefsourceClient, UpstreamAnswer } from '../upstream/refsource-client.js';

/** What a resolution found: the product, and the upstream's failure when pricing went on without it. */
export interface Resolution {
  product: StoredProduct;
  /** Set when the upstream failed and the local mapping stood in; named in the ungraded slot's meta. */
  upstream: 'unavailable' | null;
}

/** Where reference-source ids are resolved: an upstream, the local catalog alone, or nowhere (503). */
export type ResolverMode = 'upstream' | 'offline' | 'unconfigured';

/** Upstream calls by outcome since the start, and the circuit breaker's state now (null: no upstream). */
export interface UpstreamStats {
  found: number;
  gone: number;
  failed: number;
  /** Lookups answered "down" by the open circuit, without a call. */
  skipped: number;
  circuit: CircuitState | null;
}

const NO_UPSTREAM_STATS: UpstreamStats = { found: 0, gone: 0, failed: 0, skipped: 0, circuit: null };

export interface RefsourceResolver {
  readonly mode: ResolverMode;
  stats(): UpstreamStats;
  /** Resolves `id`; `findLocal` reads the local catalog mapping. Throws the errors of decision 3. */
  resolve(id: string, findLocal: (id: string) => Awaitable<StoredProduct | undefined>): Promise<Resolution>;
  close(): Promise<void>;
}

export interface ResolverOptions {
  /** How long a healthy upstream's answer (found / gone) is reused. */
  answerTtlMs: number;
  maxAnswers: number;
  breaker: CircuitBreakerOptions;
  now: () => number;
}

export const RESOLVER_DEFAULTS: ResolverOptions = {
  answerTtlMs: 5 * 60_000,
  maxAnswers: 10_000,
  breaker: CIRCUIT_BREAKER_DEFAULTS,
  now: Date.now,
};

/** `--offline`: the local catalog alone decides, the upstream is never asked. */
export function createOfflineResolver(): RefsourceResolver {
  return {
    mode: 'offline',
    stats: () => NO_UPSTREAM_STATS,
    async resolve(id, findLocal) {
      const product = await findLocal(id);
      if (!product) throw new NoCatalogMappingError(id);
      return { product, upstream: null };
    },
    close: async () => {},
  };
}

/** No upstream configured and not offline: every refsource request is a 503. */
export function createUnconfiguredResolver(): RefsourceResolver {
  return {
    mode: 'unconfigured',
    stats: () => NO_UPSTREAM_STATS,
    async resolve() {
      throw new UpstreamNotConfiguredError(
        'no upstream reference source is configured on this server (it needs --refsource-url or --offline)',
      );
    },
    close: async () => {},
  };
}

/** A failed upstream answer travels as a rejection, which lru-cache never caches but hands to every caller sharing the call. */
class FailedAnswer {
  constructor(readonly answer: UpstreamAnswer) {}
}

export function createUpstreamResolver(
  client: RefsourceClient,
  options: Partial<ResolverOptions> = {},
): RefsourceResolver {
  const { answerTtlMs, maxAnswers, breaker: breakerOptions, now } = { ...RESOLVER_DEFAULTS, ...options };
  const breaker = new CircuitBreaker(breakerOptions, now);
  const counts = { found: 0, gone: 0, failed: 0, skipped: 0 };

  async function callUpstream(id: string): Promise<UpstreamAnswer> {
    if (!breaker.tryAcquire()) {
      counts.skipped += 1;
      throw new FailedAnswer({ status: 'failed', reason: 'upstream marked down after repeated failures' });
    }
    const answer = await client.lookup(id);
    counts[answer.status] += 1;
    if (answer.status === 'failed') {
      breaker.failure();
      throw new FailedAnswer(answer);
    }
    breaker.success();
    return answer;
  }

  // Healthy answers (found / gone) are kept for answerTtlMs; fetch() shares one call among
  // concurrent askers of an id. An answer evicted while its call is out still reaches them.
  const answers = new LRUCache<string, UpstreamAnswer>({
    max: maxAnswers,
    ttl: answerTtlMs,
    ttlResolution: 0,
    perf: { now },
    ignoreFetchAbort: true,
    fetchMethod: (id) => callUpstream(id),
  });

  async function ask(id: string): Promise<UpstreamAnswer> {
    try {
      return (await answers.fetch(id)) as UpstreamAnswer;
    } catch (error) {
      if (error instanceof FailedAnswer) return error.answer;
      throw error;
    }
  }

  return {
    mode: 'upstream',
    stats: () => ({ ...counts, circuit: breaker.state }),
    async resolve(id, findLocal) {
      const answer = await ask(id);
      const product = await findLocal(id);
      if (answer.status === 'failed') {
        if (!product) {
          throw new UpstreamUnavailableError(
            `upstream reference source failed for refsource id ${JSON.stringify(id)} (${answer.reason}) and no local catalog mapping exists`,
          );
        }
        return { product, upstream: 'unavailable' };
      }
      if (!product) throw new NoCatalogMappingError(id);
      return { product, upstream: null };
    },
    close: () => client.close(),
  };
}
