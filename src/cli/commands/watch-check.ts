/**
 * `oracle watch check [--at <time>] [--webhook <url>] [--json]`: one check of every rule (what
 * a cron job runs): the rules that fired as a table, then each delivery. Exit 1 when an event
 * is still undelivered (the next check retries it), so cron reports a receiver that is down.
 */
import { toIsoUtc } from '../../domain/time.js';
import { formatWatchValue } from '../../service/watch-bodies.js';
import { optionsOf, watchCheckOptions } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { withService } from '../service.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const o = optionsOf(ctx, watchCheckOptions);
  const secret = ctx.env.ORACLE_WEBHOOK_SECRET || undefined;
  const report = await withService(ctx, (service) => service.checkWatches({ at: o.at, now: ctx.now, webhook: o.webhook, delivery: { secret } }));
  if (o.json) {
    ctx.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const { default: Table } = await import('cli-table3');
    const table = new Table({ head: ['rule', 'label', 'product', 'slot', 'value', 'previous', 'event'], style: { head: [], border: [] } });
    for (const e of report.fired) {
      table.push([e.rule.id, e.rule.label, e.product_key, e.slot, formatWatchValue(e.rule, e.value), formatWatchValue(e.rule, e.previous_value), e.id]);
    }
    const fired = report.fired.length;
    ctx.stdout.write(`${fired > 0 ? `${table.toString()}\n` : ''}${report.rules} rule${report.rules === 1 ? '' : 's'} checked as of ${report.as_of}: ${fired} fired\n`);
    for (const d of report.deliveries) {
      ctx.stdout.write(d.delivered ? `delivered ${d.event_id} to ${d.receiver} (attempt ${d.attempts})\n` : `not delivered ${d.event_id} to ${d.receiver}: ${d.error}\n`);
    }
  }
  for (const p of report.problems) ctx.stderr.write(`warning: watch ${p.rule_id}: ${p.detail}\n`);
  if (report.fired.some((e) => !report.deliveries.some((d) => d.event_id === e.id))) {
    ctx.stderr.write(`note: events of rules without a webhook are recorded, not sent: give --webhook (ORACLE_WEBHOOK_URL); see oracle watch events\n`);
  }
  if (report.pending === 0) return EXIT.ok;
  ctx.stderr.write(`${report.pending} event${report.pending === 1 ? '' : 's'} not delivered at ${toIsoUtc(ctx.now)}: the next check retries (oracle watch events --pending)\n`);
  return EXIT.runtime;
}
