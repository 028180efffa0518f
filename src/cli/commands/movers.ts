/** `oracle movers`: the catalog's biggest gainers and losers of one slot over a span. */
import { moversOptions, optionsOf } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { renderMovers } from '../format/movers-view.js';
import { pricingParams } from '../pricing-options.js';
import { withService } from '../open-service.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const o = optionsOf(ctx, moversOptions);
  const query = {
    ...pricingParams(o),
    condition: o.condition,
    span: o.span.text,
    spanMs: o.span.ms,
    limit: o.limit,
  };
  const body = await withService(ctx, (service) => service.movers(query));
  ctx.stdout.write(o.json ? `${JSON.stringify(body)}\n` : renderMovers(body, ctx.terminal.width));
  return 0;
}
