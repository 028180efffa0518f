/**
 * The evidence of one slot (`oracle explain`): the points its computation read, kept or not and
 * why, and each step of docs/methodology.md from them to the published price, with the numbers
 * each step used. Built from the same evidence the bundle is built from (computeEvidence), so
 * the explanation and the price cannot disagree; pure like the rest of the engine.
 */
import {
  UNGRADED,
  conditionKey,
  isExtraCondition,
  parseConditionKey,
  PRICED_CONDITIONS,
  type Grader,
  type MatrixGradeKey,
} from '../domain/conditions.js';
import type { EvidenceBody, EvidencePoint, EvidenceStep } from '../domain/evidence.js';
import type { Slot } from '../domain/bundle.js';
import { HOUR_MS } from '../domain/time.js';
import {
  bundleFromEvidence,
  clampColumn,
  computeEvidence,
  slotContext,
  type BundleEvidence,
  type ComputeBundleInput,
} from './bundle.js';
import {
  basisOf,
  cardLevels,
  conditionIndex,
  plentiful,
  predict,
  type CardLevels,
  type CellPrice,
  type PredictionRecord,
} from './card-model.js';
import { spanAround } from './carry.js';
import { crossSourceMeta, type CrossSource } from './cross-source.js';
import { ownCell } from './extra-grades.js';
import { pointAge, recencyWeight, type Estimate } from './estimate.js';
import {
  BLEND_GAP_WEIGHT,
  CARRY_HOLD_MS,
  CARRY_MIN_MOVE,
  CARRY_SPAN_MS,
  CROSS_CHECK_MAX_POINTS,
  CROSS_CHECK_SIGMAS,
  ESTIMATE_MAX_LOG_WIDTH,
  LOG_SCALE_FLOOR,
  MAD_TO_SIGMA,
  MIN_HALF_LIFE_MS,
  MIN_REFERENCE_POINTS,
  NO_PRICE_REASON,
  CROSS_SOURCE_MAX_RATIO,
  CROSS_SOURCE_MIN_GAP_MINOR,
  OWN_EVIDENCE_MIN_POINTS,
  OWN_FULL_WEIGHT_POINTS,
  PREDICTION_HUBER_K,
  QUOTE_AGE_MS,
  RECENCY_POINTS,
  STALE_AFTER_MS,
  ownMethodology,
} from './methodology.js';
import { isIncluded } from './robust-filter.js';
import { extraEvidence, extraGradeSlots } from './extra-grades.js';
import { lowerBound, type Series } from './series.js';
import {
  estimateLogWidth,
  intervalOf,
  roundCents,
  type Interval,
  type NoPriceReason,
  type SlotContext,
} from './slot.js';

/** GitHub anchors of the sections of docs/methodology.md a step can name. */
const SECTIONS: Readonly<Record<string, string>> = {
  '3': '3-own-estimate-reference-set-and-filter',
  '3.1': '31-filter-robust-log-price',
  '3.2': '32-regime-change-older-sales-never-outvote-a-run-of-new-ones',
  '4': '4-recency-weights',
  '5': '5-uncertainty-of-an-estimate',
  '6.1': '61-carried-move-implied-levels',
  '6.2': '62-cross-check',
  '6.3': '63-prediction-from-the-other-conditions',
  '6.4': '64-blend-clamp',
  '6.5': '65-sealed-products',
  '6.6': '66-own-evidence-first-and-the-basis',
  '6.7': '67-a-cells-own-older-points',
  '8': '8-fallback-tiers-and-the-last-known-price',
  '9': '9-the-80--interval',
  '9.1': '91-estimates-we-do-not-publish',
  '10': '10-freshness',
  '11': '11-methodology-values-and-meta',
  '12': '12-rounding',
  '15': '15-extra-grades',
  '18': '18-cross-source-check',
};

/** What the point and step records of one condition read: BundleEvidence, or the extra grades' (`names` their keys). */
export type ConditionEvidence = Pick<BundleEvidence, 'series' | 'lastKnown' | 'own'> & {
  names?: readonly string[];
};

function step(name: string, section: string, text: string, extra: Partial<EvidenceStep> = {}): EvidenceStep {
  const { condition, ...rest } = extra;
  return {
    name,
    ...(condition === undefined ? {} : { condition }),
    section,
    doc: `docs/methodology.md#${SECTIONS[section]!}`,
    text,
    ...rest,
  };
}

const cents = (x: number) => `${x.toFixed(2)} cents`;
const ln = (x: number) => x.toFixed(6);
const hours = (ms: number) => `${+(ms / HOUR_MS).toFixed(2)} h`;

/** The slot's published object in a bundle. */
function publishedSlot(bundle: ReturnType<typeof bundleFromEvidence>, slot: string): Slot {
  if (slot === UNGRADED) return bundle.ungraded;
  const m = /^([a-z]+)(\d+)$/.exec(slot)!;
  return bundle.graded[m[1]!.toUpperCase() as Grader][m[2] as MatrixGradeKey];
}

/** How a condition's points stand: `used` in the price, set aside by the cross-check, or only shown. */
export type Standing = 'used' | 'rejected';

/** The points of one condition the computation read, newest first, and the sum of the kept weights. */
export function conditionPoints(
  j: number,
  e: Estimate,
  standing: Standing,
  ev: ConditionEvidence,
  ctx: SlotContext,
  k: number,
): EvidencePoint[] {
  const { asOf, iso } = ctx;
  const used = e.series;
  const condition = (ev.names ?? PRICED_CONDITIONS)[j]!;
  const source = (s: Series, i: number) => ev.series.sources[s.src[i]!]!;
  const windowPoints = used.hi - lowerBound(used, ctx.windowStart);
  let sw = 0;
  if (standing === 'used') {
    for (let i = e.i0; i < e.i1; i++)
      if (isIncluded(used, i, e.bounds))
        sw += recencyWeight(pointAge(used, i, asOf), e.halfLifeMs) * used.q[i]!;
  }
  const points: EvidencePoint[] = [];
  for (let i = used.hi - 1; i >= used.lo; i--) {
    const point: EvidencePoint = {
      condition,
      observed_at: iso(used.t[i]!),
      source: source(used, i),
      price_minor: used.p[i]!,
      kept: false,
      reason: null,
      z: null,
      weight: 0,
    };
    if (!Number.isNaN(used.vol[i]!)) point.sales_volume = used.vol[i]!;
    const matchedBy = used.by?.[i];
    if (matchedBy != null) point.matched_by = matchedBy;
    if (i < e.referenceStart) {
      point.reason =
        windowPoints >= MIN_REFERENCE_POINTS
          ? `outside_reference_set: before the requested window, which held ${windowPoints} points (at least ${MIN_REFERENCE_POINTS}) (§3)`
          : `outside_reference_set: older than the latest ${MIN_REFERENCE_POINTS} points the thin window was topped up to (§3)`;
    } else if (i < e.i0) {
      point.reason = `before_regime_change: the newest ${e.i1 - e.i0} points moved the market and alone form the reference set (§3.2)`;
    } else {
      const z = (used.y[i]! - e.bounds.centre) / e.bounds.sigma;
      point.z = z;
      if (!isIncluded(used, i, e.bounds))
        point.reason = `outlier: robust z ${z >= 0 ? '+' : ''}${z.toFixed(2)} beyond the threshold ±${k} (§3.1)`;
      else if (standing === 'rejected')
        point.reason = `cross_check: the condition's own estimate disagreed with the rest of the card and was set aside (§6.2)`;
      else {
        point.kept = true;
        point.weight = (recencyWeight(pointAge(used, i, asOf), e.halfLifeMs) * used.q[i]!) / sw;
      }
    }
    points.push(point);
  }
  if (!e.old) points.push(...olderPoints(j, ev, ctx));
  return points;
}

/**
 * The points of one condition older than the 30 days, newest first: read for the last known
 * price (§8) or beside the card model (§6.7), and left out otherwise.
 */
export function olderPoints(j: number, ev: ConditionEvidence, ctx: SlotContext): EvidencePoint[] {
  const prior = ev.series.conditions[j]!.prior;
  const condition = (ev.names ?? PRICED_CONDITIONS)[j]!;
  const points: EvidencePoint[] = [];
  for (let i = prior.hi - 1; i >= prior.lo; i--) {
    points.push({
      condition,
      observed_at: ctx.iso(prior.t[i]!),
      source: ev.series.sources[prior.src[i]!]!,
      price_minor: prior.p[i]!,
      kept: false,
      reason: 'older_than_30_days: used only when nothing of the product is newer (§8)',
      z: null,
      weight: 0,
    });
  }
  return points;
}

/** reference_set, filter and own_estimate of one condition, and its carried move when it has one. */
function conditionSteps(
  j: number,
  e: Estimate,
  ev: ConditionEvidence,
  ctx: SlotContext,
  k: number,
): EvidenceStep[] {
  const { windowStart } = ctx;
  const condition = (ev.names ?? PRICED_CONDITIONS)[j]!;
  const s = e.series;
  const windowPoints = s.hi - lowerBound(s, windowStart);
  const reference = e.i1 - e.referenceStart;
  let text: string;
  if (ev.lastKnown)
    text = `Nothing of the product in the 30 days before as_of: ${condition}'s last known points, its ${reference} latest older than 30 days, form the reference set.`;
  else if (e.old)
    text = `Nothing of ${condition} in the 30 days before as_of: its last known points, its ${reference} latest older than 30 days, form the reference set, evidence of this card's own ${condition} price beside the card model (§6.7).`;
  else if (e.referenceStart === lowerBound(s, windowStart))
    text = `The requested window holds ${windowPoints} ${condition} point(s) (at least ${MIN_REFERENCE_POINTS}, or nothing earlier in the 30 days): they form the reference set.`;
  else
    text = `The requested window holds ${windowPoints} ${condition} point(s) (fewer than ${MIN_REFERENCE_POINTS}): topped up with the latest earlier points of the 30 days, a reference set of ${reference}.`;
  const run = e.regime ? e.i1 - e.i0 : 0;
  const own = e.carry?.before ?? e.mean;
  if (e.regime)
    text += ` Regime change: the newest ${run} points lie past the bounds of the older ones and alone form the reference set.`;
  const steps = [
    step('reference_set', ev.lastKnown ? '8' : e.old ? '6.7' : e.regime ? '3.2' : '3', text, {
      condition,
      inputs: {
        window_points: windowPoints,
        reference_points: reference,
        regime_run: run,
        last_known: e.old,
      },
    }),
  ];
  const { centre, sigma } = e.bounds;
  const excluded = e.i1 - e.i0 - e.included;
  steps.push(
    step(
      'filter',
      '3.1',
      `Median ln price m = ${ln(centre)} (${cents(Math.exp(centre))}); robust scale σ = max(${MAD_TO_SIGMA} · MAD, ${LOG_SCALE_FLOOR}) = ${sigma.toFixed(6)}; ` +
        `a point is kept when |ln price - m| <= ${k} · σ, i.e. from ${cents(Math.exp(e.bounds.lo))} to ${cents(Math.exp(e.bounds.hi))}: ${e.included} kept, ${excluded} excluded.`,
      {
        condition,
        inputs: {
          centre_ln: centre,
          sigma,
          k,
          low_minor: Math.exp(e.bounds.lo),
          high_minor: Math.exp(e.bounds.hi),
          kept: e.included,
          excluded,
        },
      },
    ),
  );
  steps.push(
    step(
      'own_estimate',
      '4',
      `Half-life h = ${hours(e.halfLifeMs)} (the age of the ${RECENCY_POINTS}th newest kept point, or the oldest, at least ${hours(MIN_HALF_LIFE_MS)}); ` +
        `each kept point weighs 2^(-age / h) (a price guide's quote: its age plus ${hours(QUOTE_AGE_MS)}, the sales it summarises, times its quote weight, §4.1), shown as its share of the sum; ŷ = Σ weight · ln price = ${ln(own)} (${cents(Math.exp(own))}). ` +
        `Its variance (§5): ${e.variance.toFixed(6)} (sale scale ${e.sigma.toFixed(6)}, ${e.effectivePoints.toFixed(3)} effective points).`,
      {
        condition,
        value_ln: own,
        value_minor: Math.exp(own),
        inputs: {
          half_life_hours: e.halfLifeMs / HOUR_MS,
          kept: e.included,
          sale_sigma: e.sigma,
          effective_points: e.effectivePoints,
          variance: e.variance,
        },
      },
    ),
  );
  if (e.carry !== null) steps.push(carryStep(condition, e, ev, ctx));
  return steps;
}

function carryStep(condition: string, e: Estimate, ev: ConditionEvidence, ctx: SlotContext): EvidenceStep {
  const carry = e.carry!;
  const reference = PRICED_CONDITIONS[carry.from]!;
  const refSeries = ev.own[carry.from]!.series;
  const [i0, i1] = spanAround(refSeries, e.meanAt);
  const points = [];
  for (let i = i0; i < i1; i++)
    points.push({ observed_at: ctx.iso(refSeries.t[i]!), price_minor: refSeries.p[i]! });
  const then = carry.now - carry.move;
  const after = carry.before + carry.move;
  return step(
    'carry',
    '6.1',
    `${condition}'s kept points stand, weighted like its estimate, at ${ctx.iso(Math.round(e.meanAt))}; the card's busiest condition, ${reference}, was then at ` +
      `${cents(Math.exp(then))} (the median of its ${points.length} points within ${hours(CARRY_SPAN_MS)} either side of that hour, or its earliest). ` +
      `It stands at ${cents(Math.exp(carry.current))} (its own estimate) and stood at ${cents(Math.exp(carry.held))} ${hours(CARRY_HOLD_MS)} ago; ` +
      `the move is measured to the one nearer the old level, ${cents(Math.exp(carry.now))}: ${carry.move.toFixed(6)} in ln, at least ${CARRY_MIN_MOVE}, ` +
      `so it is carried: ŷ = ${ln(carry.before)} + ${carry.move.toFixed(6)} = ${ln(after)} (${cents(Math.exp(after))}).`,
    {
      condition,
      value_ln: after,
      value_minor: Math.exp(after),
      inputs: {
        reference,
        at: ctx.iso(Math.round(e.meanAt)),
        reference_points: points,
        then_ln: then,
        current_ln: carry.current,
        held_ln: carry.held,
        now_ln: carry.now,
        move: carry.move,
        before_ln: carry.before,
      },
    },
  );
}

/**
 * The evidence of `slot` (`ungraded` or `psa9` ...) in the bundle of `input`: its points (the
 * slot's own condition first, then, when the card model entered its price, the conditions it
 * came from) and its steps.
 */
export function explainSlot(input: ComputeBundleInput, slot: string): EvidenceBody {
  if (isExtraCondition(slot)) return explainExtraSlot(input, slot);
  const { params } = input;
  const ev = computeEvidence(input);
  const bundle = bundleFromEvidence(input, ev);
  const published = publishedSlot(bundle, slot);
  const ctx = slotContext(params, ev);
  const iso = ctx.iso;
  const k = params.outlierStddevs;
  const c = conditionIndex(slot);
  const cell = ev.cells[c]!;
  const body: EvidenceBody = {
    id: input.id,
    product_key: input.product.productKey,
    slot,
    as_of: iso(params.asOf),
    window_hours: params.windowHours,
    outlier_stddevs: k,
    price_minor: published.price_minor,
    methodology: published.methodology,
    points: [],
    steps: [],
  };
  if (cell.estimate === null) {
    body.steps.push(
      step(
        'tier',
        ev.sealed ? '6.5' : '8',
        ev.sealed
          ? `A sealed product's ${slot} is priced only from its own observations, and it has none before as_of: no price.`
          : 'The product has no observation before as_of: no price (error no_observations).',
      ),
    );
    return body;
  }
  const levels = ev.sealed ? null : cardLevels(ev.own, ev.table);
  const record: PredictionRecord = { pieces: [], shared: 0 };
  const predictionUsed = cell.prediction !== null && cell.ownWeight < 1;
  if (predictionUsed) {
    const used = levels!.members.filter((j) => !levels!.rejected[j]);
    predict(c, used, ev.own, ev.table, new Float64Array(2 * PRICED_CONDITIONS.length), record);
  }
  const pieces = record.pieces;
  // The conditions whose points entered: the slot's own, then the prediction's pieces, then those set aside.
  const listed: { j: number; standing: Standing }[] = [];
  if (ev.own[c] !== null) listed.push({ j: c, standing: cell.rejected ? 'rejected' : 'used' });
  for (const p of pieces) listed.push({ j: p.condition, standing: 'used' });
  if (predictionUsed)
    for (const j of levels!.members)
      if (j !== c && levels!.rejected[j]) listed.push({ j, standing: 'rejected' });
  for (const { j, standing } of listed) {
    const e = ev.own[j]!;
    body.points.push(...conditionPoints(j, e, standing, ev, ctx, k));
    body.steps.push(...conditionSteps(j, e, ev, ctx, k));
  }
  if (levels !== null && levels.level !== null) body.steps.push(crossCheckStep(levels, ev, c));
  if (predictionUsed) body.steps.push(predictionStep(c, record, cell.prediction!.variance, ev));
  body.steps.push(blendStep(c, ev));
  const range = ownRangeStep(c, ev);
  if (range !== null) body.steps.push(range);
  if (slot === UNGRADED && ev.crossSource !== null) body.steps.push(crossSourceStep(ev.crossSource));
  const withheld = ev.withheld[c]!;
  if (withheld !== null) {
    body.steps.push(noPriceStep(withheld, cell, ev.lastKnown, params.asOf));
    return body;
  }
  const unclamped = Math.exp(cell.estimate.mean);
  let price = unclamped;
  if (slot !== UNGRADED) {
    const m = /^([a-z]+)(\d+)$/.exec(slot)!;
    const grader = m[1]!.toUpperCase() as Grader;
    const gi = Number(m[2]) - 7;
    const column = clampColumn(ev, grader);
    price = column.price[gi]!;
    const above = gi < 3 ? (column.price.slice(gi + 1).find((p) => p !== null) ?? null) : null;
    const aboveKey =
      above === null
        ? null
        : conditionKey(grader, 7 + gi + 1 + column.price.slice(gi + 1).findIndex((p) => p !== null));
    body.steps.push(
      step(
        'clamp',
        '6.4',
        above === null
          ? `No priced grade of ${grader} above ${slot}: nothing to clamp; ${cents(price)}.`
          : column.clampedFrom[gi] !== null
            ? `${cents(unclamped)} is above ${aboveKey}'s ${cents(above)}: lowered to it (a grade is never priced above the grade over it).`
            : `${cents(unclamped)} is not above ${aboveKey}'s ${cents(above)}: unchanged.`,
        {
          value_minor: price,
          inputs: {
            unclamped_minor: unclamped,
            ceiling_minor: above,
            ceiling_slot: aboveKey,
            clamped: column.clampedFrom[gi] !== null,
          },
        },
      ),
    );
  }
  body.steps.push(
    step(
      'rounding',
      '12',
      `Rounded once, half up, to whole cents, at least 1: max(1, ⌊${price.toFixed(4)} + 0.5⌋) = ${roundCents(price)}.`,
      {
        value_minor: roundCents(price),
        inputs: { unrounded_minor: price },
      },
    ),
  );
  body.steps.push(tierStep(published));
  body.steps.push(intervalStep(published, cell.estimate.mean, intervalOf(cell, params.asOf, ev.lastKnown)));
  body.steps.push(freshnessStep(published, params.asOf - cell.estimate.newestAt));
  return body;
}

function crossCheckStep(levels: CardLevels, ev: BundleEvidence, c: number): EvidenceStep {
  const level = levels.level!;
  const conditions = levels.members.map((j) => ({
    condition: PRICED_CONDITIONS[j]!,
    level_ln: levels.z[j]!,
    variance: levels.v[j]!,
    sd_off: Math.abs(levels.z[j]! - level) / Math.sqrt(levels.v[j]!),
    kept_points: ev.own[j]!.included,
    set_aside: levels.rejected[j]!,
  }));
  const own = conditions.find((x) => x.condition === PRICED_CONDITIONS[c]);
  const aside = conditions.filter((x) => x.set_aside).map((x) => x.condition);
  const text =
    `Each condition with data implies a PSA 10 level z = ŷ - ln r (r its ratio to PSA 10); the card's level L is their weighted median, ${ln(level)} (${cents(Math.exp(level))}). ` +
    (own === undefined ? '' : `${own.condition} lies ${own.sd_off.toFixed(2)} sd from it. `) +
    `A condition with fewer than ${CROSS_CHECK_MAX_POINTS} kept points more than ${CROSS_CHECK_SIGMAS} sd off is set aside: ${aside.length === 0 ? 'none' : aside.join(', ')}.`;
  return step('cross_check', '6.2', text, {
    value_ln: level,
    inputs: { level_ln: level, threshold_sd: CROSS_CHECK_SIGMAS, conditions },
  });
}

function predictionStep(
  c: number,
  record: PredictionRecord,
  variance: number,
  ev: BundleEvidence,
): EvidenceStep {
  const target = PRICED_CONDITIONS[c]!;
  const logRatio = ev.table.logRatio[c]!;
  const { pieces, shared } = record;
  let sum = 0;
  let total = 0;
  const rows = pieces.map((p) => {
    sum += p.weight * p.value;
    total += p.weight;
    return {
      condition: PRICED_CONDITIONS[p.condition]!,
      own_ln: ev.own[p.condition]!.mean,
      log_ratio: ev.table.logRatio[p.condition]!,
      value_ln: p.value,
      variance: p.variance,
      weight: p.weight,
    };
  });
  const mean = sum / total;
  const list = rows
    .map((r) => `${r.condition} ${cents(Math.exp(r.value_ln))} (weight ${r.weight.toFixed(4)})`)
    .join(', ');
  return step(
    'prediction',
    '6.3',
    `${target} predicted from the card's other conditions of its closest kind (the same grade at other graders, else the same grader's other grades, else the rest): ` +
      `each gives ŷ_j - ln r_j + ln r_${target} (ln r_${target} = ${ln(logRatio)}, ${ev.priorRatios[c] ? 'the prior' : 'calibrated'}), ` +
      `weighted 1 / (its variance - ${shared.toFixed(6)}, the smallest pair spread², which every piece shares), then Huber (beyond ${PREDICTION_HUBER_K} sd): ${list}; ` +
      `weighted mean ${ln(mean)} (${cents(Math.exp(mean))}), variance ${shared.toFixed(6)} + 1 / Σ weights = ${variance.toFixed(6)}.`,
    {
      value_ln: mean,
      value_minor: Math.exp(mean),
      inputs: {
        target_log_ratio: logRatio,
        prior_ratio: ev.priorRatios[c],
        pieces: rows,
        shared_variance: shared,
        variance,
      },
    },
  );
}

function blendStep(c: number, ev: BundleEvidence): EvidenceStep {
  const cell = ev.cells[c]!;
  const e = cell.estimate!;
  const own = cell.ownWeight > 0 ? cell.own! : null;
  const pred = cell.prediction;
  let text: string;
  if (ev.sealed) text = 'A sealed product: every condition is priced from its own estimate alone.';
  else if (own === null)
    text = `No usable own estimate: the price is the prediction${cell.rejected ? ' (the own points were set aside by the cross-check)' : ''}.`;
  else if (pred === null) text = 'No other condition of the card has data: the own estimate alone.';
  else if (plentiful(own))
    text = `${own.windowKept} kept points in the requested window (at least ${OWN_FULL_WEIGHT_POINTS}): the own estimate alone.`;
  else if (own.loneQuote)
    text =
      "The condition's only point of the 30 days is a price guide's quote, a summary of many sales: it is the price, the card model does not move it (§6.6).";
  else {
    const r = Math.abs(own.mean - pred.mean) / Math.sqrt(own.variance + pred.variance);
    const blended = cell.heldFrom ?? e.mean;
    text =
      `Own and prediction lie r = ${r.toFixed(3)} sd apart (Huber factor ${Math.min(1, PREDICTION_HUBER_K / r).toFixed(4)}); own weight w = ${cell.ownWeight.toFixed(6)}: ` +
      `ŷ = w · ${ln(own.mean)} + (1 - w) · ${ln(pred.mean)} = ${ln(blended)}. ` +
      `Pooling with the card's other conditions moved the own estimate ${cents(Math.exp(own.mean))} by ${percent(blended - own.mean)}, ` +
      `because the own data is thin (${own.windowKept} kept point(s) in the requested window, ${own.included} in all; ${OWN_FULL_WEIGHT_POINTS} are priced alone) ` +
      `and its variance ${own.variance.toFixed(6)} against the prediction's ${pred.variance.toFixed(6)} leaves it weight ${cell.ownWeight.toFixed(4)}. ` +
      `The blend's variance: w · ${own.variance.toFixed(6)} + ${BLEND_GAP_WEIGHT} · w · (1 - w) · (the gap ${(own.mean - pred.mean).toFixed(6)})² = ${e.variance.toFixed(6)}.`;
  }
  const blended = cell.heldFrom ?? e.mean;
  text += ` Price e^ŷ = ${cents(Math.exp(blended))}.`;
  return step('blend', ev.sealed ? '6.5' : '6.4', text, {
    value_ln: blended,
    value_minor: Math.exp(blended),
    inputs: {
      own_ln: own?.mean ?? null,
      own_variance: own?.variance ?? null,
      prediction_ln: pred?.mean ?? null,
      prediction_variance: pred?.variance ?? null,
      own_weight: cell.ownWeight,
      pooled_move_ln: own === null ? null : blended - own.mean,
      variance: e.variance,
    },
  });
}

/** §6.6: the price held within the range of the cell's own kept window points, when it has enough of them; null otherwise. */
function ownRangeStep(c: number, ev: BundleEvidence): EvidenceStep | null {
  const cell = ev.cells[c]!;
  const own = cell.ownWeight > 0 ? cell.own! : null;
  const { basis, reason } = basisOf(cell);
  const basisText = `Basis: ${basis}${reason === null ? '' : ` (${reason})`}.`;
  if (own === null || own.windowKept < OWN_EVIDENCE_MIN_POINTS) {
    return step(
      'own_range',
      '6.6',
      `Fewer than ${OWN_EVIDENCE_MIN_POINTS} own points kept in the requested window: the price is not held to their range. ${basisText}`,
      {
        inputs: { basis, basis_reason: reason, held: false },
      },
    );
  }
  const shift = own.carry?.move ?? 0;
  const lo = own.windowLo + shift;
  const hi = own.windowHi + shift;
  const before = cell.heldFrom ?? cell.estimate!.mean;
  const after = cell.estimate!.mean;
  const text =
    `${own.windowKept} own points kept in the requested window, from ${cents(Math.exp(own.windowLo))} to ${cents(Math.exp(own.windowHi))}` +
    (shift === 0 ? '' : `, moved ${percent(shift)} with the card (§6.1)`) +
    `: the price stays within them, so plentiful consistent own sales are never moved past their range by the card model. ` +
    (cell.heldFrom === null
      ? `${cents(Math.exp(before))} is within: unchanged.`
      : `${cents(Math.exp(before))} is outside: held to ${cents(Math.exp(after))}.`) +
    ` ${basisText}`;
  return step('own_range', '6.6', text, {
    value_ln: after,
    value_minor: Math.exp(after),
    inputs: {
      low_ln: lo,
      high_ln: hi,
      unheld_ln: before,
      held: cell.heldFrom !== null,
      basis,
      basis_reason: reason,
    },
  });
}

/** A ln difference as a signed percentage, `+1.23 %`. */
function percent(d: number): string {
  const p = (Math.exp(d) - 1) * 100;
  return `${p >= 0 ? '+' : ''}${p.toFixed(2)} %`;
}

function tierStep(slot: Slot): EvidenceStep {
  const tier = (slot.meta.oracle_fallback_tier as string | undefined) ?? null;
  return step(
    'tier',
    '11',
    `methodology ${slot.methodology}; ${tier === null ? "no fallback tier: the price rests on the condition's own observations (blended with the prediction as the blend step says)" : `fallback tier ${tier} (§8)`}; ` +
      `${slot.included_points} own point(s) included, ${slot.excluded_points} excluded.`,
    {
      inputs: {
        methodology: slot.methodology,
        tier,
        included_points: slot.included_points,
        excluded_points: slot.excluded_points,
      },
    },
  );
}

function intervalStep(slot: Slot, mean: number, band: Interval): EvidenceStep {
  const conf = slot.meta.confidence as { low_minor: number; high_minor: number };
  return step(
    'interval',
    '9',
    `80 % prediction interval for the next sale: e^(ŷ ± ${band.quantile} · ${band.factor} · √(${band.variance.toFixed(6)} + ${band.scatter.toFixed(6)})) = e^(${ln(mean)} ± ${band.half.toFixed(6)}), ` +
      `the level's variance plus one sale's scatter, times the quantile of real next-sale residuals for this basis and age; rounded as prices and widened to contain the price: ${conf.low_minor} to ${conf.high_minor} cents.`,
    {
      inputs: {
        variance: band.variance,
        scatter: band.scatter,
        quantile: band.quantile,
        width_factor: band.factor,
        low_minor: conf.low_minor,
        high_minor: conf.high_minor,
      },
    },
  );
}

/** §18: the sources of the ungraded condition compared, each by its median of the 30 days. */
function crossSourceStep(check: CrossSource): EvidenceStep {
  const medians = Object.entries(check.medians)
    .map(([name, m]) => `${name} ${(m / 100).toFixed(2)}`)
    .join(', ');
  const verdict = check.agree
    ? `within ${CROSS_SOURCE_MAX_RATIO}-fold (or $${CROSS_SOURCE_MIN_GAP_MINOR / 100}): they agree`
    : `beyond ${CROSS_SOURCE_MAX_RATIO}-fold and $${CROSS_SOURCE_MIN_GAP_MINOR / 100}: they disagree, ${check.outlier} furthest from the rest; the ungraded price is withheld rather than averaged (no_price_reason ${NO_PRICE_REASON.sources}). Is one source's id mapped to another card or variant?`;
  return step(
    'cross_source',
    '18',
    `Sources' median prices of the 30 days, US dollars: ${medians}; highest over lowest ${check.ratio.toFixed(2)}-fold, ${verdict}`,
    { inputs: { ...crossSourceMeta(check) } },
  );
}

/** §9.1: an estimate too stale or too uncertain to publish. */
function noPriceStep(reason: NoPriceReason, cell: CellPrice, lastKnown: boolean, asOf: number): EvidenceStep {
  const e = cell.estimate!;
  const width = estimateLogWidth(cell, lastKnown);
  const text =
    reason === NO_PRICE_REASON.sources
      ? `The sources of the price disagree (§18): no price (no_price_reason ${reason}).`
      : reason === NO_PRICE_REASON.stale
        ? `The price would be an estimate resting on data whose newest observation is ${hours(asOf - e.newestAt)} old, beyond the stale age of ${hours(STALE_AFTER_MS)}: no price (no_price_reason ${reason}).`
        : `The price would be an estimate whose level's 80 % interval (before the next sale's scatter) spans ${Math.exp(width).toFixed(2)}-fold (ln ${width.toFixed(3)}), more than e^${ESTIMATE_MAX_LOG_WIDTH} = ${Math.exp(ESTIMATE_MAX_LOG_WIDTH).toFixed(2)}-fold: no price (no_price_reason ${reason}).`;
  return step('no_price', '9.1', text, {
    value_ln: e.mean,
    value_minor: Math.exp(e.mean),
    inputs: {
      no_price_reason: reason,
      interval_log_width: width,
      max_log_width: ESTIMATE_MAX_LOG_WIDTH,
      newest_age_ms: asOf - e.newestAt,
      stale_after_ms: STALE_AFTER_MS,
    },
  });
}

function freshnessStep(slot: Slot, ageMs: number): EvidenceStep {
  const newest = slot.meta.newest_observation_at as string;
  const stale = slot.meta.stale as boolean;
  return step(
    'freshness',
    '10',
    `Newest observation that entered the price: ${newest}, ${hours(ageMs)} before as_of; ${stale ? 'stale' : 'not stale'} (stale beyond ${hours(STALE_AFTER_MS)}).`,
    { inputs: { newest_observation_at: newest, stale } },
  );
}

/**
 * The evidence of an extra grade (`bgs9.5`, `tag10`, ...; docs/methodology.md §15): its own
 * points of the 30 days and the steps of its own estimate; no card model, clamp or fallback.
 * `input.extraPoints` holds the product's extra-grade points (absent: none).
 */
function explainExtraSlot(input: ComputeBundleInput, slot: string): EvidenceBody {
  const { params } = input;
  const ev = extraEvidence(input.extraPoints ?? [], params);
  const { ctx } = ev;
  const k = params.outlierStddevs;
  const j = ev.conditions.indexOf(slot);
  const e = j < 0 ? null : ev.own[j]!;
  const { grader, grade } = parseConditionKey(slot)!;
  const published = e === null ? null : extraGradeSlots(ev)[grader]![String(grade)]!;
  const body: EvidenceBody = {
    id: input.id,
    product_key: input.product.productKey,
    slot,
    as_of: ctx.iso(params.asOf),
    window_hours: params.windowHours,
    outlier_stddevs: k,
    price_minor: published?.price_minor ?? null,
    methodology: published?.methodology ?? ownMethodology(params.windowHours),
    points: [],
    steps: [],
  };
  if (e === null || published === null) {
    body.steps.push(
      step(
        'tier',
        '15',
        `${grader} ${grade} is an extra grade, priced only from its own observations of the 30 days before as_of, and it has none: absent from extra_grades, nothing is invented.`,
      ),
    );
    return body;
  }
  const cev = { series: ev.series, lastKnown: false, own: ev.own, names: ev.conditions };
  body.points.push(...conditionPoints(j, e, 'used', cev, ctx, k));
  body.steps.push(...conditionSteps(j, e, cev, ctx, k));
  const price = Math.exp(e.mean);
  body.steps.push(
    step(
      'rounding',
      '12',
      `Rounded once, half up, to whole cents, at least 1: max(1, ⌊${price.toFixed(4)} + 0.5⌋) = ${roundCents(price)}.`,
      {
        value_minor: roundCents(price),
        inputs: { unrounded_minor: price },
      },
    ),
  );
  body.steps.push(tierStep(published));
  body.steps.push(intervalStep(published, e.mean, intervalOf(ownCell(e), params.asOf, false)));
  body.steps.push(freshnessStep(published, params.asOf - e.newestAt));
  return body;
}
