/** `oracle price <product_key>` or `oracle price --refsource <id>`: one bundle, as a table or the API body. */
import { optionsOf, priceOptions } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { formatChanges } from '../format/change.js';
import { printBundle } from '../format/print-bundle.js';
import { wrapLine } from '../format/terminal.js';
import { pricingParams, productRef } from '../pricing-options.js';
import { withService } from '../open-service.js';
import { inertAll } from '../format/inert.js';

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const o = optionsOf(ctx, priceOptions);
  const ref = productRef('price', args[0] as string | undefined, o);
  const params = pricingParams(o);
  if (o.json) {
    const query = o.extraGrades ? { ...params, extraGrades: true } : params;
    printBundle(
      await withService(ctx, async (service) => service.price({ ref, query, now: ctx.now })),
      true,
      ctx.stdout,
      ctx.terminal,
    );
    return 0;
  }
  const { bundle, changes } = await withService(ctx, (service) =>
    service.priceWithChanges({ ref, params, extraGrades: o.extraGrades === true }),
  );
  printBundle(inertAll(bundle), false, ctx.stdout, ctx.terminal);
  ctx.stdout.write(
    `${wrapLine(`change:      ungraded ${formatChanges(changes, ctx.terminal.colour)}`, ctx.terminal.width).join('\n')}\n`,
  );
  return 0;
}
