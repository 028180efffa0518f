/**
 * Computed bundles, kept while nothing was written to the database and for at most `ttlMs`.
 * The database version (PRAGMA data_version) changes whenever another connection commits,
 * so a server running beside a cron `oracle ingest` never serves a bundle older than the
 * last write; the TTL bounds how far a cached bundle's window end (its "now") may lag.
 */
import type { PricingBundle } from '../domain/bundle.js';
import { LruCache } from './lru-cache.js';

export interface BundleCacheOptions {
  /** Longest age of a cached bundle, in ms. */
  ttlMs: number;
  maxEntries: number;
}

/**
 * Defaults: a bundle may be served for 1 s. A bundle is ~10 kB as JSON and about twice that
 * as objects (the server also keeps its serialised body), so 1,000 stay under ~30 MB.
 */
export const BUNDLE_CACHE_DEFAULTS: BundleCacheOptions = { ttlMs: 1_000, maxEntries: 1_000 };

interface Entry {
  bundle: PricingBundle;
  version: number;
  computedAt: number;
}

export interface BundleCache {
  /** The bundle cached under `key` for this data `version` and younger than the TTL, else `compute()`'s, stored. */
  get(key: string, version: number, now: number, compute: () => PricingBundle): PricingBundle;
  clear(): void;
  /** Lookups answered from the cache, and those computed, since the start. */
  stats(): { hits: number; misses: number };
}

export function createBundleCache(options: BundleCacheOptions = BUNDLE_CACHE_DEFAULTS): BundleCache {
  const entries = new LruCache<string, Entry>(options.maxEntries);
  let hits = 0;
  let misses = 0;
  return {
    get(key, version, now, compute) {
      const hit = entries.get(key);
      if (hit && hit.version === version && now - hit.computedAt < options.ttlMs && now >= hit.computedAt) {
        hits += 1;
        return hit.bundle;
      }
      misses += 1;
      const bundle = compute();
      entries.set(key, { bundle, version, computedAt: now });
      return bundle;
    },
    clear: () => entries.clear(),
    stats: () => ({ hits, misses }),
  };
}
