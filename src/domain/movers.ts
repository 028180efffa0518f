/**
 * The catalog's biggest movers (`oracle movers` and the movers route): the products whose
 * price of one slot moved most over a span, up and down. Its inputs are defined here, so the
 * CLI and the API refuse the same values in the same words.
 */
import * as z from 'zod/mini';
import type { ConvertedRates } from './bundle.js';
import { UNGRADED, parseCondition } from './conditions.js';
import { SLOT_KEYS } from './history.js';
import { checkedText, deferred, integerWithDefault } from './input.js';
import { span } from './sales.js';

/**
 * Observations of the slot's condition a product needs in the span to be listed: a move that
 * rests on one or two sales is noise (a card sold twice moves by whatever its two buyers paid),
 * and such cards would otherwise crowd the list.
 */
export const MOVERS_MIN_OBSERVATIONS = 5;

/** The span of a movers list without `span`. */
export const MOVERS_DEFAULT_SPAN = '7d';

/** Products listed per side (gainers, losers), by default and at most. */
export const MOVERS_LIMIT = { min: 1, max: 100, default: 10 } as const;

/** `span` / `--span`: how far back the move is measured from, `<n>h`, `<n>d` or `<n>w`. */
export const moversSpan = deferred(() => z._default(span, MOVERS_DEFAULT_SPAN));

/** `limit` / `--limit`: the most products listed on each side. */
export const moversLimit = integerWithDefault(MOVERS_LIMIT);

/**
 * A pattern of texts `moversCondition` takes, for the API document (JSON Schema has no parser):
 * ungraded, raw, or a matrix grader and a grade 7-10, any case, with or without a space. It
 * takes a little more (`PSA 10 Gem Mint`, `Beckett 9`); every text this matches it takes.
 */
export const MOVERS_CONDITION_PATTERN =
  '^\\s*(?:[Uu][Nn][Gg][Rr][Aa][Dd][Ee][Dd]|[Rr][Aa][Ww]|(?:[Pp][Ss][Aa]|[Bb][Gg][Ss]|[Cc][Gg][Cc]|[Ss][Gg][Cc]) ?(?:10|[789]))\\s*$';

/** `condition` / `--condition`: a slot of the bundle, as people write it (`PSA 10`, `psa10`, `raw`); its value is the slot key. */
export const moversCondition = deferred(() =>
  z._default(
    z.pipe(
      checkedText((raw) => {
        const key = raw === undefined ? null : parseCondition(raw);
        return key !== null && SLOT_KEYS.includes(key)
          ? null
          : `must be ungraded or a grader and a grade 7-10 (ungraded, psa10, "PSA 10", bgs9, cgc8, sgc7); got ${JSON.stringify(raw)}`;
      }),
      z.pipe(
        z.transform((raw: string) => parseCondition(raw)!),
        z.string(),
      ),
    ),
    UNGRADED,
  ),
);

/** One product's move: its slot's price at the span's start and at its end (the prices `oracle price` gives at the two instants). */
export interface Mover {
  product_key: string;
  product_name: string;
  set_name: string;
  refsource_id: string | null;
  /** Observations of the condition in the span. */
  observations: number;
  from_minor: number;
  to_minor: number;
  change_minor: number;
  /** Percent of `from_minor`, one decimal. */
  change_pct: number;
  /** With a currency (CONTRACT.md additions 20): the same move in it; null when it has no price at an end. */
  converted?: { from_minor: number; to_minor: number; change_minor: number; change_pct: number } | null;
}

export interface MoversBody {
  condition: string;
  span: string;
  /** The span's start and end (the as-of instant). */
  from: string;
  to: string;
  min_observations: number;
  /** Products with at least `min_observations` in the span; how many of them had a price at both ends. */
  candidates: number;
  priced: number;
  limit: number;
  /** Largest rise first; only rises. */
  gainers: Mover[];
  /** Largest fall first; only falls. */
  losers: Mover[];
  /** With a currency: which, and the first and last rate day of any mover's prices. Ranked by the US-cent move still. */
  converted?: ConvertedRates;
}
