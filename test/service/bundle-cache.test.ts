/** The bundle cache: a bundle is reused only for the same data version, within the TTL on the request clock, and the bound evicts the least recently used. */
import { describe, expect, it } from 'vitest';
import type { PricingBundle } from '../../src/domain/bundle.js';
import { createBundleCache } from '../../src/service/bundle-cache.js';

const T0 = Date.UTC(2026, 10, 20, 12);

/** A compute function that makes a new bundle object per call and counts the calls. */
function computer() {
  let calls = 0;
  const compute = () => {
    calls += 1;
    return { product_key: `computed-${calls}` } as unknown as PricingBundle;
  };
  return { compute, calls: () => calls };
}

describe('bundle cache', () => {
  it('reuses a bundle for the same version within the TTL, and computes anew at a new version or past the TTL', () => {
    const cache = createBundleCache({ ttlMs: 1_000, maxEntries: 10 });
    const { compute, calls } = computer();
    const first = cache.get('k', 7, T0, compute);
    expect(cache.get('k', 7, T0 + 999, compute)).toBe(first);
    expect(calls()).toBe(1);
    // Another connection committed: the data version moved.
    const second = cache.get('k', 8, T0 + 999, compute);
    expect(second).not.toBe(first);
    expect(calls()).toBe(2);
    // The request clock is what ages the entry: 1,001 ms after it was computed it is stale.
    expect(cache.get('k', 8, T0 + 999 + 1_001, compute)).not.toBe(second);
    expect(calls()).toBe(3);
    expect(cache.stats()).toEqual({ hits: 1, misses: 3 });
  });

  it('keeps at most maxEntries, forgetting the least recently used first', () => {
    const cache = createBundleCache({ ttlMs: 60_000, maxEntries: 2 });
    const { compute, calls } = computer();
    const a = cache.get('a', 1, T0, compute);
    cache.get('b', 1, T0, compute);
    expect(cache.get('a', 1, T0, compute)).toBe(a); // a is now the most recent
    cache.get('c', 1, T0, compute); // evicts b
    expect(calls()).toBe(3);
    expect(cache.get('a', 1, T0, compute)).toBe(a);
    cache.get('b', 1, T0, compute);
    expect(calls()).toBe(4);
  });

  it('forgets everything on clear', () => {
    const cache = createBundleCache({ ttlMs: 60_000, maxEntries: 2 });
    const { compute } = computer();
    const a = cache.get('a', 1, T0, compute);
    cache.clear();
    expect(cache.get('a', 1, T0, compute)).not.toBe(a);
  });

  it('stores a bundle computed from a store read once it is there, and answers it at once after; a failed computation is not stored', async () => {
    const cache = createBundleCache({ ttlMs: 1_000, maxEntries: 10 });
    const { compute, calls } = computer();
    let release!: () => void;
    const readDone = new Promise<void>((resolve) => (release = resolve));
    const read = async () => {
      await readDone; // a computation that waits for the store
      return compute();
    };
    const pending = cache.get('k', 1, T0, read);
    expect(pending).toBeInstanceOf(Promise);
    cache.get('other', 1, T0 + 800, compute); // another request while the read is out
    release();
    const bundle = await pending;
    const hit = cache.get('k', 1, T0 + 900, read);
    expect(hit).not.toBeInstanceOf(Promise);
    expect(hit).toBe(bundle);
    // Aged from the request that computed it (T0), not from the request before it came back.
    expect(cache.get('k', 1, T0 + 1_001, compute)).not.toBe(bundle);
    expect(calls()).toBe(3);

    const failing = () => Promise.reject(new Error('database unavailable'));
    await expect(cache.get('f', 1, T0, failing)).rejects.toThrow('database unavailable');
    expect(cache.get('f', 1, T0, compute)).not.toBeInstanceOf(Promise);
    expect(calls()).toBe(4);
  });
});
