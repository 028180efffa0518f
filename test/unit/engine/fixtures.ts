/** Hand-made inputs shared by the engine tests. */
import type { PricingParams } from '../../../src/domain/bundle.js';
import type { PricePoint } from '../../../src/domain/observation.js';
import type { Era, Product } from '../../../src/domain/product.js';
import { HOUR_MS } from '../../../src/domain/time.js';

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
