/** `oracle price <product_key>` or `oracle price --refsource <id>`: one bundle, as a table or the API body. */
import { optionsOf, priceOptions } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { formatChanges } from '../format/change.js';
import { printBundle } from '../format/print-bundle.js';
import { pricingParams, productRef } from '../pricing-options.js';
import { withService } from '../service.js';
import { inertAll } from '../format/inert.js';

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const o = optionsOf(ctx, priceOptions);
  const ref = productRef('price', args[0] as string | undefined, o);
  const params = pricingParams(o);
  if (o.json) {
    const query = o.extraGrades ? { ...params, extraGrades: true } : params;
    await printBundle(await withService(ctx, async (service) => service.price(ref, query, ctx.now)), true, ctx.stdout);
    return 0;
  }
  const { bundle, changes } = await withService(ctx, (service) => service.priceWithChanges(ref, params, o.extraGrades === true));
  await printBundle(inertAll(bundle), false, ctx.stdout);
  ctx.stdout.write(`change:      ungraded ${formatChanges(changes)}\n`);
  return 0;
}
