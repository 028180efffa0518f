/** `oracle watch list [--json]`: every rule, what it watches, whether it is firing and the last value a check saw. */
import { describeWatch } from '../../domain/watch.js';
import { formatWatchValue, watchRuleBody } from '../../service/watch-bodies.js';
import { optionsOf, watchListOptions } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { withService } from '../service.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const rules = await withService(ctx, (service) => service.watches());
  if (optionsOf(ctx, watchListOptions).json) {
    ctx.stdout.write(`${JSON.stringify(rules.map(watchRuleBody), null, 2)}\n`);
    return 0;
  }
  const { default: Table } = await import('cli-table3');
  const table = new Table({ head: ['id', 'label', 'product', 'watches', 'firing', 'last value', 'webhook'], style: { head: [], border: [] } });
  for (const r of rules) {
    const body = watchRuleBody(r);
    table.push([r.id, r.label, r.productKey, describeWatch(r), r.firing ? 'yes' : 'no', formatWatchValue(r, r.lastValue), body.receiver ?? '-']);
  }
  ctx.stdout.write(`${table.toString()}\n${rules.length} rule${rules.length === 1 ? '' : 's'}\n`);
  return 0;
}
