/** `oracle watch list [--json]`: every rule, what it watches, whether it is firing and the last value a check saw. */
import { describeWatch } from '../../domain/watch.js';
import { formatWatchValue, watchRuleBody } from '../../service/watch-bodies.js';
import { optionsOf, watchListOptions } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { fitColumns } from '../format/columns.js';
import { inertAll } from '../format/inert.js';
import { withService } from '../open-service.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const rules = await withService(ctx, (service) => service.watches());
  if (optionsOf(ctx, watchListOptions).json) {
    ctx.stdout.write(`${JSON.stringify(rules.map(watchRuleBody), null, 2)}\n`);
    return 0;
  }
  // The id (what `watch remove` takes) and the product key are never cut; the label, the webhook and the last value give way first.
  const rows = inertAll(
    rules.map((r) => ({
      id: String(r.id),
      label: r.label,
      product: r.productKey,
      watches: describeWatch(r),
      firing: r.firing ? 'yes' : 'no',
      last: formatWatchValue(r, r.lastValue),
      webhook: watchRuleBody(r).receiver ?? '-',
    })),
  );
  const table = fitColumns(
    [
      { head: 'id', cells: rows.map((r) => r.id), shrink: 0, min: 2, alignRight: true, keep: true },
      { head: 'product', cells: rows.map((r) => r.product), shrink: 0, min: 8, keep: true },
      { head: 'watches', cells: rows.map((r) => r.watches), shrink: 0, min: 12 },
      { head: 'firing', cells: rows.map((r) => r.firing), shrink: 0, min: 6 },
      {
        head: 'last value',
        cells: rows.map((r) => r.last),
        shrink: 0,
        min: 10,
        alignRight: true,
        lastResort: 3,
      },
      { head: 'label', cells: rows.map((r) => r.label), shrink: 1, min: 8, lastResort: 1 },
      { head: 'webhook', cells: rows.map((r) => r.webhook), shrink: 1, min: 8, lastResort: 2 },
    ],
    ctx.terminal.width,
  );
  ctx.stdout.write(
    `${rules.length === 0 ? '' : table}${rules.length} rule${rules.length === 1 ? '' : 's'}\n`,
  );
  return 0;
}
