/** The export of every product's bundle: it reads the catalog a page at a time, over a real store. */
import { describe, expect, it } from 'vitest';
import { createPricing, EXPORT_PAGE_SIZE } from '../../src/service/pricing.js';
import { openStore } from '../../src/store/open-store.js';
import { databaseWith, testProduct } from '../_setup.js';

/** More than two pages of the export's product cursor. */
const PRODUCTS = 2 * EXPORT_PAGE_SIZE + 137;

describe('the export service', () => {
  it('reads the catalog a page at a time while it yields bundles', async () => {
    const products = Array.from({ length: PRODUCTS }, (_, i) =>
      testProduct({ productKey: `card-${String(i).padStart(5, '0')}`, refsourceId: String(100_000 + i) }),
    );
    const store = await openStore(await databaseWith(products, []));
    try {
      const pages: number[] = [];
      const pageAfter = store.products.pageAfter.bind(store.products);
      // Counting the pages read: the real reader, observed.
      (store.products as { pageAfter: typeof pageAfter }).pageAfter = async (after, limit) => {
        const page = await pageAfter(after, limit);
        pages.push(page.length);
        return page;
      };
      const bundles = createPricing(store).exportBundles({
        windowHours: 24,
        outlierStddevs: 2,
        asOf: Date.parse('2026-10-15T12:00:00Z'),
      });
      const first = await bundles.next();
      expect(pages).toEqual([EXPORT_PAGE_SIZE]);
      const keys = [(first.value as { product_key: string }).product_key];
      for await (const bundle of bundles) keys.push(bundle.product_key);
      expect(keys).toEqual(products.map((p) => p.productKey));
      expect(pages).toEqual([EXPORT_PAGE_SIZE, EXPORT_PAGE_SIZE, PRODUCTS - 2 * EXPORT_PAGE_SIZE]);
    } finally {
      await store.close();
    }
  });
});
