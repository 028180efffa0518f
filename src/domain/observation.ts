import { toIsoUtc } from './time.js';

/**
 * A market observation: one sold listing or one price-guide quote.
 * Times are epoch milliseconds (UTC), money is integer US cents.
 */
export interface Observation {
  productKey: string;
  /** Data source id, `[a-z0-9_-]{1,32}` (`ebay`, `tcgplayer`, `pricecharting`). */
  source: string;
  observedAt: number;
  priceMinor: number;
  /** `ungraded`, `PSA` | `BGS` | `CGC` | `SGC`, `ANY`, a played raw card (`RAW-LP`, `RAW-MP`, `RAW-HP`, `RAW-DMG`), or another grader in upper case. */
  grader: string;
  /** 1-10 in halves; null when ungraded or played raw. */
  grade: number | null;
  externalId: string | null;
  /** How many sales a price guide's quote summarises (PriceCharting's sales-volume); null or absent for a sale. */
  salesVolume?: number | null;
}

/** The slice of an observation the pricing engine reads. */
export interface PricePoint {
  /** Condition key (`ungraded`, `psa10`, `any9`), see conditions.ts. */
  condition: string;
  source: string;
  observedAt: number;
  priceMinor: number;
  /** How many sales the point summarises (a price guide's quote, `sales_volume`); null or absent for a sale. */
  salesVolume?: number | null;
  /**
   * How a sold listing that named no product was matched to this one by its title
   * (observations.matched_by); null or absent when the record named its product. Read only
   * for `oracle explain` (PointReadOptions.matchedBy): pricing never looks at it.
   */
  matchedBy?: string | null;
}

/**
 * One condition's price points column by column (point i is `observedAt[i]`, `priceMinor[i]`,
 * `source[i]`), in time order: how a price history's read hands many points to the engine
 * without an object per point.
 */
export interface ConditionPoints {
  condition: string;
  observedAt: readonly number[];
  priceMinor: readonly number[];
  source: readonly string[];
  /** `salesVolume` of each point (null for a sale); absent when no point has one. */
  salesVolume?: readonly (number | null)[];
}

/**
 * How far after the ingest's clock an observation may be dated. Sources stamp sales with
 * their own clocks, which may run a little ahead of this host's (drift, a marketplace's
 * server time, a quote stamped at the coming minute): that much is skew and is kept. A later
 * date is wrong (a typo, a misread zone, garbage), and kept it would stand as the newest sale
 * of its cell until the clock caught up.
 */
export const OBSERVATION_CLOCK_SKEW_MS = 5 * 60_000;

/** Why an observation dated `observedAt` (named `name`) cannot be stored when the clock says `now`, or null. */
export function futureObservationProblem(
  observedAt: number,
  now: number,
  name = 'observed_at',
): string | null {
  if (observedAt <= now + OBSERVATION_CLOCK_SKEW_MS) return null;
  return `${name} ${toIsoUtc(observedAt)} is in the future (more than ${OBSERVATION_CLOCK_SKEW_MS / 60_000} minutes after now, ${toIsoUtc(now)})`;
}
