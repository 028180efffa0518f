/**
 * Every estimate a bundle can use, computed once: the ungraded cell, the 16 grader cells and
 * the 4 composite bands. The current pass reads the last 30 days (depth-capped, §2.1); when
 * no priced point of the product lies in those 30 days, the stale pass reads the last known
 * points instead (docs/methodology.md §9), so the same fallback chain prices every cell.
 */
import { GRADERS, MATRIX_GRADES, type Grader, type MatrixGrade } from '../domain/conditions.js';
import { estimateBand, estimateCell, estimateLastKnown, type Estimate, type EstimateContext } from './estimate.js';
import type { ConditionSeries, SeriesSet } from './series.js';

export interface EstimateSet {
  /** True when built from last known points (nothing in the 30-day lookback). */
  stale: boolean;
  ungraded: Estimate | null;
  cell(grader: Grader, grade: MatrixGrade): Estimate | null;
  band(grade: MatrixGrade): Estimate | null;
}

/** Builds the current pass, else the stale pass; null when the product has no point before as_of. */
export function buildEstimateSet(series: SeriesSet, ctx: EstimateContext): EstimateSet | null {
  if (series.empty) return null;
  const stale = !series.hasCurrent;
  const own = (c: ConditionSeries) => (stale ? estimateLastKnown(c.prior, ctx) : estimateCell(c, ctx));
  const pooled = (c: ConditionSeries) => (stale ? estimateLastKnown(c.prior, ctx) : estimateBand(c, ctx));
  const cells = GRADERS.map((g) => MATRIX_GRADES.map((n) => own(series.cell(g, n))));
  const bands = MATRIX_GRADES.map((n) => pooled(series.band(n)));
  return {
    stale,
    ungraded: own(series.ungraded),
    cell: (grader, grade) => cells[GRADERS.indexOf(grader)]![grade - 7]!,
    band: (grade) => bands[grade - 7]!,
  };
}
