/**
 * The observations a product's pricing read, each kept or left out of its condition's own
 * estimate with the reason (`oracle sales`): the evidence points `oracle explain` lists for a
 * slot's own condition, for every condition at once. Built from the same evidence as the
 * bundle (computeEvidence, extraEvidence), so a listed point is kept exactly when it entered
 * the price; pure like the rest of the engine.
 */
import { PRICED_CONDITIONS } from '../domain/conditions.js';
import type { EvidencePoint } from '../domain/evidence.js';
import { computeEvidence, slotContext, type ComputeBundleInput } from './bundle.js';
import { conditionPoints, olderPoints } from './explain.js';
import { extraEvidence } from './extra-grades.js';

/**
 * The points of `input` (its priced conditions' points and, when it carries them, its extra
 * grades'), of `condition` alone when given, newest first (equal instants: in the order of
 * PRICED_CONDITIONS, then the extra grades').
 */
export function productSales(input: ComputeBundleInput, condition: string | null): EvidencePoint[] {
  const { params } = input;
  const k = params.outlierStddevs;
  const wanted = (key: string) => condition === null || condition === key;
  const points: EvidencePoint[] = [];
  const ev = computeEvidence(input);
  const ctx = slotContext(params, ev);
  PRICED_CONDITIONS.forEach((key, j) => {
    if (!wanted(key)) return;
    const e = ev.own[j];
    if (e != null)
      points.push(...conditionPoints(j, e, ev.cells[j]!.rejected ? 'rejected' : 'used', ev, ctx, k));
    else if (!ev.lastKnown) points.push(...olderPoints(j, ev, ctx));
  });
  if (input.extraPoints !== undefined) {
    const xev = extraEvidence(input.extraPoints, params);
    const cev = { series: xev.series, lastKnown: false, own: xev.own, names: xev.conditions };
    xev.conditions.forEach((key, j) => {
      const e = xev.own[j];
      if (wanted(key) && e != null) points.push(...conditionPoints(j, e, 'used', cev, xev.ctx, k));
    });
  }
  // Stable: equal instants keep the conditions' order. ISO instants of one format sort as text.
  return points.sort((a, b) => (a.observed_at < b.observed_at ? 1 : a.observed_at > b.observed_at ? -1 : 0));
}
