/**
 * The resolver that asks the upstream reference source first (SPEC.md 4.3, CONTRACT.md
 * decision 3): its answers are cached for a while, concurrent questions about one id share
 * one call, and a circuit breaker stops calls to an upstream that keeps failing. The local
 * catalog then decides.
 */
import { LRUCache } from 'lru-cache';
import { NoCatalogMappingError, UpstreamUnavailableError } from '../domain/errors.js';
import {
  CircuitBreaker,
  CIRCUIT_BREAKER_DEFAULTS,
  type CircuitBreakerOptions,
} from '../upstream/circuit-breaker.js';
import type { RefsourceClient, UpstreamAnswer } from '../upstream/refsource-client.js';
import type { RefsourceResolver } from './refsource-resolver.js';

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
