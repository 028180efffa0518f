/**
 * Watch rules and their events (`oracle watch`, docs/alerts.md): what a rule watches, the
 * inputs that define one (amounts, percentages, spans, slots, webhook URLs), each read through
 * one schema as every input is (input.ts), and the event a firing rule sends.
 */
import * as z from 'zod/mini';
import { MAX_COST_BASIS_MINOR } from './collection.js';
import { checkedText, deferred, integerWithDefault } from './input.js';
import { parseDollars } from './money.js';
import { CONDITION_HELP, parseCondition } from './conditions.js';
import { DAY_MS, HOUR_MS, spanLength } from './time.js';
import { hasUserinfo, redactedUrl } from './redact.js';

/** What a rule watches on its slot; docs/alerts.md gives each one's condition. */
export const WATCH_KINDS = ['above', 'below', 'move', 'narrower', 'wider', 'stale'] as const;
export type WatchKind = (typeof WATCH_KINDS)[number];

/**
 * The slot of a rule on a market index (`watch add --index <name> --move`): its product_key
 * holds the index's name, and it watches the index's value (docs/indexes.md, "Watch rules").
 */
export const INDEX_WATCH_SLOT = 'index';

/** Which way a move must go: `+10%` up, `-10%` down, `10%` either. */
export type MoveDirection = 'up' | 'down' | 'either';

/** A rule as `oracle watch add` defines it. */
export interface WatchDefinition {
  label: string;
  productKey: string;
  /** A condition key: `ungraded`, `psa10`, `bgs9.5`. */
  slot: string;
  kind: WatchKind;
  /** Cents: the price of above/below, the interval width of narrower/wider; null otherwise. */
  amountMinor: number | null;
  /** A move's size in percent (positive) and direction, and the span it is measured over (ms). */
  percent: number | null;
  direction: MoveDirection | null;
  spanMs: number | null;
  /** Where its events go instead of the check's --webhook; null: there. */
  webhookUrl: string | null;
}

/** A stored rule: its definition, and the state that makes it fire once per crossing. */
export interface WatchRule extends WatchDefinition {
  id: number;
  createdAt: number;
  /** Whether the condition held at the last check that could tell. */
  firing: boolean;
  /** The watched quantity at that check (cents, percent or hours; see engine/watch.ts WatchReading). */
  lastValue: number | null;
  /** When a check last changed `firing` or `lastValue` (a check that changes nothing writes nothing). */
  changedAt: number | null;
}

/** `pending` until a receiver answers 2xx (`delivered`); `unsent` when there was no webhook to send it to. */
export type DeliveryStatus = 'pending' | 'delivered' | 'unsent';

/** A recorded event with its delivery, as the outbox (watch_events) holds it. */
export interface StoredWatchEvent {
  id: string;
  ruleId: number;
  createdAt: number;
  /** The JSON body POSTed: exactly the bytes signed. */
  body: string;
  webhookUrl: string | null;
  status: DeliveryStatus;
  attempts: number;
  lastAttemptAt: number | null;
  lastError: string | null;
  deliveredAt: number | null;
}

/** The body of one firing (docs/alerts.md, "The event"). */
export interface WatchEventBody {
  id: string;
  type: 'watch.fired';
  /** When the check recorded it (ISO-8601 UTC). */
  created_at: string;
  rule: {
    id: number;
    label: string;
    kind: WatchKind;
    amount_minor: number | null;
    percent: number | null;
    direction: MoveDirection | null;
    span: string | null;
  };
  product_key: string;
  slot: string;
  /** The instant priced (the check's --at, or its clock). */
  as_of: string;
  /** The slot as the pricing route shows it at `as_of`: price, interval, methodology, staleness. */
  price: {
    price_minor: number | null;
    currency: 'USD';
    confidence: { level: number; low_minor: number; high_minor: number } | null;
    methodology: string;
    stale: boolean | null;
  };
  /** The watched quantity now and at the check before: cents, percent (move) or hours (stale). */
  value: number | null;
  previous_value: number | null;
  /** The API route that shows the same price (relative to the server's base URL). */
  links: { price: string };
  /** One line for people, the field Slack's and Discord's (Slack-compatible) webhooks display. */
  text: string;
}

/** `limit` / `--limit` of the event lists: how many, newest first. */
export const WATCH_EVENTS_LIMIT = { min: 1, max: 500, default: 20 } as const;
export const watchEventsLimit = integerWithDefault(WATCH_EVENTS_LIMIT);

export const DELIVERY_STATUSES = [
  'pending',
  'delivered',
  'unsent',
] as const satisfies readonly DeliveryStatus[];
/** `status` of the events route: only the events of one delivery status. */
export const deliveryStatus = checkedText(
  (raw) =>
    DELIVERY_STATUSES.includes(raw as DeliveryStatus)
      ? null
      : `must be pending, delivered or unsent (got ${JSON.stringify(raw)})`,
  /^(pending|delivered|unsent)$/,
);

/** How long a rule's label may be. */
export const MAX_WATCH_LABEL_LENGTH = 100;

/** The largest amount a rule takes: $10,000,000,000, as a collection's cost basis (MAX_COST_BASIS_MINOR). */
export const MAX_WATCH_AMOUNT_MINOR = MAX_COST_BASIS_MINOR;

/** An amount in dollars (`--above 150`, `--wider 20.50`, `$1,500.00`), to cents; more than $0.00, at most MAX_WATCH_AMOUNT_MINOR. */
export const dollars = deferred(() =>
  z.pipe(
    checkedText((raw) => {
      const cents = raw === undefined ? null : parseDollars(raw);
      if (cents === null || cents > MAX_WATCH_AMOUNT_MINOR) {
        return `must be an amount in US dollars from $0.01 to $${(MAX_WATCH_AMOUNT_MINOR / 100).toLocaleString('en-US')}, such as 150 or 1,250.50 (got ${JSON.stringify(raw)})`;
      }
      return cents > 0 ? null : 'must be more than $0.00';
    }),
    z.transform((raw) => parseDollars(raw) as number),
  ),
);

/** A move: `10%` either way, `+10%` up, `-10%` down (the `%` optional), above 0 and at most 1000. */
const PERCENT = /^([+-]?)(\d+(?:\.\d+)?)%?$/;
export const move = deferred(() =>
  z.pipe(
    checkedText((raw) => {
      const m = raw === undefined ? null : PERCENT.exec(raw.trim());
      const size = m === null ? Number.NaN : Number(m[2]);
      return size > 0 && size <= 1000
        ? null
        : `must be a percentage above 0 and at most 1000: 10% either way, +10% up, -10% down (got ${JSON.stringify(raw)})`;
    }),
    z.transform((raw): { percent: number; direction: MoveDirection } => {
      const [, sign, size] = PERCENT.exec(raw.trim()) as RegExpExecArray;
      return { percent: Number(size), direction: sign === '+' ? 'up' : sign === '-' ? 'down' : 'either' };
    }),
  ),
);

/** The longest span a move is measured over. */
export const MAX_WATCH_SPAN_MS = 365 * DAY_MS;

/**
 * The span of a move (`--over 7d`), in ms: a span as every instant input reads one before now
 * (time.ts spanLength: `12h`, `7d`, `2w`, `7d ago`), an hour to a year.
 */
export const span = deferred(() =>
  z.pipe(
    checkedText((raw) => {
      const ms = raw === undefined ? null : spanLength(raw.trim());
      return ms !== null && ms > 0 && ms <= MAX_WATCH_SPAN_MS
        ? null
        : `must be a span of hours, days or weeks up to a year: 12h, 7d, 2w (got ${JSON.stringify(raw)})`;
    }),
    z.transform((raw) => spanLength(raw.trim()) as number),
  ),
);

/** A span as `--over` takes it, in whole days when it is some (7d, 14d), else hours (36h). */
export function formatSpan(ms: number): string {
  return ms % DAY_MS === 0 ? `${ms / DAY_MS}d` : `${ms / HOUR_MS}h`;
}

/**
 * The slot a rule watches, as people write it (`ungraded`, `psa10`, `PSA 10`, `BGS 9.5`): its
 * condition key. A played raw card (`raw-lp`) has no price of its own, so no rule.
 */
export const watchSlot = deferred(() =>
  z.pipe(
    checkedText((raw) => {
      const key = raw === undefined ? null : parseCondition(raw);
      return key !== null && !key.startsWith('raw-')
        ? null
        : `must be a slot: ${CONDITION_HELP} (got ${JSON.stringify(raw)})`;
    }),
    z.transform((raw) => parseCondition(raw) as string),
  ),
);

/**
 * A webhook URL: http or https, without a user name or password. Credentials in it would be
 * stored and echoed (fetch refuses such a URL in an error that quotes it): a receiver that
 * needs a secret takes it in the path or query (never shown: redact.ts) or checks the signature.
 */
export const webhookUrl = checkedText((raw) => {
  const url = raw !== undefined && URL.canParse(raw) ? new URL(raw) : null;
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return `must be an http(s) URL (got ${JSON.stringify(raw === undefined ? raw : redactedUrl(raw))})`;
  return hasUserinfo(raw!)
    ? `must not hold a user name or password, which would be stored and shown (got ${JSON.stringify(redactedUrl(raw!))}): put the receiver's secret in its path or query, or check the x-oracle-signature-256 header (ORACLE_WEBHOOK_SECRET)`
    : null;
});

/** A rule's label: 1 to MAX_WATCH_LABEL_LENGTH characters, no control characters. */
export const watchLabel = deferred(() =>
  z.pipe(
    checkedText((raw) => {
      const text = raw?.trim() ?? '';
      return text === '' || text.length > MAX_WATCH_LABEL_LENGTH || /[\u0000-\u001f\u007f]/.test(text)
        ? `must be 1 to ${MAX_WATCH_LABEL_LENGTH} characters without control characters`
        : null;
    }),
    z.transform((raw) => raw.trim()),
  ),
);

/** Cents as dollars: `$1,250.00`. */
export const usd = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** What a rule watches, in words: `psa10 at or above $150.00`, `ungraded moves 10% either way over 7d`. */
export function describeWatch(
  rule: Pick<WatchDefinition, 'slot' | 'kind' | 'amountMinor' | 'percent' | 'direction' | 'spanMs'>,
): string {
  switch (rule.kind) {
    case 'above':
      return `${rule.slot} at or above ${usd(rule.amountMinor!)}`;
    case 'below':
      return `${rule.slot} at or below ${usd(rule.amountMinor!)}`;
    case 'move': {
      const way = rule.direction === 'up' ? 'up' : rule.direction === 'down' ? 'down' : 'either way';
      return `${rule.slot} moves ${rule.percent}% ${way} over ${formatSpan(rule.spanMs!)}`;
    }
    case 'narrower':
      return `${rule.slot} interval narrower than ${usd(rule.amountMinor!)}`;
    case 'wider':
      return `${rule.slot} interval wider than ${usd(rule.amountMinor!)}`;
    case 'stale':
      return `${rule.slot} goes stale`;
  }
}
