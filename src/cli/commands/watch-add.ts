/** `oracle watch add <product_key> | --index <name>  --above <usd> | --below | --move --over | --narrower | --wider | --stale`: stores one rule. */
import {
  span as spanInput,
  describeWatch,
  INDEX_WATCH_SLOT,
  type WatchDefinition,
  type WatchKind,
} from '../../domain/watch.js';
import { readInput } from '../../domain/input.js';
import { optionsOf, watchAddOptions } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { watchRuleBody } from '../../service/watch-bodies.js';
import { withService } from '../open-service.js';
import { DEFAULT_MOVE_SPAN } from '../watch-options.js';

const KIND_FLAGS = [
  'above',
  'below',
  'move',
  'narrower',
  'wider',
  'stale',
] as const satisfies readonly WatchKind[];

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const o = optionsOf(ctx, watchAddOptions);
  const given = KIND_FLAGS.filter((kind) => o[kind] !== undefined);
  if (given.length !== 1) {
    throw new UsageError(
      `watch add takes exactly one of --above, --below, --move, --narrower, --wider, --stale (got ${given.length === 0 ? 'none' : given.map((k) => `--${k}`).join(' and ')})`,
    );
  }
  const kind = given[0]!;
  const product = args[0] as string | undefined;
  if ((product === undefined) === (o.index === undefined))
    throw new UsageError(
      `watch add takes a product_key or --index <name>, one of them (got ${product === undefined ? 'neither' : 'both'})`,
    );
  if (o.index !== undefined && kind !== 'move')
    throw new UsageError(`a rule on an index watches its moves: --index takes --move, not --${kind}`);
  if (o.over !== undefined && kind !== 'move')
    throw new UsageError('--over is the span of --move: give it with --move');
  const amount =
    kind === 'above' || kind === 'below' || kind === 'narrower' || kind === 'wider'
      ? (o[kind] as number)
      : null;
  const rule: Omit<WatchDefinition, 'label'> = {
    productKey: o.index ?? product!,
    slot: o.index === undefined ? o.slot : INDEX_WATCH_SLOT,
    kind,
    amountMinor: amount,
    percent: o.move?.percent ?? null,
    direction: o.move?.direction ?? null,
    spanMs: kind === 'move' ? (o.over ?? readInput(spanInput, DEFAULT_MOVE_SPAN, '--over')) : null,
    webhookUrl: o.webhook ?? null,
  };
  const stored = await withService(
    ctx,
    (service) => service.addWatch({ rule: { ...rule, label: o.label ?? describeWatch(rule) }, now: ctx.now }),
    { write: true },
  );
  if (o.json) ctx.stdout.write(`${JSON.stringify(watchRuleBody(stored), null, 2)}\n`);
  else
    ctx.stdout.write(
      `watch ${stored.id}: ${stored.productKey} ${describeWatch(stored)} ("${stored.label}")\n`,
    );
  return 0;
}
