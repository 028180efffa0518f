/** `oracle watch events [--pending] [--limit n] [--json]`: recorded events, newest first, with their delivery. */
import { formatWatchValue, watchEventRecordBody } from '../../service/watch-bodies.js';
import { optionsOf, watchEventsOptions } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { withService } from '../service.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const o = optionsOf(ctx, watchEventsOptions);
  const events = (await withService(ctx, (service) => service.watchEvents(o.limit, o.pending ? 'pending' : undefined))).map(watchEventRecordBody);
  if (o.json) {
    ctx.stdout.write(`${JSON.stringify(events, null, 2)}\n`);
    return 0;
  }
  const { default: Table } = await import('cli-table3');
  const table = new Table({ head: ['event', 'time', 'rule', 'product', 'slot', 'value', 'status', 'attempts', 'last error'], style: { head: [], border: [] } });
  for (const e of events) {
    const body = e.event;
    table.push([e.id, e.created_at, e.rule_id, body.product_key, body.slot, formatWatchValue(body.rule, body.value), e.status, e.attempts, e.last_error ?? '-']);
  }
  ctx.stdout.write(`${table.toString()}\n${events.length} event${events.length === 1 ? '' : 's'}\n`);
  return 0;
}
