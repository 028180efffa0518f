// @module-tag sqlite-only: the resolver against a loopback upstream: no store
/**
 * The upstream resolver against a real upstream on loopback: concurrent askers of one id share
 * one call, healthy answers are reused until their TTL (on the resolver's clock), failures never.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NoCatalogMappingError } from '../../src/domain/errors.js';
import { createUpstreamResolver } from '../../src/service/upstream-resolver.js';
import type { StoredProduct } from '../../src/store/store.js';
import { createRefsourceClient } from '../../src/upstream/refsource-client.js';
import { fakeUpstream, type FakeUpstream } from '../http/_helpers.js';

const PRODUCT = { productKey: 'pokemon-zapdos', refsourceId: '1001' } as StoredProduct;
const findLocal = async (id: string) => (id === '1001' ? PRODUCT : undefined);

let upstream: FakeUpstream;
const statuses = new Map<string, number>();
beforeAll(async () => {
  upstream = await fakeUpstream((id) => statuses.get(id) ?? 200);
});
afterEach(() => {
  upstream.calls.length = 0;
  upstream.delayMs = 0;
  statuses.clear();
});
afterAll(() => upstream.close());

function resolver(clock = { now: Date.now() }) {
  return createUpstreamResolver(
    // A deadline no loaded machine reaches: this file tests sharing and reuse, not deadlines.
    createRefsourceClient({ urlTemplate: upstream.template, deadlineMs: 30_000 }),
    {
      answerTtlMs: 60_000,
      now: () => clock.now,
    },
  );
}

describe('upstream resolver', () => {
  it('makes one upstream call for many concurrent questions about one id', async () => {
    upstream.delayMs = 100;
    const r = resolver();
    const results = await Promise.all(Array.from({ length: 8 }, () => r.resolve('1001', findLocal)));
    expect(results.every((res) => res.product === PRODUCT && res.upstream === null)).toBe(true);
    expect(upstream.calls).toHaveLength(1);
    await r.close();
  });

  it('reuses a healthy answer until its TTL on the resolver clock, then asks again', async () => {
    const clock = { now: Date.UTC(2026, 10, 20) };
    const r = resolver(clock);
    await r.resolve('1001', findLocal);
    clock.now += 59_000;
    await r.resolve('1001', findLocal);
    expect(upstream.calls).toHaveLength(1);
    clock.now += 2_000;
    await r.resolve('1001', findLocal);
    expect(upstream.calls).toHaveLength(2);
    await r.close();
  });

  it('shares a failure among concurrent askers but never reuses it: the next question calls again', async () => {
    statuses.set('1001', 503);
    upstream.delayMs = 100;
    const r = resolver();
    const results = await Promise.all(Array.from({ length: 4 }, () => r.resolve('1001', findLocal)));
    expect(results.map((res) => res.upstream)).toEqual([
      'unavailable',
      'unavailable',
      'unavailable',
      'unavailable',
    ]);
    expect(upstream.calls).toHaveLength(1);
    statuses.clear();
    expect((await r.resolve('1001', findLocal)).upstream).toBeNull();
    expect(upstream.calls).toHaveLength(2);
    expect(r.stats()).toMatchObject({ found: 1, failed: 1 });
    await r.close();
  });

  it('still lets the local catalog decide after a healthy answer: no mapping is NoCatalogMappingError', async () => {
    const r = resolver();
    await expect(r.resolve('777', findLocal)).rejects.toBeInstanceOf(NoCatalogMappingError);
    await r.close();
  });
});
