/**
 * What the server keeps for requests that repeat, all keyed by the store's data version (it
 * moves on every write by another process, and when the database is reopened): computed
 * bundles (bundle-cache.ts, under keys made there from the request), and the latest inventory,
 * which many keys and probes ask for between two writes. (The catalog is not kept: a page is
 * read in time of the page, where the whole body kept here grew with the catalog.)
 */
import type { KeptBundle, Oracle, ServiceInventory } from '../service/oracle.js';
import type { BundleCache } from './bundle-cache.js';

export interface ServerCache {
  bundles: BundleCache;
  /**
   * What a pricing route hands the oracle: the bundle kept under `key` (bundle-cache.ts
   * priceCacheKey, snapshotCacheKey) at the data version of the moment it is asked, else the
   * computed one, kept under that version as of the request's `now`.
   */
  bundle(key: string, now: number): KeptBundle;
  inventory(): Promise<ServiceInventory>;
}

/** `call`'s latest answer while the data version is the one it was given at. */
function perDataVersion<T>(oracle: Oracle, call: () => Promise<T>): () => Promise<T> {
  let kept: { version: number; answer: T } | undefined;
  return async () => {
    const version = oracle.dataVersion();
    if (kept?.version === version) return kept.answer;
    const answer = await call();
    kept = { version, answer };
    return answer;
  };
}

export function createServerCache(oracle: Oracle, bundles: BundleCache): ServerCache {
  return {
    bundles,
    bundle: (key, now) => async (compute) => {
      const version = oracle.dataVersion();
      const kept = bundles.find(key, version, now);
      if (kept !== undefined) return kept;
      const computed = await compute();
      bundles.keep(key, version, now, computed);
      return computed;
    },
    inventory: perDataVersion(oracle, () => oracle.inventory()),
  };
}
