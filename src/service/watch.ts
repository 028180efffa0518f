/**
 * Checking watch rules and delivering their events (docs/alerts.md). A check prices each
 * rule's product with the oracle's own `price` (the bundle `oracle price --json` prints at the
 * same instant), reads the rule against it (engine/watch.ts), and records every rule whose
 * condition became true together with its event, in one transaction (the outbox). Then it
 * delivers every pending event, those of earlier checks first. A rule fires again only after a
 * check found its condition false; a check that changes nothing writes nothing.
 */
import { randomUUID } from 'node:crypto';
import type { PricingBundle, Slot } from '../domain/bundle.js';
import { isExtraCondition } from '../domain/conditions.js';
import { InvalidParameterError, UnknownProductError } from '../domain/errors.js';
import { toIsoUtc } from '../domain/time.js';
import {
  describeWatch,
  formatSpan,
  INDEX_WATCH_SLOT,
  usd,
  type StoredWatchEvent,
  type WatchEventBody,
  type WatchRule,
} from '../domain/watch.js';
import { intervalOf, readMove, readWatch, slotOf, type WatchReading } from '../engine/watch.js';
import type { Store, WatchStateChange } from '../store/store.js';
import { formatWatchValue, receiverOf } from './watch-bodies.js';
import { deliverEvent, type DeliveryOptions } from './webhook.js';

/** The bundle of a product key as of an instant, with its extra grades when asked: the oracle's `price`. */
export type PriceAt = (productKey: string, asOf: number, extraGrades: boolean) => Promise<PricingBundle>;

/**
 * A market index's value at `at` and `spanMs` before it (`oracle index show` daily from its
 * base date: the points at the ends of the span), for a rule on an index; null where it has none.
 */
export type IndexMoveAt = (
  name: string,
  at: number,
  spanMs: number,
) => Promise<{ now: number | null; then: number | null }>;

export interface CheckOptions {
  /** The instant priced (`--at`; default the clock). */
  at: number;
  /** The clock: when events are recorded and delivered. */
  now: number;
  /** Where events of rules without a URL of their own go; undefined: such events are recorded `unsent`. */
  webhook?: string;
  delivery?: DeliveryOptions;
  /**
   * A check as of an instant before now (`watch check --at` in the past): it reports what would
   * fire then and records and sends nothing, so a look back never moves a rule's state or
   * alerts a receiver about a price that is not today's.
   */
  preview?: boolean;
}

/** One delivery of this check (an event recorded by it or still pending from an earlier one). */
export interface DeliveryReport {
  event_id: string;
  rule_id: number;
  /** The receiver's origin (a webhook's path often holds its secret, so it is not shown). */
  receiver: string;
  delivered: boolean;
  attempts: number;
  error: string | null;
}

export interface CheckReport {
  as_of: string;
  /** True when nothing was recorded or sent (CheckOptions.preview). */
  preview: boolean;
  rules: number;
  /** The events this check recorded, one per rule whose condition became true. */
  fired: WatchEventBody[];
  deliveries: DeliveryReport[];
  /** Events still waiting for their receiver after this check. */
  pending: number;
  /** Rules this check could not read (their product left the catalog). */
  problems: { rule_id: number; detail: string }[];
}

const API_PRICING = '/api/v1/developer/pricing';
const API_INDEXES = '/api/v1/developer/indexes';

/** The body of a rule on an index firing: its value where a price would be. */
function indexEventBody(
  id: string,
  rule: WatchRule,
  values: { now: number | null; then: number | null },
  reading: WatchReading,
  at: number,
  now: number,
): WatchEventBody {
  const body = eventBody(id, rule, undefined, reading, at, now);
  const shown = `index ${values.now?.toFixed(2)} (${values.then?.toFixed(2)} ${formatSpan(rule.spanMs!)} before)`;
  return {
    ...body,
    price: { ...body.price, methodology: 'market index (docs/indexes.md)', stale: null },
    links: {
      price: `${API_INDEXES}/${encodeURIComponent(rule.productKey)}?to=${encodeURIComponent(toIsoUtc(at))}`,
    },
    text: `oracle watch ${rule.id} "${rule.label}": index ${rule.productKey} ${describeWatch(rule)}: ${formatWatchValue(rule, reading.value)}, ${shown} as of ${toIsoUtc(at)}`,
  };
}

function eventBody(
  id: string,
  rule: WatchRule,
  slot: Slot | undefined,
  reading: WatchReading,
  at: number,
  now: number,
): WatchEventBody {
  const interval = slot === undefined ? null : intervalOf(slot);
  const query = `at=${encodeURIComponent(toIsoUtc(at))}${isExtraCondition(rule.slot) ? '&extra_grades=true' : ''}`;
  const price = slot?.price_minor ?? null;
  const shown =
    price === null
      ? 'no price'
      : `price ${usd(price)}${interval === null ? '' : ` (${Math.round(interval.level * 100)}% interval ${usd(interval.low_minor)} to ${usd(interval.high_minor)})`}`;
  return {
    id,
    type: 'watch.fired',
    created_at: toIsoUtc(now),
    rule: {
      id: rule.id,
      label: rule.label,
      kind: rule.kind,
      amount_minor: rule.amountMinor,
      percent: rule.percent,
      direction: rule.direction,
      span: rule.spanMs === null ? null : formatSpan(rule.spanMs),
    },
    product_key: rule.productKey,
    slot: rule.slot,
    as_of: toIsoUtc(at),
    price: {
      price_minor: price,
      currency: 'USD',
      confidence: interval,
      methodology: slot?.methodology ?? '',
      stale: typeof slot?.meta.stale === 'boolean' ? slot.meta.stale : null,
    },
    value: reading.value,
    previous_value: rule.lastValue,
    links: { price: `${API_PRICING}/${encodeURIComponent(rule.productKey)}?${query}` },
    text: `oracle watch ${rule.id} "${rule.label}": ${rule.productKey} ${describeWatch(rule)}: ${rule.kind === 'move' || rule.kind === 'stale' ? `${formatWatchValue(rule, reading.value)}, ` : ''}${shown} as of ${toIsoUtc(at)}`,
  };
}

/** Evaluates every rule at `options.at`, records what fired with its event, and delivers every pending event (a preview: neither). */
export async function checkWatches(
  store: Store,
  price: PriceAt,
  options: CheckOptions,
  indexMoveAt?: IndexMoveAt,
): Promise<CheckReport> {
  const rules = await store.watches.rules();
  // One pricing per product and instant, however many rules watch it.
  const bundles = new Map<string, Promise<PricingBundle>>();
  const bundleAt = (productKey: string, asOf: number, extra: boolean) => {
    const key = `${productKey}\u0000${asOf}\u0000${extra}`;
    let bundle = bundles.get(key);
    if (bundle === undefined) bundles.set(key, (bundle = price(productKey, asOf, extra)));
    return bundle;
  };
  const changes: WatchStateChange[] = [];
  const bodies = new Map<string, WatchEventBody>();
  const problems: CheckReport['problems'] = [];
  for (const rule of rules) {
    const extra = isExtraCondition(rule.slot);
    let slot: Slot | undefined;
    let reading: WatchReading;
    let indexValues: { now: number | null; then: number | null } | undefined;
    try {
      if (rule.slot === INDEX_WATCH_SLOT) {
        if (indexMoveAt === undefined) throw new Error('checkWatches: a rule on an index needs indexMoveAt');
        indexValues = await indexMoveAt(rule.productKey, options.at, rule.spanMs!);
        reading = readMove(rule, indexValues.now, indexValues.then);
      } else {
        slot = slotOf(await bundleAt(rule.productKey, options.at, extra), rule.slot);
        const before =
          rule.kind === 'move'
            ? slotOf(await bundleAt(rule.productKey, options.at - rule.spanMs!, extra), rule.slot)
            : undefined;
        reading = readWatch(rule, slot, before);
      }
    } catch (error) {
      // A rule on an index its check cannot compute then (before its base date) is a problem, not a failure.
      const unreadable =
        error instanceof UnknownProductError ||
        (rule.slot === INDEX_WATCH_SLOT && error instanceof InvalidParameterError);
      if (!unreadable) throw error;
      problems.push({ rule_id: rule.id, detail: error.message });
      continue;
    }
    // Unknown (no price): the rule keeps its state, so a gap in the data is no crossing.
    if (reading.holds === null || (reading.holds === rule.firing && reading.value === rule.lastValue))
      continue;
    const change: WatchStateChange = {
      ruleId: rule.id,
      wasFiring: rule.firing,
      firing: reading.holds,
      lastValue: reading.value,
      changedAt: options.now,
    };
    if (reading.holds && !rule.firing) {
      const id = `evt_${randomUUID()}`;
      const body =
        indexValues === undefined
          ? eventBody(id, rule, slot, reading, options.at, options.now)
          : indexEventBody(id, rule, indexValues, reading, options.at, options.now);
      bodies.set(body.id, body);
      change.event = {
        id: body.id,
        createdAt: options.now,
        body: JSON.stringify(body),
        webhookUrl: rule.webhookUrl ?? options.webhook ?? null,
      };
    }
    changes.push(change);
  }
  const preview = options.preview === true;
  const recorded = preview
    ? changes.flatMap((c) => (c.event === undefined ? [] : [c.event.id]))
    : await store.watches.record(changes);
  const deliveries = preview ? [] : await deliverPending(store, options);
  return {
    as_of: toIsoUtc(options.at),
    preview,
    rules: rules.length,
    fired: recorded.map((id) => bodies.get(id)!),
    deliveries,
    pending: deliveries.filter((d) => !d.delivered).length,
    problems,
  };
}

/**
 * Delivers every pending event, oldest first. Receivers are served side by side, each one's
 * events in order; after an event a receiver did not take, its later events wait for the next
 * check (in order, and without hammering a receiver that is down), and no other receiver waits.
 */
async function deliverPending(store: Store, options: CheckOptions): Promise<DeliveryReport[]> {
  const byReceiver = new Map<string, StoredWatchEvent[]>();
  const pending = await store.watches.pending();
  for (const event of pending) {
    const url = event.webhookUrl!;
    byReceiver.set(url, [...(byReceiver.get(url) ?? []), event]);
  }
  const reports: DeliveryReport[] = [];
  await Promise.all(
    [...byReceiver].map(async ([url, events]) => {
      let down = false;
      for (const event of events) {
        const report = { event_id: event.id, rule_id: event.ruleId, receiver: receiverOf(url)! };
        if (down) {
          reports.push({
            ...report,
            delivered: false,
            attempts: 0,
            error: 'not tried: an earlier event to this receiver failed',
          });
          continue;
        }
        const result = await deliverEvent(url, event.id, event.body, options.delivery);
        await store.watches.delivery(event.id, {
          attempts: result.attempts,
          at: options.now,
          error: result.error,
        });
        reports.push({
          ...report,
          delivered: result.error === null,
          attempts: result.attempts,
          error: result.error,
        });
        down = result.error !== null;
      }
    }),
  );
  // In the order the events were recorded, whichever receiver answered first.
  const order = new Map(pending.map((event, i) => [event.id, i]));
  return reports.sort((a, b) => order.get(a.event_id)! - order.get(b.event_id)!);
}
