/**
 * Seeding a store in tests through its own interface (the ingest writer `oracle ingest`
 * uses), so the same seed runs on any store.
 */
import { conditionKey } from '../src/domain/conditions.js';
import type { Product } from '../src/domain/product.js';
import type { InsertResult, ResolvedObservation, Store, StoredProduct } from '../src/store/store.js';

/** Creates or updates `products` in one committed batch. */
export async function writeProducts(store: Store, products: readonly Product[]): Promise<void> {
  const writer = await store.openIngest({ dryRun: false });
  try {
    writer.upsertProducts(products);
    await writer.commit();
  } finally {
    await writer.close();
  }
}

/** Inserts `rows` in one committed batch; what was new and what was already stored. */
export async function writeObservations(store: Store, rows: readonly ResolvedObservation[]): Promise<InsertResult> {
  const writer = await store.openIngest({ dryRun: false });
  try {
    for (const o of rows) {
      writer.insert(o.productId, conditionKey(o.grader, o.grade), o.observedAt, o.priceMinor, o.source, o.grader, o.grade, o.externalId ?? '');
    }
    return await writer.commit();
  } finally {
    await writer.close();
  }
}

/** The stored product of `productKey` (the test fails loudly when it is missing). */
export async function storedProduct(store: Store, productKey: string): Promise<StoredProduct> {
  const product = await store.products.findByKey(productKey);
  if (!product) throw new Error(`no product ${productKey} in the test store`);
  return product;
}
