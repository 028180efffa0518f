/**
 * The rare sales of sparse products (a sale every few weeks, no price-guide coverage), on a
 * schedule fixed in absolute time: a renewal process from an origin date, so the sales of a
 * period are the same whatever the end of the generated history.
 */
import { DAY_MS } from '../src/domain/time.js';
import { conditionSalesRate, pickWeighted, productConditions, SALE_NOISE } from './feed-model.js';
import { derivePrng } from './prng.js';
import type { ModelProduct } from './sample-products.js';

/** A sale placed in advance, with its price noise already drawn (a factor on the model price). */
export interface ScheduledSale {
  product: number;
  condition: number;
  at: number;
  noise: number;
}

/** A sold copy can be listed up to this far from its schedule point, so one point may give two sales a day apart. */
const JITTER_DAYS = 0.4;

/**
 * Sales of a sparse product in [start, end): points `gapDays` apart (drawn uniformly)
 * from `origin`, one copy at each (two a quarter of the time), each in a condition drawn by
 * sales rate. Every point draws the same numbers whatever `start` and `end` are.
 */
export function sparseSales(
  p: ModelProduct,
  index: number,
  seed: string,
  range: { origin: number; start: number; end: number },
): ScheduledSale[] {
  if (p.liquidity.kind !== 'sparse') return [];
  const [minGap, maxGap] = p.liquidity.gapDays;
  const rng = derivePrng(seed, `sparse:${p.key}`);
  const conditions = productConditions(p).filter((c) => conditionSalesRate(p, c, 1) > 0);
  const cumulative = new Float64Array(conditions.length);
  let acc = 0;
  conditions.forEach((c, i) => (cumulative[i] = acc += conditionSalesRate(p, c, 1)));
  const sales: ScheduledSale[] = [];
  for (
    let point = range.origin + rng.uniform(0, maxGap) * DAY_MS;
    point - JITTER_DAYS * DAY_MS < range.end;
    point += rng.uniform(minGap, maxGap) * DAY_MS
  ) {
    const copies = rng.next() < 0.25 ? 2 : 1;
    for (let k = 0; k < copies; k++) {
      const at = Math.floor((point + rng.uniform(-JITTER_DAYS, JITTER_DAYS) * DAY_MS) / 1000) * 1000;
      const condition = conditions[pickWeighted(cumulative, conditions.length, rng)]!;
      const noise = Math.exp(SALE_NOISE[p.era] * rng.normal());
      if (at >= range.start && at < range.end) sales.push({ product: index, condition, at, noise });
    }
  }
  return sales;
}

/** Scheduled sales of several products, by time (then product). */
export function sortedSales(sales: ScheduledSale[]): ScheduledSale[] {
  return sales.sort((a, b) => a.at - b.at || a.product - b.product);
}
