/**
 * The plain summary `oracle explain` opens with: the price and its interval, how many of the
 * slot's own observations it rests on, what was left out and why, and how far the card's
 * other conditions moved it, in words a collector reads without docs/methodology.md. It is
 * read off the same evidence as the details below it, so the two never disagree.
 */
import type { EvidenceBody, EvidencePoint, EvidenceStep } from '../../domain/evidence.js';
import { formatUsd } from './money.js';
import { NO_PRICE_LIMITS, NO_PRICE_REASON } from '../../engine/methodology.js';

/** Why points were left out, in plain words, by the reason's code (engine/explain.ts). */
const LEFT_OUT: Record<string, string> = {
  outlier: 'far from the others (outliers)',
  outside_reference_set: 'older than the newest ones that were enough',
  older_than_30_days: 'older than 30 days',
  before_regime_change: 'from before the market moved',
  cross_check: 'set aside: this grade disagreed with the rest of the card',
};

/** A move by the card's other conditions smaller than this share of the price is not worth a line. */
const NOTABLE_MOVE = 0.001;

const code = (reason: string) => reason.slice(0, reason.indexOf(':'));

const step = (ev: EvidenceBody, name: string, condition?: string): EvidenceStep | undefined =>
  ev.steps.find((s) => s.name === name && (condition === undefined || s.condition === condition));

/** `2 ebay, 13 pricecharting`: how many points each source gave, most first. */
function bySource(points: readonly EvidencePoint[]): string {
  const counts = new Map<string, number>();
  for (const p of points) counts.set(p.source, (counts.get(p.source) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([source, n]) => `${n} ${source}`)
    .join(', ');
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** How old an instant is at `asOf`, in the unit a person would use. */
function age(instant: string, asOf: string): string {
  const hours = (Date.parse(asOf) - Date.parse(instant)) / 3_600_000;
  if (hours < 1) return 'less than an hour';
  if (hours < 48) return plural(Math.round(hours), 'hour');
  return plural(Math.round(hours / 24), 'day');
}

/** The summary's sentences, one a line; the caller wraps them to the terminal. */
export function summariseEvidence(ev: EvidenceBody): string[] {
  const lines: string[] = [];
  const interval = step(ev, 'interval')?.inputs as { low_minor?: number; high_minor?: number } | undefined;
  const withheld = step(ev, 'no_price')?.inputs as { no_price_reason?: string } | undefined;
  if (ev.price_minor === null && withheld !== undefined) {
    lines.push(
      withheld.no_price_reason === NO_PRICE_REASON.stale
        ? `${ev.slot}: no price. It could only be estimated, from data older than ${NO_PRICE_LIMITS.staleAge} (methodology §9.1).`
        : `${ev.slot}: no price. It could only be estimated, too uncertainly to publish (its interval would span over ${NO_PRICE_LIMITS.maxSpread}; methodology §9.1).`,
    );
  } else if (ev.price_minor === null) {
    lines.push(`${ev.slot}: no price. Nothing of this card in 30 days gives one.`);
  } else {
    const range =
      interval?.low_minor === undefined || interval.high_minor === undefined
        ? ''
        : ` (80 % interval ${formatUsd(interval.low_minor)} to ${formatUsd(interval.high_minor)})`;
    lines.push(`${ev.slot}: ${formatUsd(ev.price_minor)}${range}.`);
  }

  const own = ev.points.filter((p) => p.condition === ev.slot);
  const kept = own.filter((p) => p.kept);
  const newest = step(ev, 'freshness')?.inputs as
    { newest_observation_at?: string | null; stale?: boolean } | undefined;
  if (kept.length > 0) {
    const fresh =
      newest?.newest_observation_at == null
        ? ''
        : `, the newest ${age(newest.newest_observation_at, ev.as_of)} old${newest.stale ? ' (stale)' : ''}`;
    lines.push(`From ${plural(kept.length, 'observation')} of its own (${bySource(kept)})${fresh}.`);
  } else if (ev.price_minor !== null) {
    const others = [...new Set(ev.points.filter((p) => p.kept).map((p) => p.condition))];
    lines.push(
      `No observation of its own counts: it is estimated from the card's other conditions (${others.join(', ') || 'none'}).`,
    );
  }

  const dropped = new Map<string, number>();
  for (const p of own)
    if (p.reason !== null) dropped.set(code(p.reason), (dropped.get(code(p.reason)) ?? 0) + 1);
  if (dropped.size > 0) {
    const parts = [...dropped].map(([reason, n]) => `${n} ${LEFT_OUT[reason] ?? reason}`);
    lines.push(`Left out of its own: ${parts.join('; ')}.`);
  }

  const ownEstimate = step(ev, 'own_estimate', ev.slot)?.value_minor;
  if (ev.price_minor !== null && kept.length > 0 && typeof ownEstimate === 'number') {
    const move = ev.price_minor / ownEstimate - 1;
    lines.push(
      Math.abs(move) < NOTABLE_MOVE
        ? "The card's other conditions did not move it."
        : `The card's other conditions moved it ${move > 0 ? '+' : ''}${(move * 100).toFixed(1)} % from its own ${formatUsd(Math.round(ownEstimate))}.`,
    );
  }
  const tier = (step(ev, 'tier')?.inputs as { tier?: string | null } | undefined)?.tier;
  if (typeof tier === 'string') lines.push(`Fallback: ${tier} (docs/methodology.md, tiers).`);
  return lines;
}
