/**
 * Price history: the bundle at each instant of a request, reduced to the chosen slots' prices
 * and intervals (the body of the history route and `oracle history --json`), and the summary
 * the CLI shows beside its chart (first, last, min, max, change over 7, 30 and 90 days).
 * Prices and intervals are the bundles' own: nothing here prices anything.
 */
import type { BundleMetadata, PricingBundle, Slot } from '../domain/bundle.js';
import {
  UNGRADED,
  isExtraCondition,
  parseConditionKey,
  type Grader,
  type MatrixGradeKey,
} from '../domain/conditions.js';
import type { HistoryRequest } from '../domain/history.js';
import type { ConvertedFigures } from './currency.js';
import { DAY_MS, toIsoUtc } from '../domain/time.js';

/** A slot's interval, as the bundle's `meta.confidence` gives it (pricing v2); null without one. */
export interface Confidence {
  level: number;
  low_minor: number;
  high_minor: number;
}

export interface HistoryValue {
  price_minor: number | null;
  confidence: Confidence | null;
  /** With `--currency`: the slot's figures in that currency (its bundle's `meta.converted`, CONTRACT.md additions 20). */
  converted?: ConvertedFigures;
}

export type HistoryPoint = { at: string } & { [slot: string]: HistoryValue | string };

export interface HistoryBody {
  product_key: string;
  slots: string[];
  every: string;
  points: HistoryPoint[];
}

/** A price at an instant. */
export interface PricedAt {
  at: string;
  price_minor: number;
}

/** How a price moved over `days`: from the price `days` before `to` (null when either is unknown). */
export interface PriceChange {
  days: number;
  from: PricedAt | null;
  to: PricedAt | null;
  change_minor: number | null;
  /** Percent of `from`, one decimal. */
  change_pct: number | null;
}

export interface SlotSummary {
  slot: string;
  priced_points: number;
  first: PricedAt | null;
  last: PricedAt | null;
  min: PricedAt | null;
  max: PricedAt | null;
  changes: PriceChange[];
}

export interface History {
  body: HistoryBody;
  summary: SlotSummary[];
  /** The product's catalog fields, for a title. */
  metadata: BundleMetadata;
  /** The latest instant's interval per slot (null without one), for the summary. */
  latest: Record<string, Confidence | null>;
  /** With `--currency`: the latest instant's figures per slot in that currency (null: none). */
  latestConverted: Record<string, ConvertedFigures | null>;
}

/** The spans `oracle history` reports a change over. */
export const HISTORY_CHANGE_DAYS = [7, 30, 90] as const;
/** The spans `oracle price` reports the ungraded price's change over. */
export const PRICE_CHANGE_DAYS = [7, 30] as const;

/**
 * A bundle's slot by key, `slotOf`'s or an extra grade's (`bgs9.5`, `tag10`) of a bundle
 * priced with its extra grades; null for an extra grade the bundle has no price for (no
 * observation in the 30 days: absent, CONTRACT.md additions 6).
 */
export function findSlot(bundle: PricingBundle, key: string): Slot | null {
  if (!isExtraCondition(key)) return slotOf(bundle, key);
  const { grader, grade } = parseConditionKey(key)!;
  return bundle.extra_grades?.[grader]?.[String(grade)] ?? null;
}

/** A bundle's slot by key: `ungraded` or grader and grade (`psa10`). */
export function slotOf(bundle: PricingBundle, key: string): Slot {
  if (key === UNGRADED) return bundle.ungraded;
  const m = /^([a-z]+)(\d+)$/.exec(key);
  const slot = m ? bundle.graded[m[1]!.toUpperCase() as Grader]?.[m[2] as MatrixGradeKey] : undefined;
  if (!slot) throw new RangeError(`no slot ${key} in a bundle`);
  return slot;
}

export function confidenceOf(slot: Slot): Confidence | null {
  const c = slot.meta.confidence as Partial<Confidence> | undefined;
  if (
    !c ||
    typeof c.low_minor !== 'number' ||
    typeof c.high_minor !== 'number' ||
    typeof c.level !== 'number'
  )
    return null;
  return { level: c.level, low_minor: c.low_minor, high_minor: c.high_minor };
}

/** `slotOf` for one key, its parsing done once: a history looks up the same slots in every bundle. */
function slotReader(key: string): (bundle: PricingBundle) => Slot {
  if (key === UNGRADED) return (bundle) => bundle.ungraded;
  const m = /^([a-z]+)(\d+)$/.exec(key);
  if (!m) return (bundle) => slotOf(bundle, key);
  const grader = m[1]!.toUpperCase() as Grader;
  const grade = m[2] as MatrixGradeKey;
  return (bundle) => bundle.graded[grader]?.[grade] ?? slotOf(bundle, key);
}

/** Reduces a bundle to a history point: its price and interval in each of `slots`, as `at`. */
function pointMaker(slots: readonly string[]): (at: string, bundle: PricingBundle) => HistoryPoint {
  const readers = slots.map(slotReader);
  return (at, bundle) => {
    const point: HistoryPoint = { at };
    slots.forEach((key, s) => {
      const slot = readers[s]!(bundle);
      const value: HistoryValue = { price_minor: slot.price_minor, confidence: confidenceOf(slot) };
      const converted = slot.meta.converted as ConvertedFigures | undefined;
      if (converted !== undefined) value.converted = converted;
      point[key] = value;
    });
    return point;
  };
}

export function historyOf(
  productKey: string,
  request: HistoryRequest,
  bundles: readonly PricingBundle[],
): History {
  const pointOf = pointMaker(request.slots);
  const ats = request.instants.map(toIsoUtc);
  const points = bundles.map((bundle, i) => pointOf(ats[i]!, bundle));
  const summary = request.slots.map((key) => {
    const priced = request.instants.flatMap((t, i) => {
      const price = (points[i]![key] as HistoryValue).price_minor;
      return price === null ? [] : [{ t, at: ats[i]!, price_minor: price }];
    });
    return summarize(key, priced);
  });
  const newest = bundles.at(-1)!;
  return {
    body: { ...bodyHead(productKey, request), points },
    summary,
    metadata: newest.metadata,
    latest: Object.fromEntries(request.slots.map((key) => [key, confidenceOf(slotOf(newest, key))])),
    latestConverted: Object.fromEntries(
      request.slots.map((key) => [
        key,
        (slotOf(newest, key).meta.converted as ConvertedFigures | undefined) ?? null,
      ]),
    ),
  };
}

/** A history body's keys before its points, in the body's order. */
function bodyHead(productKey: string, request: HistoryRequest) {
  return { product_key: productKey, slots: [...request.slots], every: request.every };
}

/** Characters of JSON text gathered before they are encoded as a chunk of the body. */
const JSON_CHUNK_CHARS = 65_536;

/** A history body written as JSON a point at a time: `add` each instant's bundle in order, then `done`. */
export interface HistoryJson {
  add(bundle: PricingBundle): void;
  /** The UTF-8 body: the bytes of JSON.stringify(historyOf(...).body) for the same bundles. */
  done(): Buffer;
}

/**
 * The history route's body, serialised as its points are made: a point's JSON is a step of
 * the work like its bundle, so no step of a long history's answer holds the event loop for
 * the whole body (service/turns.ts), and no bundle is kept once its point is written.
 */
export function historyJson(productKey: string, request: HistoryRequest): HistoryJson {
  const pointOf = pointMaker(request.slots);
  const chunks: Buffer[] = [];
  // historyOf's body up to the opening of its points.
  let text = `${JSON.stringify({ ...bodyHead(productKey, request), points: [] }).slice(0, -2)}`;
  let added = 0;
  return {
    add(bundle) {
      const at = request.instants[added];
      if (at === undefined)
        throw new RangeError(`a history of ${request.instants.length} points has no point ${added + 1}`);
      text += `${added === 0 ? '' : ','}${JSON.stringify(pointOf(toIsoUtc(at), bundle))}`;
      added += 1;
      if (text.length >= JSON_CHUNK_CHARS) {
        chunks.push(Buffer.from(text));
        text = '';
      }
    },
    done() {
      if (added !== request.instants.length)
        throw new RangeError(`a history of ${request.instants.length} points got ${added}`);
      chunks.push(Buffer.from(`${text}]}`));
      return Buffer.concat(chunks);
    },
  };
}

type Timed = PricedAt & { t: number };

const plain = (p: Timed | undefined): PricedAt | null =>
  p ? { at: p.at, price_minor: p.price_minor } : null;

function summarize(slot: string, priced: readonly Timed[]): SlotSummary {
  let min: Timed | undefined;
  let max: Timed | undefined;
  for (const p of priced) {
    if (!min || p.price_minor < min.price_minor) min = p;
    if (!max || p.price_minor > max.price_minor) max = p;
  }
  const last = priced.at(-1);
  return {
    slot,
    priced_points: priced.length,
    first: plain(priced[0]),
    last: plain(last),
    min: plain(min),
    max: plain(max),
    changes: HISTORY_CHANGE_DAYS.map((days) => {
      // The priced point at or just before `days` before the last one, if the history reaches back that far.
      const target = last === undefined ? undefined : last.t - days * DAY_MS;
      const from = target === undefined ? undefined : priced.findLast((p) => p.t <= target);
      return priceChange(days, plain(from), plain(last));
    }),
  };
}

export function priceChange(days: number, from: PricedAt | null, to: PricedAt | null): PriceChange {
  if (from === null || to === null) return { days, from, to, change_minor: null, change_pct: null };
  const change = to.price_minor - from.price_minor;
  return {
    days,
    from,
    to,
    change_minor: change,
    change_pct: Math.round((change / from.price_minor) * 1000) / 10,
  };
}
