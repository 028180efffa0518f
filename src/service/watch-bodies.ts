/**
 * Watch rules and events as the CLI's --json and the API show them (one shape for both). A
 * webhook is shown by its origin alone: a chat webhook's path is its secret.
 */
import { toIsoUtc } from '../domain/time.js';
import {
  formatSpan,
  usd,
  type DeliveryStatus,
  type MoveDirection,
  type StoredWatchEvent,
  type WatchEventBody,
  type WatchKind,
  type WatchRule,
} from '../domain/watch.js';

export interface WatchRuleBody {
  id: number;
  label: string;
  product_key: string;
  slot: string;
  kind: WatchKind;
  amount_minor: number | null;
  percent: number | null;
  direction: MoveDirection | null;
  span: string | null;
  /** The origin of the rule's own webhook; null: the check's --webhook. */
  receiver: string | null;
  created_at: string;
  firing: boolean;
  last_value: number | null;
  changed_at: string | null;
}

export interface WatchEventRecordBody {
  id: string;
  rule_id: number;
  created_at: string;
  status: DeliveryStatus;
  attempts: number;
  last_attempt_at: string | null;
  last_error: string | null;
  delivered_at: string | null;
  receiver: string | null;
  /** The body POSTed to the receiver. */
  event: WatchEventBody;
}

const iso = (ms: number | null) => (ms === null ? null : toIsoUtc(ms));

/** A URL's origin, for reports and the API: never its path, where many webhooks keep their secret. */
export const receiverOf = (url: string | null) => (url === null ? null : new URL(url).origin);

export function watchRuleBody(rule: WatchRule): WatchRuleBody {
  return {
    id: rule.id,
    label: rule.label,
    product_key: rule.productKey,
    slot: rule.slot,
    kind: rule.kind,
    amount_minor: rule.amountMinor,
    percent: rule.percent,
    direction: rule.direction,
    span: rule.spanMs === null ? null : formatSpan(rule.spanMs),
    receiver: receiverOf(rule.webhookUrl),
    created_at: toIsoUtc(rule.createdAt),
    firing: rule.firing,
    last_value: rule.lastValue,
    changed_at: iso(rule.changedAt),
  };
}

export function watchEventRecordBody(event: StoredWatchEvent): WatchEventRecordBody {
  return {
    id: event.id,
    rule_id: event.ruleId,
    created_at: toIsoUtc(event.createdAt),
    status: event.status,
    attempts: event.attempts,
    last_attempt_at: iso(event.lastAttemptAt),
    last_error: event.lastError,
    delivered_at: iso(event.deliveredAt),
    receiver: receiverOf(event.webhookUrl),
    event: JSON.parse(event.body) as WatchEventBody,
  };
}

/** The watched quantity in words: a price or width in dollars, a move in percent, an age in hours. */
export function formatWatchValue(rule: Pick<WatchRule, 'kind'>, value: number | null): string {
  if (value === null) return '-';
  if (rule.kind === 'move') return `${value > 0 ? '+' : ''}${value}%`;
  if (rule.kind === 'stale') return `${value} h old`;
  return usd(value);
}
