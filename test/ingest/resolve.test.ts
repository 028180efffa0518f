import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalPrinting, landingPrintings } from '../../src/domain/printing.js';
import type { Product } from '../../src/domain/product.js';
import { csvRowHandler } from '../../src/ingest/csv-rows.js';
import { MapperBugError } from '../../src/ingest/errors.js';
import { ProductResolver } from '../../src/ingest/resolve.js';
import { openStore, type Store } from '../../src/store/store.js';

describe('printings', () => {
  it.each([
    ['reverse holofoil', 'Reverse Holofoil'],
    ['  1st   edition ', '1st Edition'],
    ['UNLIMITED HOLOFOIL', 'Unlimited Holofoil'],
    ['Foil', 'Foil'],
    ['   ', null],
  ])('stores %j as %j', (text, printing) => {
    expect(canonicalPrinting(text)).toBe(printing);
  });

  it.each([
    ['Normal', ['Normal', null]],
    ['Holofoil', ['Holofoil', null]],
    ['Reverse Holofoil', ['Reverse Holofoil']],
    ['1st Edition', ['1st Edition']],
    ['1st Edition Holofoil', ['1st Edition Holofoil', '1st Edition']],
    ['1st Edition Normal', ['1st Edition Normal', '1st Edition']],
    ['Unlimited Normal', ['Unlimited Normal', null]],
    ['Unlimited', ['Unlimited', null]],
    ['Unlimited Holofoil', ['Unlimited Holofoil', null]],
    ['Foil', ['Foil']],
  ])('lands a TCGplayer row of %j on the catalog printings %j, in that order', (subType, landings) => {
    expect(landingPrintings(subType)).toEqual(landings);
  });
});

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

  beforeAll(async () => {
    store = await openStore(':memory:', { create: true });
    store.products.upsertMany([
      product('zapdos', '1', null),
      product('zapdos-reverse', '1', 'Reverse Holofoil'),
      product('lugia-1st', '2', '1st Edition'),
      product('lugia-unlimited', '2', 'Unlimited Holofoil'),
    ]);
  });
  afterAll(() => store.close());

  const keyOf = (resolver: ProductResolver, tcgplayerId: string, printing?: string) => {
    const found = resolver.resolve({ productKey: undefined, refsourceId: undefined, tcgplayerId, printing });
    return 'reason' in found ? found.skip : found.productKey;
  };

  it('puts each printing on its own product and never on another printing', () => {
    const resolver = new ProductResolver(store.products);
    expect(keyOf(resolver, '1', 'Reverse Holofoil')).toBe('zapdos-reverse');
    expect(keyOf(resolver, '1', 'Holofoil')).toBe('zapdos'); // the regular printing: the product without a printing
    expect(keyOf(resolver, '1', '1st Edition Holofoil')).toBe('no 1st Edition Holofoil product');
    expect(keyOf(resolver, '2', '1st Edition Holofoil')).toBe('lugia-1st');
    expect(keyOf(resolver, '2', 'Unlimited Holofoil')).toBe('lugia-unlimited');
    expect(keyOf(resolver, '2', 'Reverse Holofoil')).toBe('no Reverse Holofoil product');
    expect(keyOf(resolver, '9', 'Normal')).toBe('unmapped');
  });

  it('lets only one regular printing land on a product without a printing in a run', () => {
    const resolver = new ProductResolver(store.products);
    expect(keyOf(resolver, '1', 'Holofoil')).toBe('zapdos');
    expect(keyOf(resolver, '1', 'Holofoil')).toBe('zapdos');
    expect(keyOf(resolver, '1', 'Normal')).toBe('no Normal product');
  });

  it('resolves a tcgplayer_id without printing to the product without one', () => {
    expect(keyOf(new ProductResolver(store.products), '1')).toBe('zapdos');
    expect(keyOf(new ProductResolver(store.products), '2')).toBe('unmapped');
  });
});

describe('a mapper that fails', () => {
  it('stops the run with a MapperBugError naming the row, never rejecting the row', () => {
    const rejected: string[] = [];
    const handler = csvRowHandler(
      { source: 'prices.csv', format: 'tcgplayer', kind: undefined, observedAt: '2026-11-20T20:00:00Z', subtype: undefined, now: Date.UTC(2026, 10, 21) },
      {
        line: 0,
        observation: () => {
          throw new TypeError("Cannot read properties of undefined (reading 'price')");
        },
        product: () => {},
        skip: () => {},
        rejectUnread: (_line, reason) => rejected.push(reason),
      },
      () => {},
    );
    handler(['productId', 'marketPrice', 'subTypeName'], 1);
    handler(['x', '1.00', 'Normal'], 2); // a bad row is a reject
    expect(rejected).toEqual(['productId must be digits (got "x")']);
    const bug = () => handler(['1', '1.00', 'Normal'], 3);
    expect(bug).toThrow(MapperBugError);
    expect(bug).toThrow(/^prices\.csv:3: the tcgplayer format failed on this record \(a bug in oracle, not in the file\): TypeError: Cannot read/);
    expect(rejected).toHaveLength(1);
  });
});
