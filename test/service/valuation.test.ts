// @module-tag sqlite-only: interval arithmetic on bundles: oracle value runs on both stores in
// cli/value.test.ts
/**
 * How `oracle value` combines line intervals, on real bundles from a real SQLite file. The
 * bundles here get a known interval (±10 %) set on their slots, or none, in place of the
 * engine's meta.confidence: that is the input valuation.ts reads.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PricingBundle } from '../../src/domain/bundle.js';
import { parseCollectionCsv } from '../../src/domain/collection.js';
import { createPricing } from '../../src/service/pricing.js';
import { valueCollection } from '../../src/service/valuation.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { tempDir } from '../_setup.js';
import { writeObservations, writeProducts } from '../_store.js';

const HOUR = 3_600_000;
const AT = Date.parse('2026-10-15T12:00:00Z');
let store: Store;

beforeAll(async () => {
  store = await openStore(join(tempDir(), 'oracle.db'), { create: true });
  const base = {
    subtitle: '',
    setName: 'Base Set',
    imageUrl: '',
    productType: 'single_card',
    era: 'vintage',
    releaseDate: null,
    tcgplayerId: null,
  } as const;
  await writeProducts(store, [
    { ...base, productKey: 'a', refsourceId: '1', productName: 'A' },
    { ...base, productKey: 'b', refsourceId: '2', productName: 'B' },
  ]);
  const ids = [(await store.products.findByKey('a'))!.id, (await store.products.findByKey('b'))!.id];
  const rows = ['a', 'b'].flatMap((key, k) => {
    const productId = ids[k]!;
    return Array.from({ length: 10 }, (_, i) => ({
      productId,
      productKey: key,
      source: 'ebay',
      observedAt: AT - (i + 1) * HOUR,
      priceMinor: (k + 1) * 10_000,
      grader: 'ungraded',
      grade: null,
      externalId: `${key}${i}`,
    }));
  });
  await writeObservations(store, rows);
});
afterAll(async () => await store.close());

/** The real pricing, its bundles' ungraded slots given an 80% interval of ±10%. */
function withIntervals(only?: string) {
  const oracle = createPricing(store);
  return {
    ...oracle,
    price: async (...args: Parameters<typeof oracle.price>): Promise<PricingBundle> => {
      const bundle = await oracle.price(...args);
      if (only !== undefined && bundle.product_key !== only) {
        // A slot without an interval, as a last-known or older bundle may be: drop the engine's.
        const { confidence: _dropped, ...meta } = bundle.ungraded.meta;
        return { ...bundle, ungraded: { ...bundle.ungraded, meta } };
      }
      const p = bundle.ungraded.price_minor!;
      return {
        ...bundle,
        ungraded: {
          ...bundle.ungraded,
          meta: {
            ...bundle.ungraded.meta,
            confidence: { level: 0.8, low_minor: p - p / 10, high_minor: p + p / 10 },
          },
        },
      };
    },
  };
}

const csv = 'product_key,condition,quantity,cost_basis_minor\na,ungraded,2,15000\nb,ungraded,3,\n';
const params = { windowHours: 24, outlierStddevs: 2, asOf: AT };

describe('valueCollection', () => {
  it("scales each line's interval by its quantity and sums lows and highs for the total", async () => {
    const { rows, problems } = parseCollectionCsv(csv, 'c.csv');
    const v = await valueCollection(withIntervals(), rows, problems, params);
    expect(
      v.lines.map((l) => [
        l.unit_price_minor,
        l.unit_low_minor,
        l.unit_high_minor,
        l.subtotal_low_minor,
        l.subtotal_high_minor,
      ]),
    ).toEqual([
      [10_000, 9_000, 11_000, 18_000, 22_000],
      [20_000, 18_000, 22_000, 54_000, 66_000],
    ]);
    expect(v.total).toEqual({
      value_minor: 80_000,
      low_minor: 72_000,
      high_minor: 88_000,
      level: 0.8,
      priced_lines: 2,
      unpriced_lines: 0,
      cost_basis_minor: 15_000,
      gain_minor: 5_000,
      gain_pct: 33.3,
    });
  });

  it('gives no total interval when a priced line has none', async () => {
    const { rows, problems } = parseCollectionCsv(csv, 'c.csv');
    const v = await valueCollection(withIntervals('a'), rows, problems, params);
    expect(v.lines[0]!.subtotal_low_minor).toBe(18_000);
    expect(v.lines[1]!.subtotal_low_minor).toBeNull();
    expect(v.total.low_minor).toBeNull();
    expect(v.total.high_minor).toBeNull();
    expect(v.total.value_minor).toBe(80_000);
  });
});
