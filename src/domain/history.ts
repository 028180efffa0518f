/**
 * A price history request, shared by `oracle history` and the history route: which slots,
 * from when to when, how often. Its inputs are defined here, so the CLI and the API name a
 * bad parameter and its range in the same words (the CLI spells them `--from`, the API `from`).
 */
import { GRADERS, MATRIX_GRADES, UNGRADED, conditionKey, parseCondition } from './conditions.js';
import * as z from 'zod/mini';
import { InvalidParameterError } from './errors.js';
import { checkedText, deferred } from './input.js';
import { asOf } from './params.js';
import { DAY_MS, EARLIEST_MS, HOUR_MS, toIsoUtc, YEAR_RANGE } from './time.js';

/** Most instants one request prices (CLI and API): beyond it, a usage error naming the limit. */
export const HISTORY_MAX_POINTS = 1_000;
/** Span of a history without `from`. */
export const HISTORY_DEFAULT_DAYS = 90;
export const HISTORY_DEFAULT_EVERY = '1d';
export const HISTORY_DEFAULT_SLOTS: readonly string[] = [UNGRADED, conditionKey('PSA', 10)];

/** Every slot a bundle prices: `ungraded` and `psa7` ... `sgc10`. */
export const SLOT_KEYS: readonly string[] = [
  UNGRADED,
  ...GRADERS.flatMap((g) => MATRIX_GRADES.map((n) => conditionKey(g, n))),
];

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

/** The texts of a history request, each as its schema below (or `instant`) took it; absent ones take their defaults. */
export interface RawHistoryRequest {
  from?: string;
  to?: string;
  every?: string;
  slots?: string;
}

/** `every` / `--every`: the step between points, `<n>h`, `<n>d` or `<n>w`. */
export const every = deferred(() =>
  z._default(
    checkedText(
      (raw) =>
        raw !== undefined && STEP.test(raw)
          ? null
          : `must be a step like 1h, 1d or 1w (a whole number 1-9999, then h, d or w; got ${JSON.stringify(raw)})`,
      STEP,
    ),
    HISTORY_DEFAULT_EVERY,
  ),
);

/** The length of a step `STEP` took (`7d`), in ms. */
export function stepMs(step: string): number {
  const [, n, unit] = STEP.exec(step) as RegExpExecArray;
  return Number(n) * STEP_UNITS[unit as keyof typeof STEP_UNITS];
}

/** `word` in any case, as a pattern without flags (JSON Schema patterns have none). */
const anyCase = (word: string) => word.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);
/**
 * One slot as people write it: `ungraded` or `raw`, or a grader and a grade 7-10 with or
 * without a space (`psa10`, `PSA 10`, `BGS 9`), any case; conditions.ts parseCondition gives its key.
 */
const anySlot = () =>
  `(?:${anyCase(UNGRADED)}|${anyCase('raw')}|(?:${GRADERS.map((g) => anyCase(g.toLowerCase())).join('|')}) ?(?:${MATRIX_GRADES.join('|')}))`;

/** The condition keys of a list `slots` took. */
const slotList = (text: string) => text.split(',').map((s) => parseCondition(s.trim()) as string);

/** `slots` / `--slots`: the slots of a history, comma-separated, each as people write it (`ungraded,PSA 10,bgs9`). */
export const slots = deferred(() => {
  const slot = anySlot();
  const oneSlot = new RegExp(`^${slot}$`);
  /** Slots comma-separated, spaces around each ignored. */
  const slotListPattern = new RegExp(`^\\s*${slot}\\s*(?:,\\s*${slot}\\s*)*$`);
  return z._default(
    checkedText((raw) => {
      const bad = (raw ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => !oneSlot.test(s));
      return raw !== undefined && bad.length === 0
        ? null
        : `must be a comma-separated list of ungraded (or raw) or a grader and grade 7-10 (psa10, PSA 10, bgs9, cgc8, sgc7); unknown: ${bad.map((s) => JSON.stringify(s)).join(', ')}`;
    }, slotListPattern),
    HISTORY_DEFAULT_SLOTS.join(','),
  );
});

/**
 * The request's instants: from `to` (default now) back to `from` (default 90 days before
 * `to`) every `every`, oldest first, so the newest point is always `to` itself. Both ends
 * are instants as `--at` takes them (not later than now). The texts are the ones the schemas
 * took; what is checked here needs the clock or several of them.
 */
export function parseHistoryRequest(
  raw: RawHistoryRequest,
  now: number,
  names: HistoryNames = API_HISTORY_NAMES,
): HistoryRequest {
  const request = {
    slots: raw.slots ?? HISTORY_DEFAULT_SLOTS.join(','),
    every: raw.every ?? HISTORY_DEFAULT_EVERY,
  };
  const ms = stepMs(request.every);
  const to = asOf(raw.to, now, names.to);
  const from =
    raw.from === undefined ? to - HISTORY_DEFAULT_DAYS * DAY_MS : asOf(raw.from, now, names.from, 'start');
  if (from > to)
    throw new InvalidParameterError(names.from, `${names.from} must not be later than ${names.to}`);
  if (from < EARLIEST_MS)
    throw new InvalidParameterError(
      names.from,
      `${names.from} ${toIsoUtc(EARLIEST_MS)} is the earliest a history starts (years ${YEAR_RANGE.min} to ${YEAR_RANGE.max})`,
    );
  const count = Math.floor((to - from) / ms) + 1;
  if (count > HISTORY_MAX_POINTS) {
    throw new InvalidParameterError(
      names.every,
      `a history is at most ${HISTORY_MAX_POINTS.toLocaleString('en-US')} points: ${names.from} to ${names.to} every ${request.every} is ${count}; use a larger ${names.every} or a shorter span`,
    );
  }
  const instants = Array.from({ length: count }, (_, i) => to - (count - 1 - i) * ms);
  return { slots: [...new Set(slotList(request.slots))], every: request.every, instants };
}
