/**
 * The options of `oracle watch` (docs/alerts.md), each read through its domain schema
 * (domain/watch.ts); `--webhook` is shared with `oracle serve --watch`.
 */
import { Option } from 'commander';
import {
  dollars,
  move,
  span,
  WATCH_EVENTS_LIMIT,
  watchEventsLimit,
  watchLabel,
  watchSlot,
  webhookUrl,
} from '../domain/watch.js';
import { configOption, schemaOption, viaSchema } from './options.js';

/** The span a move is measured over when `--over` is not given. */
export const DEFAULT_MOVE_SPAN = '7d';

/** `--webhook` (ORACLE_WEBHOOK_URL): where events of rules without a URL of their own go. */
export const webhookOption = (description: string) =>
  configOption('--webhook <url>', description, { env: 'ORACLE_WEBHOOK_URL', parse: viaSchema(webhookUrl) });

/** The options of `oracle watch add`, in the order its --help lists them. */
export function watchAddOptions(): Option[] {
  const amount = (flags: string, description: string) =>
    schemaOption(flags, description, dollars, { default: undefined });
  return [
    configOption(
      '--slot <slot>',
      'the slot watched: ungraded, or a grader and grade as written (psa10, "PSA 10", "BGS 9.5")',
      {
        default: 'ungraded',
        parse: viaSchema(watchSlot),
      },
    ),
    new Option(
      '--index <name>',
      "watch a market index's value instead of a product (oracle index list): with --move only",
    ),
    amount('--above <usd>', 'fire when the price is at or above this many US dollars'),
    amount('--below <usd>', 'fire when the price is at or below this many US dollars'),
    schemaOption(
      '--move <percent>',
      'fire when the price moved at least this much over --over: 10% either way, +10% up, -10% down',
      move,
      { default: undefined },
    ),
    configOption('--over <span>', 'the span of --move: <n>h, <n>d or <n>w', {
      defaultText: DEFAULT_MOVE_SPAN,
      parse: viaSchema(span),
    }),
    amount('--narrower <usd>', "fire when the price's 80 % interval is narrower than this many US dollars"),
    amount('--wider <usd>', "fire when the price's 80 % interval is wider than this many US dollars"),
    new Option(
      '--stale',
      'fire when the slot goes stale (its newest observation older than 7 days, or no price at all)',
    ),
    schemaOption('--label <text>', 'what the rule is for (default: what it watches)', watchLabel, {
      default: undefined,
    }),
    schemaOption(
      '--webhook <url>',
      "POST this rule's events here instead of to the check's --webhook",
      webhookUrl,
      { default: undefined },
    ),
    new Option('--json', 'print the stored rule as JSON'),
  ];
}

export const eventsLimitOption = () =>
  schemaOption(
    '--limit <n>',
    `how many events, newest first, ${WATCH_EVENTS_LIMIT.min}-${WATCH_EVENTS_LIMIT.max}`,
    watchEventsLimit,
    { default: WATCH_EVENTS_LIMIT.default },
  );
