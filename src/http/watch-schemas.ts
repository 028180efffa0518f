/**
 * The schemas of the watch routes (docs/alerts.md): their query and their bodies, the shapes
 * of service/watch-bodies.ts (`oracle watch list --json`, `oracle watch events --json`).
 */
import { z } from 'zod';
import {
  deliveryStatus,
  DELIVERY_STATUSES,
  WATCH_KINDS,
  type MoveDirection,
  watchEventsLimit,
  type WatchEventBody,
} from '../domain/watch.js';
import type { WatchEventRecordBody, WatchRuleBody } from '../service/watch-bodies.js';
import { apiComponents, field, type Same } from './schemas.js';

const DIRECTIONS = ['up', 'down', 'either'] as const satisfies readonly MoveDirection[];

export const watchEventsQuery = z.object({
  limit: field(watchEventsLimit, { description: 'How many events, newest first.' }),
  status: field(z.optional(deliveryStatus), {
    description: 'Only the events of this delivery status: `pending`, `delivered` or `unsent`.',
  }),
});

const ruleShape = {
  id: z.int(),
  label: z.string(),
  kind: z.enum(WATCH_KINDS),
  amount_minor: z
    .int()
    .nullable()
    .meta({ description: 'Cents: the price of above/below, the interval width of narrower/wider.' }),
  percent: z.number().nullable().meta({ description: 'A move: its least size in percent.' }),
  direction: z.enum(DIRECTIONS).nullable(),
  span: z.string().nullable().meta({ description: 'A move: the span it is measured over (`7d`).' }),
};

export const watchRule = z
  .object({
    ...ruleShape,
    product_key: z.string(),
    slot: z.string().meta({ description: 'Condition key: `ungraded`, `psa10`, `bgs9.5`.' }),
    receiver: z
      .string()
      .nullable()
      .meta({ description: "The origin of the rule's own webhook (never its path); null: the check's." }),
    created_at: z.iso.datetime(),
    firing: z.boolean().meta({
      description:
        'Whether the condition held at the last check that could tell: the rule fires again only after it was false.',
    }),
    last_value: z
      .number()
      .nullable()
      .meta({ description: 'The watched quantity then: cents, percent (move) or hours (stale).' }),
    changed_at: z.iso.datetime().nullable(),
  })
  .register(apiComponents, { id: 'WatchRule' });

export const watchRulesResponse = z
  .object({ total: z.int().nonnegative(), rules: z.array(watchRule) })
  .register(apiComponents, { id: 'WatchRules' });

const interval = z.object({ level: z.number(), low_minor: z.int(), high_minor: z.int() }).nullable();

export const watchEvent = z
  .object({
    id: z.string().meta({ description: 'Event id (`evt_` and a UUID): deduplicate on it.' }),
    type: z.literal('watch.fired'),
    created_at: z.iso.datetime(),
    rule: z.object(ruleShape),
    product_key: z.string(),
    slot: z.string(),
    as_of: z.iso.datetime(),
    price: z.object({
      price_minor: z.int().nullable(),
      currency: z.literal('USD'),
      confidence: interval,
      methodology: z.string(),
      stale: z.boolean().nullable(),
    }),
    value: z.number().nullable(),
    previous_value: z.number().nullable(),
    links: z.object({
      price: z
        .string()
        .meta({ description: 'The pricing route showing the same price, relative to the server.' }),
    }),
    text: z
      .string()
      .meta({ description: 'One line for people (the field Slack and Discord webhooks display).' }),
  })
  .register(apiComponents, { id: 'WatchEvent' });

export const watchEventsResponse = z
  .object({
    events: z.array(
      z.object({
        id: z.string(),
        rule_id: z.int(),
        created_at: z.iso.datetime(),
        status: z.enum(DELIVERY_STATUSES),
        attempts: z.int(),
        last_attempt_at: z.iso.datetime().nullable(),
        last_error: z.string().nullable(),
        delivered_at: z.iso.datetime().nullable(),
        receiver: z.string().nullable(),
        event: watchEvent,
      }),
    ),
  })
  .register(apiComponents, { id: 'WatchEvents' });

// The schemas and the service's bodies must describe the same values: these fail to compile otherwise.
const ruleMatches: Same<z.output<typeof watchRule>, WatchRuleBody> = true;
const eventMatches: Same<z.output<typeof watchEvent>, WatchEventBody> = true;
const recordMatches: Same<z.output<typeof watchEventsResponse>['events'][number], WatchEventRecordBody> =
  true;
void ruleMatches;
void eventMatches;
void recordMatches;
