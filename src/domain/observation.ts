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
  /** `ungraded`, `PSA` | `BGS` | `CGC` | `SGC`, `ANY`, or another grader in upper case. */
  grader: string;
  /** 1-10 in halves; null when ungraded. */
  grade: number | null;
  externalId: string | null;
}

/** The slice of an observation the pricing engine reads. */
export interface PricePoint {
  /** Condition key (`ungraded`, `psa10`, `any9`), see conditions.ts. */
  condition: string;
  source: string;
  observedAt: number;
  priceMinor: number;
}
