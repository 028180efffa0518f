/**
 * The pricing bundle of SPEC.md 2.1-2.4, field for field, as the API returns it.
 * The engine builds these objects; the CLI's --json and the HTTP API print them as they are.
 */
import type { Grader, MatrixGrade, MatrixGradeKey } from './conditions.js';
import type { Era, ProductType } from './product.js';

export type SlotError = 'no_observations';

/** `meta.converted` of a slot priced in another currency (CONTRACT.md additions 20; service/currency.ts). */
export interface ConvertedFigures {
  currency: string;
  price_minor: number | null;
  low_minor: number | null;
  high_minor: number | null;
  rate_source: string;
  /** The first and last day whose reference rate converted a point of this bundle (weekends: the last rate before). */
  rate_dates: { first: string | null; last: string | null };
}

/** The rates behind several converted figures (a collection, a movers list, a list of sales): the first and last rate day of any. */
export type ConvertedRates = Pick<ConvertedFigures, 'currency' | 'rate_source' | 'rate_dates'>;

export interface Slot {
  /** TWAP in integer US cents; null when `error` is set. */
  price_minor: number | null;
  currency: 'USD';
  /** `ungraded`, or lowercase grader plus grade (`psa10`). */
  condition_key: string;
  /** Algorithm key, every value listed in docs/methodology.md. */
  methodology: string;
  /** ISO-8601 UTC of the window actually used. */
  window_start: string;
  window_end: string;
  included_points: number;
  excluded_points: number;
  error: SlotError | null;
  meta: SlotMeta;
}

/**
 * A slot's meta: SPEC.md's free-form keys; `basis` and `basis_reason` are the additions every
 * priced slot carries (CONTRACT.md additions 13, docs/methodology.md §6.6), `no_price_reason`
 * the one of a slot whose estimate was withheld (additions 16, §9.1).
 */
export interface SlotMeta {
  basis?: 'own' | 'estimated';
  basis_reason?: 'other_conditions' | 'last_known' | 'carried' | 'pooled';
  /** Why an estimate was not published (CONTRACT.md additions 16, docs/methodology.md §9.1); only on such a slot. */
  no_price_reason?: 'stale_estimate' | 'wide_estimate' | 'sources_disagree';
  /** The ungraded slot's cross-source check, when two or more sources priced it (CONTRACT.md additions 24, docs/methodology.md §18). */
  cross_source?: {
    agree: boolean;
    ratio: string;
    max_ratio: number;
    medians_minor: Record<string, number>;
    out_of_line: string | null;
  };
  [key: string]: unknown;
}

export interface GradedSlot extends Slot {
  company: Grader;
  grade: MatrixGrade;
}

export interface BundleMetadata {
  product_name: string;
  subtitle: string;
  set_name: string;
  image_url: string;
  product_type: ProductType;
  era: Era;
  release_date: string | null;
  /** Addition (CONTRACT.md additions 7): the TCGplayer product id; null when the catalog has none. */
  tcgplayer_id: string | null;
  /** Addition: the printing as TCGplayer names it (`1st Edition Holofoil`); null: the regular printing. */
  printing: string | null;
  /** Addition: the language the card is printed in (`Japanese`); null: English. */
  language: string | null;
}

export interface PricingBundle {
  /** Reference-source id: set on the refsource and snapshot routes, null on the pricing route. */
  id: string | null;
  product_key: string;
  window_hours: number;
  outlier_stddevs: number;
  ungraded: Slot;
  graded: Record<Grader, Record<MatrixGradeKey, GradedSlot>>;
  metadata: BundleMetadata;
  /**
   * CONTRACT.md additions 6, present only when asked for (`?extra_grades=true`, `oracle price
   * --grades all`): every other grade the product has observations of in the 30 days,
   * grader -> grade ("9.5") -> slot, each priced from its own points alone
   * (docs/methodology.md §13). A grade without data is absent.
   */
  extra_grades?: ExtraGrades;
}

/** An extra grade's slot: a graded slot of any grader (`TAG`, `CGC-PRISTINE`, `ANY`) and any grade 1-10 in halves. */
export interface ExtraGradeSlot extends Slot {
  company: string;
  grade: number;
}

/** Grader -> grade as text (`"9.5"`, `"10"`) -> slot. */
export type ExtraGrades = Record<string, Record<string, ExtraGradeSlot>>;

/** Parameters of one pricing request; `asOf` is the window end in epoch ms (the clock comes in here). */
export interface PricingParams {
  windowHours: number;
  outlierStddevs: number;
  asOf: number;
  /**
   * ISO 4217: also price in this currency, each point converted at its own day's reference
   * rate, the figures in each slot's `meta.converted` (CONTRACT.md additions 20); absent or
   * USD: US cents only. The engine never reads it (service/currency.ts converts).
   */
  currency?: string;
}

/** Ranges and defaults of SPEC.md section 8, shared by the CLI and the API. */
export const WINDOW_HOURS = { min: 1, max: 72, default: 24 } as const;
export const OUTLIER_STDDEVS = { min: 1, max: 10, default: 2 } as const;

/**
 * Whether a slot's price rests on other cells (pooling, carry, ratios) rather than its own
 * sales: `meta.basis` (pricing v3) when the engine gives it, else a fallback tier or no point
 * of its own, which is what it means for the engines before it.
 */
export function isEstimated(slot: Slot): boolean {
  const basis = slot.meta.basis as 'own' | 'estimated' | undefined;
  if (basis !== undefined) return basis === 'estimated';
  return typeof slot.meta.oracle_fallback_tier === 'string' || slot.included_points === 0;
}
