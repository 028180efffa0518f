/** `oracle index add <name>`: store a market index definition (docs/indexes.md). */
import { indexAddOptions, optionsOf } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { withService } from '../open-service.js';

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const o = optionsOf(ctx, indexAddOptions);
  const raw = {
    name: args[0] as string,
    label: o.label,
    set: o.set,
    era: o.era,
    productType: o.type,
    search: o.search,
    products: o.products,
    slot: o.slot,
    method: o.method,
    baseDate: o.baseDate,
  };
  const added = await withService(ctx, (service) => service.addIndex({ definition: raw, now: ctx.now }), {
    write: true,
  });
  ctx.stdout.write(
    `added index ${added.name}: ${added.selector} ${JSON.stringify(added.selector_value)}, ${added.slot}, ${added.method}, ${added.base_value} at ${added.base_date}\n`,
  );
  return 0;
}
