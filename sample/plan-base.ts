/**
 * What the two history modes' plans share. Its own module so that generate.ts, which picks
 * a mode, and the modes (stable-history.ts, exact-history.ts) do not import one another.
 */
import type { ModelProduct } from './sample-products.js';

/** What every plan has: the products and the day slots of the history. */
export interface PlanBase {
  seed: string;
  /** Start of the first day slot (a UTC midnight). */
  start: number;
  end: number;
  products: ModelProduct[];
  /** Number of day slots: `days` whole days plus the (possibly empty) day of `end`. */
  daySlots: number;
}
