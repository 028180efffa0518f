/**
 * The extra grades of a bundle (CONTRACT.md additions 6, docs/methodology.md §13): half
 * grades, grades below 7, other graders (TAG, ARS, ...), the tiers above a regular 10
 * (CGC-PRISTINE, BGS-BLACK, ...) and pooled grades outside the matrix (ANY 9.5). Each is
 * priced from its own points alone, by the estimator of a cell with its own data (§3-§5:
 * reference set, robust filter, recency weights, interval): no card model, no carry, no
 * fallback tier and no last known price, so a grade without a point in the 30 days before
 * as_of is absent. SPEC's matrix is never read or changed here.
 */
import type { ExtraGrades, ExtraGradeSlot, PricingParams } from '../domain/bundle.js';
import { GRADERS, POOLED_GRADER, isExtraCondition, parseConditionKey } from '../domain/conditions.js';
import type { PricePoint } from '../domain/observation.js';
import { estimateCondition, estimateContext, type Estimate } from './estimate.js';
import { requestedWindowStart } from './points-request.js';
import { buildSeriesOf, type SeriesSet } from './series.js';
import { memoIso, pricedSlot, type SlotContext } from './slot.js';
import type { CellPrice } from './card-model.js';

/** Graders in the order extra grades are listed: SPEC's four, the pooled `ANY`, then the rest by name. */
function graderRank(grader: string): number {
  const i = (GRADERS as readonly string[]).indexOf(grader);
  if (i >= 0) return i;
  return grader === POOLED_GRADER ? GRADERS.length : GRADERS.length + 1;
}

/** Extra condition keys in listing order: by grader (graderRank, then name), then grade ascending. */
export function orderExtraConditions(keys: Iterable<string>): string[] {
  const parsed = [...new Set(keys)]
    .filter(isExtraCondition)
    .map((key) => ({ key, ...parseConditionKey(key)! }));
  parsed.sort(
    (a, b) =>
      graderRank(a.grader) - graderRank(b.grader) ||
      (a.grader < b.grader ? -1 : a.grader > b.grader ? 1 : 0) ||
      a.grade - b.grade,
  );
  return parsed.map((p) => p.key);
}

/** Every step of the extra grades, for the slots and for `oracle explain`. */
export interface ExtraEvidence {
  /** Extra condition keys, in listing order. */
  conditions: string[];
  series: SeriesSet;
  /** Own estimate per condition (same order), null when none of its points lies in the 30 days. */
  own: (Estimate | null)[];
  ctx: SlotContext;
}

/** The own estimates of the extra grades found in `points` (other conditions are ignored). */
export function extraEvidence(points: readonly PricePoint[], params: PricingParams): ExtraEvidence {
  const windowStart = requestedWindowStart(params);
  const conditions = orderExtraConditions(points.map((p) => p.condition));
  const series = buildSeriesOf(points, conditions, params.asOf, windowStart);
  const ectx = estimateContext(params.asOf, windowStart, params.outlierStddevs, series.maxLength);
  // Only the 30 days (current): an extra grade has no last known price.
  const own = series.conditions.map((c) => estimateCondition(c.current, ectx));
  const ctx: SlotContext = {
    asOf: params.asOf,
    windowStart,
    windowHours: params.windowHours,
    lastKnown: false,
    iso: memoIso(),
  };
  return { conditions, series, own, ctx };
}

/** The cell of an own estimate priced alone (the sealed product's rule, §6.5). */
export function ownCell(e: Estimate): CellPrice {
  return { estimate: e, own: e, rejected: false, ownWeight: 1, prediction: null, tier: null, heldFrom: null };
}

/** The slots of the extra grades: grader -> grade -> slot, only the priced ones. */
export function extraGradeSlots(evidence: ExtraEvidence): ExtraGrades {
  const out: ExtraGrades = {};
  evidence.conditions.forEach((key, i) => {
    const e = evidence.own[i];
    if (e == null) return;
    const { grader, grade } = parseConditionKey(key)!;
    const slot = pricedSlot(key, ownCell(e), Math.exp(e.mean), evidence.ctx, {});
    const graded: ExtraGradeSlot = { ...slot, company: grader, grade };
    (out[grader] ??= {})[String(grade)] = graded;
  });
  return out;
}

/** The extra grades of `points` as of `params` (docs/methodology.md §13). Pure and deterministic. */
export function computeExtraGrades(points: readonly PricePoint[], params: PricingParams): ExtraGrades {
  return extraGradeSlots(extraEvidence(points, params));
}
