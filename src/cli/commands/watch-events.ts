/** `oracle watch events [--pending] [--limit n] [--json]`: recorded events, newest first, with their delivery. */
import { formatWatchValue, watchEventRecordBody } from '../../service/watch-bodies.js';
import { optionsOf, watchEventsOptions } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { fitColumns } from '../format/columns.js';
import { inertAll } from '../format/inert.js';
import { withService } from '../open-service.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const o = optionsOf(ctx, watchEventsOptions);
  const events = (
    await withService(ctx, (service) =>
      service.watchEvents({ limit: o.limit, status: o.pending ? 'pending' : undefined }),
    )
  ).map(watchEventRecordBody);
  if (o.json) {
    ctx.stdout.write(`${JSON.stringify(events, null, 2)}\n`);
    return 0;
  }
  // The event id (what a receiver dedups on) is never cut; the error and the time give way first.
  const rows = inertAll(
    events.map((e) => ({
      id: e.id,
      time: e.created_at,
      rule: String(e.rule_id),
      product: e.event.product_key,
      slot: e.event.slot,
      value: formatWatchValue(e.event.rule, e.event.value),
      status: e.status,
      attempts: String(e.attempts),
      error: e.last_error ?? '-',
    })),
  );
  const table = fitColumns(
    [
      { head: 'event', cells: rows.map((r) => r.id), shrink: 0, min: 8, keep: true },
      { head: 'rule', cells: rows.map((r) => r.rule), shrink: 0, min: 4, alignRight: true },
      { head: 'product', cells: rows.map((r) => r.product), shrink: 1, min: 8 },
      { head: 'slot', cells: rows.map((r) => r.slot), shrink: 0, min: 4 },
      { head: 'value', cells: rows.map((r) => r.value), shrink: 0, min: 5, alignRight: true },
      { head: 'status', cells: rows.map((r) => r.status), shrink: 0, min: 6 },
      {
        head: 'attempts',
        cells: rows.map((r) => r.attempts),
        shrink: 0,
        min: 8,
        alignRight: true,
        lastResort: 3,
      },
      { head: 'time', cells: rows.map((r) => r.time), shrink: 0, min: 20, lastResort: 2 },
      { head: 'last error', cells: rows.map((r) => r.error), shrink: 2, min: 10, lastResort: 1 },
    ],
    ctx.terminal.width,
  );
  ctx.stdout.write(
    `${events.length === 0 ? '' : table}${events.length} event${events.length === 1 ? '' : 's'}\n`,
  );
  return 0;
}
