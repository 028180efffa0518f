/**
 * Pure generators of the sample data: catalog rows and a deterministic observation history.
 * No I/O and no clock: the end of the history and the seed are inputs, so the same options
 * always give the same rows in the same order.
 *
 * Two modes share the market model (feed-model.ts, market-model.ts):
 * - the sample (default): a function of absolute time (stable-history.ts), so a later end
 *   repeats the overlapping rows exactly and only adds the new ones;
 * - scale mode, when a total or a hot-product count is asked for (exact-history.ts): exact
 *   row counts for benchmarks, planned from the end, so a later end gives other rows.
 */
import { DAY_MS } from '../src/domain/time.js';
import type { Era, ProductType } from '../src/domain/product.js';
import type { ObservationDay } from './day-buffer.js';
import { exactDays, planExact, type ExactPlan } from './exact-history.js';
import { SOURCES } from './feed-model.js';
import type { PlanBase } from './plan-base.js';
import { SAMPLE_CONDITIONS, type SampleCondition } from './market-model.js';
import { SAMPLE_PRODUCTS } from './products.js';
import { imageUrlFor, modelProducts } from './sample-products.js';
import { planStable, stableDays, type StablePlan } from './stable-history.js';

export type { ObservationDay } from './day-buffer.js';
export type { ExactPlan } from './exact-history.js';
export type { StablePlan } from './stable-history.js';
export { SOURCES } from './feed-model.js';

export const DEFAULT_SEED = 'oracle-sample-1';
/** More than the 400 days the issue asks for, so a year-ago snapshot has a month of context. */
export const DEFAULT_DAYS = 420;

export interface SampleOptions {
  /** End of the history (epoch ms); no observation is at or after it. */
  end: number;
  seed?: string;
  /** Whole UTC days of history before the day of `end`. */
  days?: number;
  /** Number of products: the real catalog first, then synthetic variants. */
  products?: number;
  /** Exact number of observation rows (scale mode); default: what the sales rates give. */
  observations?: number;
  /** When set (scale mode), the first product gets exactly this many observations (and no other feed). */
  hotProductObservations?: number;
}

/** A data/catalog.csv row, named as the CSV header names its columns. */
export interface CatalogRow {
  product_key: string;
  refsource_id: string;
  product_name: string;
  subtitle: string;
  set_name: string;
  image_url: string;
  product_type: ProductType;
  era: Era;
  release_date: string;
}

export const CATALOG_COLUMNS: readonly (keyof CatalogRow)[] = [
  'product_key',
  'refsource_id',
  'product_name',
  'subtitle',
  'set_name',
  'image_url',
  'product_type',
  'era',
  'release_date',
];

export const OBSERVATION_COLUMNS = [
  'product_key',
  'source',
  'observed_at',
  'price_minor',
  'grader',
  'grade',
  'external_id',
] as const;

/** One observation row; `grader` is empty and `grade` null for ungraded. */
export interface ObservationRow {
  productKey: string;
  source: string;
  observedAt: number;
  priceMinor: number;
  grader: SampleCondition['grader'];
  grade: number | null;
  externalId: string | null;
}

/** A planned run: the time-stable sample or an exact-count scale run. */
export type SamplePlan = StablePlan | ExactPlan;

function validateCount(name: string, value: number | undefined, min: number): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < min)) {
    throw new RangeError(`${name} must be an integer >= ${min} (got ${value})`);
  }
}

/**
 * Decides what a run covers before any row exists: products and day slots, and in scale
 * mode the exact row count of every feed. Scale mode is chosen by `observations` or
 * `hotProductObservations`. Throws RangeError on impossible options.
 */
export function planSample(options: SampleOptions): SamplePlan {
  const seed = options.seed ?? DEFAULT_SEED;
  const days = options.days ?? DEFAULT_DAYS;
  const productCount = options.products ?? SAMPLE_PRODUCTS.length;
  validateCount('days', days, 1);
  validateCount('products', productCount, 1);
  validateCount('observations', options.observations, 0);
  validateCount('hot product observations', options.hotProductObservations, 1);
  if (!Number.isFinite(options.end)) throw new RangeError('end must be a valid time');

  const base: PlanBase = {
    seed,
    start: Math.floor(options.end / DAY_MS) * DAY_MS - days * DAY_MS,
    end: options.end,
    products: modelProducts(productCount, seed),
    daySlots: days + 1,
  };
  if (options.observations === undefined && options.hotProductObservations === undefined)
    return planStable(base);
  return planExact(base, options.observations, options.hotProductObservations);
}

/** The catalog rows of a plan, in product order. */
export function catalogRows(plan: Pick<PlanBase, 'products'>): CatalogRow[] {
  return plan.products.map((p) => ({
    product_key: p.key,
    refsource_id: p.refsourceId,
    product_name: p.name,
    subtitle: p.subtitle,
    set_name: p.setName,
    image_url: imageUrlFor(p.key),
    product_type: p.productType,
    era: p.era,
    release_date: p.releaseDate ?? '',
  }));
}

/**
 * Yields the observations of a plan one day at a time, oldest first, rows by time within a
 * day. The yielded object is reused: read it before asking for the next day. Memory stays
 * proportional to the number of products and one day's rows, not to the total.
 */
export function observationDays(plan: SamplePlan): Generator<ObservationDay> {
  return plan.mode === 'stable' ? stableDays(plan) : exactDays(plan);
}

/** Yields every observation row of a plan as an object, oldest first (see observationDays). */
export function* observationRows(plan: SamplePlan): Generator<ObservationRow> {
  for (const day of observationDays(plan)) {
    for (let n = 0; n < day.size; n++) {
      const index = day.order[n]!;
      const condition = SAMPLE_CONDITIONS[day.condition[index]!]!;
      const ebayId = day.ebayId[index]!;
      yield {
        productKey: plan.products[day.product[index]!]!.key,
        source: SOURCES[day.source[index]!]!,
        observedAt: day.at[index]!,
        priceMinor: day.price[index]!,
        grader: condition.grader,
        grade: condition.grade,
        externalId: ebayId ? `ebay-${ebayId}` : null,
      };
    }
  }
}
