/**
 * A collection's value over time (`oracle value --history`): at each instant of a request, the
 * sum of its lines' unit prices times their quantities, each price the slot of its product's
 * bundle at that instant (one series read per product, whatever its number of lines, see
 * Pricing.priceSeries). Prices come from the bundles, never from here; sums are exact cents.
 */
import type { CollectionRow, RowProblem } from '../domain/collection.js';
import { isExtraCondition } from '../domain/conditions.js';
import type { HistoryRequest } from '../domain/history.js';
import { toIsoUtc } from '../domain/time.js';
import type { StoredProduct } from '../store/store.js';
import { slotOf } from './history.js';
import { exactCents, productOfRow, type ProductLookup } from './valuation.js';
import type { PricingBundle, PricingParams } from '../domain/bundle.js';

/** The pricing parameters of a series (pricing.ts SeriesParams, not imported: pricing.ts imports this module). */
type SeriesParams = Omit<PricingParams, 'asOf'>;

export interface ValuationPoint {
  at: string;
  /** The sum over the lines priced at this instant. */
  value_minor: number;
  priced_lines: number;
}

export interface ValuationHistory {
  from: string;
  to: string;
  every: string;
  /** Lines of known products (the others are problems). */
  lines: number;
  /** The sum of the lines' cost basis, over the lines that give one; null when none does. */
  cost_basis_minor: number | null;
  points: ValuationPoint[];
  /** From the first point to the last: null unless both have every line priced. */
  change_minor: number | null;
  /** Percent of the first point's value, one decimal. */
  change_pct: number | null;
  /** The last point's value less the cost basis, when every line is priced there and gives one. */
  gain_minor: number | null;
  problems: RowProblem[];
}

export interface SeriesLookup extends Pick<ProductLookup, 'productByKey' | 'productByRefsource'> {
  priceSeries(
    product: StoredProduct,
    params: SeriesParams,
    instants: readonly number[],
    id: string | null,
  ): Promise<PricingBundle[]>;
}

export async function valueHistory(
  lookup: SeriesLookup,
  rows: readonly CollectionRow[],
  problems: readonly RowProblem[],
  params: SeriesParams,
  request: HistoryRequest,
): Promise<ValuationHistory> {
  const failed: RowProblem[] = [...problems];
  const series = new Map<number, PricingBundle[]>();
  const lines: { row: CollectionRow; bundles: PricingBundle[] }[] = [];
  for (const row of rows) {
    const product = await productOfRow(lookup, row, failed);
    if (product === null) continue;
    // An extra grade is priced from its own sales of the 30 days alone, with no series of bundles to read it from.
    if (isExtraCondition(row.condition)) {
      failed.push({
        line: row.line,
        reason: `${row.condition} is an extra grade, which is valued at one instant only, not over a history`,
      });
      continue;
    }
    let bundles = series.get(product.id);
    if (!bundles)
      series.set(product.id, (bundles = await lookup.priceSeries(product, params, request.instants, null)));
    lines.push({ row, bundles });
  }
  failed.sort((a, b) => a.line - b.line);
  const points = request.instants.map((t, i) => {
    let value = 0n;
    let priced = 0;
    for (const { row, bundles } of lines) {
      const price = slotOf(bundles[i]!, row.condition).price_minor;
      if (price === null) continue;
      value += BigInt(price) * BigInt(row.quantity);
      priced += 1;
    }
    return { at: toIsoUtc(t), value_minor: exactCents(value), priced_lines: priced };
  });
  const withCost = lines.filter((l) => l.row.costBasisMinor !== null);
  const cost =
    withCost.length === 0
      ? null
      : exactCents(withCost.reduce((s, l) => s + BigInt(l.row.costBasisMinor!), 0n));
  const complete = (p: ValuationPoint | undefined) =>
    p !== undefined && lines.length > 0 && p.priced_lines === lines.length;
  const first = points[0];
  const last = points.at(-1);
  const change = complete(first) && complete(last) ? last!.value_minor - first!.value_minor : null;
  return {
    from: toIsoUtc(request.instants[0]!),
    to: toIsoUtc(request.instants.at(-1)!),
    every: request.every,
    lines: lines.length,
    cost_basis_minor: cost,
    points,
    change_minor: change,
    change_pct:
      change === null || first!.value_minor === 0
        ? null
        : Math.round((change / first!.value_minor) * 1000) / 10,
    gain_minor:
      cost !== null && withCost.length === lines.length && complete(last)
        ? exactCents(BigInt(last!.value_minor) - BigInt(cost))
        : null,
    problems: failed,
  };
}
