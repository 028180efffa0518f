/** `oracle sales <product_key>` or `--refsource <id>`: the recent observations of a product, kept in its price or why not. */
import { optionsOf, salesOptions } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { renderSales, renderSalesCsv } from '../format/sales-view.js';
import { pricingParams, productRef } from '../pricing-options.js';
import { withService } from '../open-service.js';

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const o = optionsOf(ctx, salesOptions);
  const ref = productRef('sales', args[0] as string | undefined, o);
  const query = {
    ...pricingParams(o),
    condition: o.condition ?? null,
    spanMs: o.span,
    limit: o.limit,
  };
  const body = await withService(ctx, (service) => service.sales({ ref, query, now: ctx.now }));
  ctx.stdout.write(
    o.json
      ? `${JSON.stringify(body)}\n`
      : o.csv
        ? renderSalesCsv(body)
        : renderSales(body, ctx.terminal.width),
  );
  return 0;
}
