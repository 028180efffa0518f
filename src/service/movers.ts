/**
 * The catalog's biggest movers: the products with enough observations of a slot's condition
 * in the span (the store's range count), each priced at the span's start and end by
 * `priceSeries` (one read per product, the bundles `oracle price` gives at those instants), then
 * ranked by their change in percent. Prices come from the bundles, never from here.
 */
import type { ConvertedFigures, PricingParams } from '../domain/bundle.js';
import { MOVERS_MIN_OBSERVATIONS, type Mover, type MoversBody } from '../domain/movers.js';
import { InvalidParameterError } from '../domain/errors.js';
import { EARLIEST_MS, toIsoUtc, YEAR_RANGE } from '../domain/time.js';
import type { Store } from '../store/store.js';
import { slotOf } from './history.js';
import type { Pricing } from './pricing.js';

export interface MoversQuery extends PricingParams {
  /** A slot of the matrix or `ungraded`. */
  condition: string;
  /** As given (`7d`), and its length. */
  span: string;
  spanMs: number;
  limit: number;
}

export async function findMovers(store: Store, pricing: Pricing, query: MoversQuery): Promise<MoversBody> {
  const { condition, asOf, spanMs, limit } = query;
  const from = asOf - spanMs;
  if (from < EARLIEST_MS)
    throw new InvalidParameterError(
      'span',
      `the span reaches back before ${toIsoUtc(EARLIEST_MS)}, the earliest instant oracle takes (years ${YEAR_RANGE.min} to ${YEAR_RANGE.max})`,
    );
  const { windowHours, outlierStddevs, currency } = query;
  const converter = await pricing.converter(query);
  const params = { windowHours, outlierStddevs, ...(converter !== null && { currency }) };
  const figures: (ConvertedFigures | undefined)[] = [];
  const candidates = await store.products.activeIn(condition, from, asOf, MOVERS_MIN_OBSERVATIONS);
  const moved: Mover[] = [];
  for (const product of candidates) {
    const [then, now] = await pricing.priceSeries(product, params, [from, asOf], product.refsourceId);
    const before = slotOf(then!, condition).price_minor;
    const after = slotOf(now!, condition).price_minor;
    if (before === null || after === null) continue;
    const change = after - before;
    const ends = [then!, now!].map(
      (b) => slotOf(b, condition).meta.converted as ConvertedFigures | undefined,
    );
    figures.push(...ends);
    moved.push({
      product_key: product.productKey,
      product_name: product.productName,
      set_name: product.setName,
      refsource_id: product.refsourceId,
      observations: product.observations,
      from_minor: before,
      to_minor: after,
      change_minor: change,
      change_pct: Math.round((change / before) * 1000) / 10,
      ...(converter !== null && { converted: movedIn(ends[0]?.price_minor, ends[1]?.price_minor) }),
    });
  }
  // Ties by key, so the list is the same on every store.
  const byKey = (a: Mover, b: Mover) =>
    a.product_key < b.product_key ? -1 : a.product_key > b.product_key ? 1 : 0;
  const exact = (m: Mover) => m.change_minor / m.from_minor;
  const gainers = moved.filter((m) => m.change_minor > 0).sort((a, b) => exact(b) - exact(a) || byKey(a, b));
  const losers = moved.filter((m) => m.change_minor < 0).sort((a, b) => exact(a) - exact(b) || byKey(a, b));
  return {
    condition,
    span: query.span,
    from: toIsoUtc(from),
    to: toIsoUtc(asOf),
    min_observations: MOVERS_MIN_OBSERVATIONS,
    candidates: candidates.length,
    priced: moved.length,
    limit,
    gainers: gainers.slice(0, limit),
    losers: losers.slice(0, limit),
    ...(converter !== null && { converted: converter.rates(figures) }),
  };
}

/** The move in the currency: its ends each at their own days' rates, so the currency's own move is in it. */
function movedIn(from: number | null | undefined, to: number | null | undefined): Mover['converted'] {
  if (from == null || to == null || from === 0) return null;
  return {
    from_minor: from,
    to_minor: to,
    change_minor: to - from,
    change_pct: Math.round(((to - from) / from) * 1000) / 10,
  };
}
