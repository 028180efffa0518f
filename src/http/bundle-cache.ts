/**
 * The server's computed bundles, kept while nothing was written to the database and for at
 * most `ttlMs`. The store's data version (PRAGMA data_version) changes whenever another
 * connection commits, so a server running beside a cron `oracle ingest` never serves a bundle
 * older than the last write; the TTL bounds how far a cached bundle's window end (its "now")
 * may lag. lru-cache keeps the bound and the TTL; the TTL runs on the request's clock (`now`),
 * which the server reads once per request, so a bundle's age is measured as its window is.
 * The keys are made here (priceCacheKey, snapshotCacheKey), from what a route was asked; the
 * oracle never sees them: a route hands it the cache's answer-or-compute (server-cache.ts
 * `bundle`, service/oracle.ts KeptBundle).
 */
import { LRUCache } from 'lru-cache';
import type { PricingBundle } from '../domain/bundle.js';
import type { PricingQuery } from '../service/oracle.js';
import type { ProductRef } from '../service/pricing.js';

export interface BundleCacheOptions {
  /** Longest age of a cached bundle, in ms. */
  ttlMs: number;
  maxEntries: number;
}

/**
 * Defaults: a bundle may be served for 1 s, and at most 1,000 are kept (each held as objects
 * and as the serialised body the server keeps), so the cache's memory has a fixed bound.
 */
export const BUNDLE_CACHE_DEFAULTS: BundleCacheOptions = { ttlMs: 1_000, maxEntries: 1_000 };

interface Entry {
  bundle: PricingBundle;
  version: number;
}

export interface BundleCache {
  /** The bundle kept under `key` for this data `version` and still fresh at `now`. */
  find(key: string, version: number, now: number): PricingBundle | undefined;
  keep(key: string, version: number, now: number, bundle: PricingBundle): void;
  /** Lookups answered from the cache, and those that found nothing, since the start. */
  stats(): { hits: number; misses: number };
}

export function createBundleCache(options: BundleCacheOptions = BUNDLE_CACHE_DEFAULTS): BundleCache {
  /** The clock lru-cache ages entries by: the `now` of the lookup under way (read as is: ttlResolution 0). */
  const clock = { time: 0, now: () => clock.time };
  const entries = new LRUCache<string, Entry>({
    max: options.maxEntries,
    ttl: options.ttlMs,
    ttlResolution: 0,
    perf: clock,
  });
  let hits = 0;
  let misses = 0;
  return {
    find(key, version, now) {
      clock.time = now;
      const hit = entries.get(key);
      if (hit !== undefined && hit.version === version) {
        hits += 1;
        return hit.bundle;
      }
      misses += 1;
      return undefined;
    },
    keep(key, version, now, bundle) {
      clock.time = now; // a computation that waited is stored as of its own request
      entries.set(key, { bundle, version });
    },
    stats: () => ({ hits, misses }),
  };
}

/**
 * The key of a pricing bundle (the pricing and refsource routes): what was asked for, by
 * product key (`k|`) or refsource id (`r|`), over which window, outlier cut and instant (none:
 * now, aged by the TTL). Bundles with extra grades are other entries (`|x`): SPEC's body stays
 * what it was.
 */
export function priceCacheKey(ref: ProductRef, query: PricingQuery): string {
  const x = `${query.extraGrades === true ? '|x' : ''}${query.currency === undefined ? '' : `|${query.currency}`}`;
  const asked = `${query.windowHours}|${query.outlierStddevs}|${query.asOf ?? ''}${x}`;
  return ref.refsourceId === undefined ? `k|${asked}|${ref.productKey}` : `r|${asked}|${ref.refsourceId}`;
}

/** The key of a snapshot bundle: the refsource id, its UTC day (by its start) and outlier cut. */
export function snapshotCacheKey(id: string, day: { start: number }, outlierStddevs: number): string {
  return `s|${day.start}|${outlierStddevs}|${id}`;
}
