/**
 * Resolution of a reference-source id to a catalog product (SPEC.md 4.3, CONTRACT.md
 * decision 3): what a resolver answers, and the resolvers without an upstream (the local
 * catalog alone, or none). The resolver that asks an upstream, with its answer cache and
 * circuit breaker, is upstream-resolver.ts: only a server with --refsource-url loads it.
 */
import { NoCatalogMappingError, UpstreamNotConfiguredError } from '../domain/errors.js';
import type { StoredProduct } from '../store/store.js';
import type { CircuitState } from '../upstream/circuit-breaker.js';

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
  resolve(id: string, findLocal: (id: string) => Promise<StoredProduct | undefined>): Promise<Resolution>;
  close(): Promise<void>;
}

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
      throw new UpstreamNotConfiguredError('no upstream reference source is configured on this server');
    },
    close: async () => {},
  };
}
