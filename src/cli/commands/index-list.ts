/** `oracle index list [--json]`: every market index definition. */
import { indexListOptions, optionsOf } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { fitColumns } from '../format/columns.js';
import { inertAll } from '../format/inert.js';
import { withService } from '../open-service.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const indexes = await withService(ctx, (service) => service.indexes());
  if (optionsOf(ctx, indexListOptions).json) {
    ctx.stdout.write(`${JSON.stringify(indexes, null, 2)}\n`);
    return 0;
  }
  const rows = inertAll(
    indexes.map((i) => ({
      name: i.name,
      over: `${i.selector} ${i.selector_value}`,
      slot: i.slot,
      base: i.base_date,
      label: i.label,
    })),
  );
  const table = fitColumns(
    [
      { head: 'name', cells: rows.map((r) => r.name), shrink: 0, min: 4, keep: true },
      { head: 'members from', cells: rows.map((r) => r.over), shrink: 1, min: 12 },
      { head: 'slot', cells: rows.map((r) => r.slot), shrink: 0, min: 4 },
      { head: 'base date', cells: rows.map((r) => r.base), shrink: 0, min: 10 },
      { head: 'label', cells: rows.map((r) => r.label), shrink: 1, min: 8, lastResort: 1 },
    ],
    ctx.terminal.width,
  );
  ctx.stdout.write(
    `${indexes.length === 0 ? '' : table}${indexes.length} index${indexes.length === 1 ? '' : 'es'}\n`,
  );
  return 0;
}
