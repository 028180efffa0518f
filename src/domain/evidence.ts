/**
 * The evidence behind one slot's price (`oracle explain --json` and the evidence route): every
 * observation the computation read, kept or not and why, and each step from those points to
 * the published price, each step naming its section of docs/methodology.md.
 */
import * as z from 'zod/mini';
import type { ConvertedFigures } from './bundle.js';
import { checkedText, deferred } from './input.js';
import { CONDITION_HELP, parseCondition } from './conditions.js';

/** One observation the slot's computation read. */
export interface EvidencePoint {
  /** The condition it was observed in: the slot's own, or another condition of the card (§6.3). */
  condition: string;
  observed_at: string;
  source: string;
  price_minor: number;
  /** True when it entered the published price. */
  kept: boolean;
  /** Why it was left out (null when kept): `outlier: ...`, `before_regime_change: ...`, ... */
  reason: string | null;
  /** Its robust z against the filter's median and scale (§3.1); null when it was not filtered. */
  z: number | null;
  /**
   * Its share of its condition's own estimate (§4): the recency weight times the quote weight
   * (§4.1) over the sum of the kept points' weights, so ŷ = Σ weight · ln(price_minor) per
   * condition; 0 when not kept.
   */
  weight: number;
  /** A price guide's quote: how many sales it summarises (§4.1). Absent for a sale. */
  sales_volume?: number;
  /**
   * How a sold listing that named no product was matched to this one by its title
   * (`title: number 4/102 + name charizard + set base`); absent when the record named its product.
   */
  matched_by?: string;
}

/**
 * One step from the points to the price. `value_minor` is the step's result in cents (unrounded,
 * but for `rounding`), `value_ln` the same as ln cents where the step works in logs; `inputs`
 * holds every number the step used, exact, so the step can be redone by hand.
 */
export interface EvidenceStep {
  /** reference_set, filter, own_estimate, cross_check, prediction, blend, own_range, then no_price (§9.1, last) or clamp, rounding, tier, interval, freshness. */
  name: string;
  /** The condition the step is about, for the per-condition steps (reference_set, filter, own_estimate). */
  condition?: string;
  /** Section of docs/methodology.md (`3.1`) and its link. */
  section: string;
  doc: string;
  text: string;
  value_minor?: number | null;
  value_ln?: number;
  inputs?: Record<string, unknown>;
}

/**
 * The evidence as `oracle explain --currency` has it: with the slot's figures in that currency,
 * as the bundle's `meta.converted` (CONTRACT.md additions 20). The API's body stays EvidenceBody.
 */
export type ExplainedEvidence = EvidenceBody & { converted?: ConvertedFigures };

export interface EvidenceBody {
  id: string | null;
  product_key: string;
  slot: string;
  as_of: string;
  window_hours: number;
  outlier_stddevs: number;
  /** The published price of the slot (the bundle's `price_minor`). */
  price_minor: number | null;
  methodology: string;
  points: EvidencePoint[];
  steps: EvidenceStep[];
}

/**
 * `slot` / `--slot`: the slot to explain, a condition as people write it (conditions.ts
 * parseCondition): `ungraded`, a matrix slot (`psa9`, `PSA 9`) or an extra grade (`BGS 9.5`,
 * `tag10`, `CGC Pristine 10`); its value is the condition key. A played raw card is no slot.
 */
/**
 * A pattern of slots `slot` takes, for the API document (JSON Schema has no parser): ungraded,
 * a grader and a grade (with or without a space), the Pristine and Black Label tiers in words.
 * `slot` takes a little more (`raw`, `NM`, `CGC 10 Pristine`, ...); every text this matches it takes.
 */
export const SLOT_PATTERN =
  '^\\s*(?:[Uu][Nn][Gg][Rr][Aa][Dd][Ee][Dd]|[A-Za-z]+ ?(?:10|[1-9](?:\\.5)?)|(?:[Cc][Gg][Cc]|[Ss][Gg][Cc]) [Pp][Rr][Ii][Ss][Tt][Ii][Nn][Ee] 10|[Bb][Gg][Ss] [Bb][Ll][Aa][Cc][Kk] [Ll][Aa][Bb][Ee][Ll] 10)\\s*$';

export const slot = deferred(() =>
  z.pipe(
    checkedText((raw) => {
      if (raw === undefined || raw.trim() === '') return `is required: ${CONDITION_HELP}`;
      const key = parseCondition(raw);
      if (key === null || key.startsWith('raw-'))
        return `must be ${CONDITION_HELP}; got ${JSON.stringify(raw)}`;
      return null;
    }),
    z.pipe(
      z.transform((raw: string) => parseCondition(raw)!),
      z.string(),
    ),
  ),
);
