// @module-tag sqlite-only: the bundle cache alone: no store
/** The server's bundle cache: a bundle is found only for the same data version, within the TTL on the request clock, and the bound evicts the least recently used; its keys tell apart every question asked. */
import { describe, expect, it } from 'vitest';
import type { PricingBundle } from '../../src/domain/bundle.js';
import {
  createBundleCache,
  priceCacheKey,
  snapshotCacheKey,
  type BundleCache,
} from '../../src/http/bundle-cache.js';

const T0 = Date.UTC(2026, 10, 20, 12);

/** A bundle told apart from others by its product key. */
const bundle = (productKey: string) => ({ product_key: productKey }) as unknown as PricingBundle;

/** The cached bundle, or a new one kept in its place: how the server's `bundle` (server-cache.ts) uses the cache. */
function lookUp(
  cache: BundleCache,
  key: string,
  version: number,
  now: number,
  made: string[],
): PricingBundle {
  const hit = cache.find(key, version, now);
  if (hit !== undefined) return hit;
  const computed = bundle(`computed-${made.push(key)}`);
  cache.keep(key, version, now, computed);
  return computed;
}

describe('bundle cache', () => {
  it('finds a bundle for the same version within the TTL, and nothing at a new version or past the TTL', () => {
    const cache = createBundleCache({ ttlMs: 1_000, maxEntries: 10 });
    const made: string[] = [];
    const first = lookUp(cache, 'k', 7, T0, made);
    expect(lookUp(cache, 'k', 7, T0 + 999, made)).toBe(first);
    expect(made).toHaveLength(1);
    // Another connection committed: the data version moved.
    const second = lookUp(cache, 'k', 8, T0 + 999, made);
    expect(second).not.toBe(first);
    // The request clock is what ages the entry: 1,001 ms after it was kept it is stale.
    expect(lookUp(cache, 'k', 8, T0 + 999 + 1_001, made)).not.toBe(second);
    expect(made).toHaveLength(3);
    expect(cache.stats()).toEqual({ hits: 1, misses: 3 });
  });

  it('keeps at most maxEntries, forgetting the least recently used first', () => {
    const cache = createBundleCache({ ttlMs: 60_000, maxEntries: 2 });
    const made: string[] = [];
    const a = lookUp(cache, 'a', 1, T0, made);
    lookUp(cache, 'b', 1, T0, made);
    expect(lookUp(cache, 'a', 1, T0, made)).toBe(a); // a is now the most recent
    lookUp(cache, 'c', 1, T0, made); // evicts b
    expect(made).toEqual(['a', 'b', 'c']);
    expect(lookUp(cache, 'a', 1, T0, made)).toBe(a);
    lookUp(cache, 'b', 1, T0, made);
    expect(made).toEqual(['a', 'b', 'c', 'b']);
  });

  it('ages a bundle from the request that computed it, not from when its computation came back', () => {
    const cache = createBundleCache({ ttlMs: 1_000, maxEntries: 10 });
    expect(cache.find('k', 1, T0)).toBeUndefined(); // a request at T0 misses and reads the store
    expect(cache.find('other', 1, T0 + 800)).toBeUndefined(); // another request while the read is out
    const computed = bundle('k');
    cache.keep('k', 1, T0, computed);
    expect(cache.find('k', 1, T0 + 900)).toBe(computed);
    expect(cache.find('k', 1, T0 + 1_001)).toBeUndefined();
  });

  it('keys a bundle by everything asked: product key or refsource id, window, outlier cut, instant, extra grades; a snapshot by its day', () => {
    const query = { windowHours: 24, outlierStddevs: 2 };
    const keys = [
      priceCacheKey({ productKey: '1001' }, query),
      priceCacheKey({ refsourceId: '1001' }, query),
      priceCacheKey({ productKey: '1001' }, { ...query, windowHours: 48 }),
      priceCacheKey({ productKey: '1001' }, { ...query, outlierStddevs: 3 }),
      priceCacheKey({ productKey: '1001' }, { ...query, asOf: T0 }),
      priceCacheKey({ productKey: '1001' }, { ...query, extraGrades: true }),
      snapshotCacheKey('1001', { start: T0 }, 2),
      snapshotCacheKey('1001', { start: T0 + 86_400_000 }, 2),
      snapshotCacheKey('1001', { start: T0 }, 3),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(priceCacheKey({ productKey: '1001' }, { ...query, extraGrades: false })).toBe(keys[0]);
  });
});
