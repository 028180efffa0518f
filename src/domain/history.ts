/**
 * A price history request, shared by `oracle history` and the history route: which slots,
 * from when to when, how often. Parsed here so the CLI and the API name a bad parameter and
 * its range in the same words (the CLI spells them `--from`, the API `from`).
 */
import { GRADERS, MATRIX_GRADES, UNGRADED, conditionKey } from './conditions.js';
import { InvalidParameterError } from './errors.js';
import { parseAsOf } from './params.js';
import { DAY_MS, HOUR_MS } from './time.js';

/** Most instants one request prices (CLI and API): beyond it, a usage error naming the limit. */
export const HISTORY_MAX_POINTS = 1_000;
/** Span of a history without `from`. */
export const HISTORY_DEFAULT_DAYS = 90;
export const HISTORY_DEFAULT_EVERY = '1d';
export const HISTORY_DEFAULT_SLOTS: readonly string[] = [UNGRADED, conditionKey('PSA', 10)];

/** Every slot a bundle prices: `ungraded` and `psa7` ... `sgc10`. */
export const SLOT_KEYS: readonly string[] = [UNGRADED, ...GRADERS.flatMap((g) => MATRIX_GRADES.map((n) => conditionKey(g, n)))];

const STEP_UNITS = { h: HOUR_MS, d: DAY_MS, w: 7 * DAY_MS } as const;
/** A step between points: a whole number 1-9999, then h, d or w. */
export const STEP = /^([1-9]\d{0,3})([hdw])$/;

export interface HistoryNames {
  from: string;
  to: string;
  every: string;
  slots: string;
}

export const API_HISTORY_NAMES: HistoryNames = { from: 'from', to: 'to', every: 'every', slots: 'slots' };

export interface HistoryRequest {
  slots: string[];
  /** As given (`1d`), for the body. */
  every: string;
  /** The instants to price, oldest first; the last is `to`. */
  instants: number[];
}

export interface RawHistoryRequest {
  from?: string;
  to?: string;
  every?: string;
  slots?: string;
}

export function parseEvery(raw: string | undefined, name = 'every'): { every: string; ms: number } {
  const every = raw ?? HISTORY_DEFAULT_EVERY;
  const m = STEP.exec(every);
  if (!m) {
    throw new InvalidParameterError(name, `${name} must be a step like 1h, 1d or 1w (a whole number 1-9999, then h, d or w; got ${JSON.stringify(every)})`);
  }
  return { every, ms: Number(m[1]) * STEP_UNITS[m[2] as keyof typeof STEP_UNITS] };
}

export function parseSlots(raw: string | undefined, name = 'slots'): string[] {
  if (raw === undefined) return [...HISTORY_DEFAULT_SLOTS];
  const slots = raw.split(',').map((s) => s.trim().toLowerCase());
  const bad = slots.filter((s) => !SLOT_KEYS.includes(s));
  if (bad.length > 0 || slots.length === 0) {
    throw new InvalidParameterError(
      name,
      `${name} must be a comma-separated list of ungraded or a grader and grade 7-10 (psa10, bgs9, cgc8, sgc7); unknown: ${bad.map((s) => JSON.stringify(s)).join(', ')}`,
    );
  }
  return [...new Set(slots)];
}

/**
 * The request's instants: from `to` (default now) back to `from` (default 90 days before
 * `to`) every `every`, oldest first, so the newest point is always `to` itself. Both ends
 * are instants as `--at` takes them (not later than now).
 */
export function parseHistoryRequest(raw: RawHistoryRequest, now: number, names: HistoryNames = API_HISTORY_NAMES): HistoryRequest {
  const slots = parseSlots(raw.slots, names.slots);
  const { every, ms } = parseEvery(raw.every, names.every);
  const to = parseAsOf(raw.to, now, names.to);
  const from = raw.from === undefined ? to - HISTORY_DEFAULT_DAYS * DAY_MS : parseAsOf(raw.from, now, names.from);
  if (from > to) throw new InvalidParameterError(names.from, `${names.from} must not be later than ${names.to}`);
  const count = Math.floor((to - from) / ms) + 1;
  if (count > HISTORY_MAX_POINTS) {
    throw new InvalidParameterError(
      names.every,
      `a history is at most ${HISTORY_MAX_POINTS.toLocaleString('en-US')} points: ${names.from} to ${names.to} every ${every} is ${count}; use a larger ${names.every} or a shorter span`,
    );
  }
  const instants = Array.from({ length: count }, (_, i) => to - (count - 1 - i) * ms);
  return { slots, every, instants };
}
