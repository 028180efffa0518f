/** Hand-made inputs shared by the engine tests. */
import type { PricingParams } from '../../src/domain/bundle.js';
import type { PricePoint } from '../../src/domain/observation.js';
import type { Era, Product } from '../../src/domain/product.js';
import { HOUR_MS } from '../../src/domain/time.js';

/** The instant every test prices at: 2026-03-01T00:00:00Z. */
export const AS_OF = Date.UTC(2026, 2, 1);

export function product(era: Era = 'modern'): Product {
  return {
    productKey: 'base-set-charizard-4',
    refsourceId: '42',
    productName: 'Charizard',
    subtitle: '4/102 Holo',
    setName: 'Base Set',
    imageUrl: 'https://example.test/charizard.png',
    productType: 'single_card',
    era,
    releaseDate: '1999-01-09',
    tcgplayerId: null,
  };
}

/** A point `hoursBefore` hours before AS_OF. */
export function pt(condition: string, hoursBefore: number, priceMinor: number, source = 'ebay'): PricePoint {
  return { condition, source, observedAt: AS_OF - hoursBefore * HOUR_MS, priceMinor };
}

export function params(overrides: Partial<PricingParams> = {}): PricingParams {
  return { windowHours: 24, outlierStddevs: 2, asOf: AS_OF, ...overrides };
}

/** The observations of the worked example of docs/methodology.md §13. */
export const WORKED_EXAMPLE_POINTS: readonly PricePoint[] = [
  pt('ungraded', 20, 4600, 'ebay'),
  pt('ungraded', 12, 4800, 'mercari'),
  pt('ungraded', 8, 4500, 'ebay'),
  pt('ungraded', 4, 4650, 'mercari'),
  pt('ungraded', 2, 46000, 'ebay'),
  pt('psa10', 22, 30000),
  pt('psa10', 12, 32000),
  pt('psa10', 6, 31000),
  pt('psa9', 5, 14000),
  pt('cgc10', 3, 180000),
];
