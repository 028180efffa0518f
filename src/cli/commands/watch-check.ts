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
import { fitColumns } from '../format/columns.js';
import { inertAll } from '../format/inert.js';
import { withService } from '../open-service.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const o = optionsOf(ctx, watchCheckOptions);
  const secret = ctx.env.ORACLE_WEBHOOK_SECRET || undefined;
  // A check as of the past previews what would fire and writes nothing.
  const preview = o.at < ctx.now;
  const report = await withService(
    ctx,
    (service) =>
      service.checkWatches({ at: o.at, now: ctx.now, webhook: o.webhook, delivery: { secret }, preview }),
    { write: !preview },
  );
  if (o.json) {
    ctx.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const rows = inertAll(
      report.fired.map((e) => ({
        rule: String(e.rule.id),
        label: e.rule.label,
        product: e.product_key,
        slot: e.slot,
        value: formatWatchValue(e.rule, e.value),
        previous: formatWatchValue(e.rule, e.previous_value),
        event: e.id,
      })),
    );
    const table = fitColumns(
      [
        { head: 'rule', cells: rows.map((r) => r.rule), shrink: 0, min: 4, alignRight: true },
        { head: 'product', cells: rows.map((r) => r.product), shrink: 1, min: 8 },
        { head: 'slot', cells: rows.map((r) => r.slot), shrink: 0, min: 4 },
        { head: 'value', cells: rows.map((r) => r.value), shrink: 0, min: 5, alignRight: true },
        {
          head: 'previous',
          cells: rows.map((r) => r.previous),
          shrink: 0,
          min: 8,
          alignRight: true,
          lastResort: 2,
        },
        { head: 'event', cells: rows.map((r) => r.event), shrink: 0, min: 8, keep: true },
        { head: 'label', cells: rows.map((r) => r.label), shrink: 2, min: 8, lastResort: 1 },
      ],
      ctx.terminal.width,
    );
    const fired = report.fired.length;
    const what = report.preview ? 'would fire (a preview: nothing recorded or sent)' : 'fired';
    ctx.stdout.write(
      `${fired > 0 ? table : ''}${report.rules} rule${report.rules === 1 ? '' : 's'} checked as of ${report.as_of}: ${fired} ${what}\n`,
    );
    for (const d of report.deliveries) {
      ctx.stdout.write(
        d.delivered
          ? `delivered ${d.event_id} to ${d.receiver} (attempt ${d.attempts})\n`
          : `not delivered ${d.event_id} to ${d.receiver}: ${d.error}\n`,
      );
    }
  }
  for (const p of report.problems) ctx.stderr.write(`warning: watch ${p.rule_id}: ${p.detail}\n`);
  if (!report.preview && report.fired.some((e) => !report.deliveries.some((d) => d.event_id === e.id))) {
    ctx.stderr.write(
      `note: events of rules without a webhook are recorded, not sent: give --webhook (ORACLE_WEBHOOK_URL); see oracle watch events\n`,
    );
  }
  if (report.pending === 0) return EXIT.ok;
  ctx.stderr.write(
    `${report.pending} event${report.pending === 1 ? '' : 's'} not delivered at ${toIsoUtc(ctx.now)}: the next check retries (oracle watch events --pending)\n`,
  );
  return EXIT.runtime;
}
