/**
 * The products a generation run covers: the real catalog (or its first N entries), then
 * synthetic variants of the liquid real products when more are asked for (scale mode).
 */
import type { Era } from '../src/domain/product.js';
import type { SampleProduct } from './products.js';
import { eraOf, SAMPLE_PRODUCTS } from './products.js';
import { derivePrng } from './prng.js';

/** A product ready for the generator: catalog fields plus its market parameters. */
export interface ModelProduct extends Pick<
  SampleProduct,
  'key' | 'refsourceId' | 'name' | 'subtitle' | 'setName' | 'productType' | 'releaseDate' | 'liquidity'
> {
  era: Era;
  /** Ungraded price in cents: the level on PRICE_ANCHOR in the sample, at the end of the history in scale mode. */
  ungradedMinor: number;
  /** PSA 10 price over ungraded price; null for sealed products. */
  gemRatio: number | null;
  /** Pokemon and Magic products also get a TCGplayer-style daily market price when modern. */
  tcgplayer: boolean;
}

/** Image URLs are plausible but never fetched: the `.example` domain is reserved. */
export function imageUrlFor(productKey: string): string {
  return `https://images.oracle-cards.example/products/${productKey}.jpg`;
}

function fromSample(p: SampleProduct): ModelProduct {
  const era = eraOf(p);
  return {
    key: p.key,
    refsourceId: p.refsourceId,
    name: p.name,
    subtitle: p.subtitle,
    setName: p.setName,
    productType: p.productType,
    era,
    releaseDate: p.releaseDate,
    liquidity: p.liquidity,
    ungradedMinor: Math.round(p.ungradedUsd * 100),
    gemRatio: p.psa10Usd === null ? null : p.psa10Usd / p.ungradedUsd,
    tcgplayer: era === 'modern' && (p.game === 'pokemon' || p.game === 'mtg'),
  };
}

/** Synthetic variants start at this refsource id: 8 digits, above every real (6-7 digit) id. */
const VARIANT_REFSOURCE_BASE = 90_000_000;

/**
 * The first `count` products: the real catalog in order, then variants `<key>-v<n>` of the
 * liquid real products with their price and liquidity scaled by seeded random factors.
 */
export function modelProducts(count: number, seed: string): ModelProduct[] {
  const real = SAMPLE_PRODUCTS.slice(0, count).map(fromSample);
  const liquid = SAMPLE_PRODUCTS.filter((p) => p.liquidity.kind === 'flow').map(fromSample);
  const products = real;
  for (let n = 1; products.length < count; n++) {
    const base = liquid[(n - 1) % liquid.length]!;
    const rng = derivePrng(seed, `variant:${n}`);
    const priceFactor = Math.min(5, Math.max(0.2, Math.exp(0.5 * rng.normal())));
    const liquidityFactor = Math.min(5, Math.max(0.1, Math.exp(0.6 * rng.normal())));
    const salesPerDay = base.liquidity.kind === 'flow' ? base.liquidity.salesPerDay : 0;
    products.push({
      ...base,
      key: `${base.key}-v${n}`,
      refsourceId: String(VARIANT_REFSOURCE_BASE + n),
      subtitle: `${base.subtitle} (variant ${n})`,
      liquidity: { kind: 'flow', salesPerDay: salesPerDay * liquidityFactor },
      ungradedMinor: Math.max(100, Math.round(base.ungradedMinor * priceFactor)),
    });
  }
  return products;
}
