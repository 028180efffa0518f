// @module-tag sqlite-only: the resolver over a SQLite catalog: the writer's lookups run on both stores in the
// store contract
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../../src/domain/product.js';
import { ProductResolver, RESOLVED_CACHE_LIMIT } from '../../../src/ingest/validate/product-resolver.js';
import { openStore } from '../../../src/store/open-store.js';
import type { IngestWriter, Store } from '../../../src/store/store.js';
import { writeProducts } from '../../_store.js';

describe('resolving TCGplayer rows by (tcgplayer_id, printing)', () => {
  let store: Store;
  const product = (productKey: string, tcgplayerId: string, printing: string | null): Product => ({
    productKey,
    refsourceId: null,
    productName: productKey,
    subtitle: '',
    setName: '',
    imageUrl: '',
    productType: 'single_card',
    era: 'modern',
    releaseDate: null,
    tcgplayerId,
    printing,
  });

  let lookup: IngestWriter;
  beforeAll(async () => {
    store = await openStore(':memory:', { create: true });
    await writeProducts(store, [
      product('zapdos', '1', null),
      product('zapdos-reverse', '1', 'Reverse Holofoil'),
      product('lugia-1st', '2', '1st Edition'),
      product('lugia-unlimited', '2', 'Unlimited Holofoil'),
    ]);
    // The lookups a run resolves records with: a dry run's writer writes nothing.
    lookup = await store.openIngest({ dryRun: true });
  });
  afterAll(async () => {
    await lookup.close();
    await store.close();
  });

  const keyOf = (resolver: ProductResolver, tcgplayerId: string, printing?: string) => {
    const found = resolver.resolve({ productKey: undefined, refsourceId: undefined, tcgplayerId, printing });
    return 'reason' in found ? found.skip : found.productKey;
  };

  it('puts each printing on its own product and never on another printing', () => {
    const resolver = new ProductResolver(lookup.products);
    expect(keyOf(resolver, '1', 'Reverse Holofoil')).toBe('zapdos-reverse');
    expect(keyOf(resolver, '1', 'Holofoil')).toBe('zapdos'); // the regular printing: the product without a printing
    expect(keyOf(resolver, '1', '1st Edition Holofoil')).toBe('no 1st Edition Holofoil product');
    expect(keyOf(resolver, '2', '1st Edition Holofoil')).toBe('lugia-1st');
    expect(keyOf(resolver, '2', 'Unlimited Holofoil')).toBe('lugia-unlimited');
    expect(keyOf(resolver, '2', 'Reverse Holofoil')).toBe('no Reverse Holofoil product');
    expect(keyOf(resolver, '9', 'Normal')).toBe('unmapped');
  });

  it('lets only one regular printing land on a product without a printing in a run', () => {
    const resolver = new ProductResolver(lookup.products);
    expect(keyOf(resolver, '1', 'Holofoil')).toBe('zapdos');
    expect(keyOf(resolver, '1', 'Holofoil')).toBe('zapdos');
    expect(keyOf(resolver, '1', 'Normal')).toBe('no Normal product');
  });

  it('resolves a tcgplayer_id without printing to the product without one', () => {
    expect(keyOf(new ProductResolver(lookup.products), '1')).toBe('zapdos');
    expect(keyOf(new ProductResolver(lookup.products), '2')).toBe('unmapped');
  });

  // Issue 35.4: every answer kept for the run grew an ingest naming 300,000 products by tens of MiB.
  describe('keeps at most RESOLVED_CACHE_LIMIT answers', () => {
    const byKey = (resolver: ProductResolver, productKey: string) => {
      const found = resolver.resolve({ productKey, refsourceId: undefined, tcgplayerId: undefined });
      return 'reason' in found ? found.skip : `${found.productKey} ${found.id}`;
    };
    const nameMany = (resolver: ProductResolver) => {
      for (let i = 0; i < RESOLVED_CACHE_LIMIT; i += 1)
        expect(byKey(resolver, `missing-${i}`)).toBe('unmapped');
    };

    it('looks a product up once while it is among the last answers, again once it was dropped', () => {
      let lookups = 0;
      const counting = {
        ...lookup.products,
        findByKey: (key: string) => {
          if (key === 'zapdos') lookups += 1;
          return lookup.products.findByKey(key);
        },
      };
      const resolver = new ProductResolver(counting);
      const zapdos = byKey(resolver, 'zapdos');
      expect(byKey(resolver, 'zapdos')).toBe(zapdos);
      expect(lookups).toBe(1);
      nameMany(resolver);
      expect(byKey(resolver, 'zapdos')).toBe(zapdos);
      expect(lookups).toBe(2);
    });

    it('never drops a product a dry run assumed: it exists nowhere else', () => {
      const resolver = new ProductResolver(lookup.products);
      resolver.assume([product('dry-run-only', '7', null)]);
      nameMany(resolver);
      expect(byKey(resolver, 'dry-run-only')).toBe('dry-run-only -1');
    });
  });
});
