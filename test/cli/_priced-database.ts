/**
 * The database the price and snapshot suites read: a card with ten days of sales before
 * AS_OF (refsource id 6910) and one never sold (empty-product, refsource id 42).
 */
import { databaseWith, testProduct } from '../_setup.js';

const HOUR = 3_600_000;
export const AS_OF = '2026-10-15T12:00:00Z';
export const AS_OF_MS = Date.parse(AS_OF);
export const SOLD_KEY = 'charizard base/set é';

const base = {
  subtitle: '4/102',
  setName: 'Pokemon Base Set',
  imageUrl: 'https://img.example/charizard.jpg',
};

/** A new database (test/_setup.ts databaseWith) holding the two products and the card's sales. */
export async function pricedDatabase(): Promise<string> {
  const rows = [];
  // Ten days of hourly-ish ungraded sales around $400 and PSA 9 sales around $12,000.
  for (let h = 1; h <= 240; h += 2) {
    const observedAt = AS_OF_MS - h * HOUR;
    rows.push({
      productKey: SOLD_KEY,
      source: 'ebay',
      observedAt,
      priceMinor: 40_000 + (h % 5) * 100,
      grader: 'ungraded',
      grade: null,
      externalId: `u${h}`,
    });
    if (h % 6 === 1)
      rows.push({
        productKey: SOLD_KEY,
        source: 'ebay',
        observedAt,
        priceMinor: 1_200_000,
        grader: 'PSA',
        grade: 9,
        externalId: `g${h}`,
      });
  }
  return databaseWith(
    [
      testProduct({ ...base, productKey: SOLD_KEY, refsourceId: '6910', productName: 'Charizard' }),
      testProduct({
        ...base,
        productKey: 'empty-product',
        refsourceId: '42',
        productName: 'Nothing Sold Yet',
      }),
    ],
    rows,
  );
}
