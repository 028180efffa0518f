/**
 * The recent observations of a product (`oracle sales` and the sales route): what the pricing
 * read of the product holds, newest first, each kept or left out of its slot's price with the
 * engine's reason (the evidence points of `oracle explain`). Its inputs are defined here, so the
 * CLI and the API refuse the same values in the same words.
 */
import type { ConvertedRates } from './bundle.js';
import type { EvidencePoint } from './evidence.js';
import { STEP } from './history.js';
import { checkedText, integerWithDefault } from './input.js';

/** Observations listed per request, by default and at most. */
export const SALES_LIMIT = { min: 1, max: 1_000, default: 50 } as const;

/** `limit` / `--limit`: the most observations listed, newest first. */
export const salesLimit = integerWithDefault(SALES_LIMIT);

/**
 * A span back from an instant (`span` / `--span`): a whole number 1-9999, then h, d or w, as a
 * history's step (`30d`, `12h`, `2w`). Its value is the text; history.ts stepMs gives its length.
 */
export const span = checkedText(
  (raw) =>
    raw !== undefined && STEP.test(raw)
      ? null
      : `must be a span like 12h, 30d or 2w (a whole number 1-9999, then h, d or w; got ${JSON.stringify(raw)})`,
  STEP,
);

export interface SalesBody {
  /** The product's refsource id when it was named by one, else null (as the evidence body). */
  id: string | null;
  product_key: string;
  product_name: string;
  /** The one condition listed (`psa10`), or null for every condition of the product. */
  condition: string | null;
  as_of: string;
  window_hours: number;
  outlier_stddevs: number;
  /** The oldest instant listed with `span`, else null (everything the pricing read). */
  since: string | null;
  /** Observations that matched (condition, span), before `limit`; how many of them are kept. */
  total: number;
  kept: number;
  limit: number;
  /** The newest `limit` of them, newest first; with a currency, each with `converted_minor`, its price in it. */
  sales: (EvidencePoint & { converted_minor?: number })[];
  /** With a currency (CONTRACT.md additions 20): which, and the first and last rate day of the sales listed. */
  converted?: ConvertedRates;
}
