/** `oracle index show <name>`: an index's values over a span, charted, as JSON or CSV. */
import { indexShowOptions, optionsOf } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { renderIndex, renderIndexCsv } from '../format/index-view.js';
import { inertAll } from '../format/inert.js';
import { seriesParams } from '../pricing-options.js';
import { withService } from '../open-service.js';

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const o = optionsOf(ctx, indexShowOptions);
  const request = { from: o.from, to: o.to, every: o.every, version: o.version };
  const body = await withService(ctx, (service) =>
    service.index({ name: args[0] as string, request, params: seriesParams(o), now: ctx.now }),
  );
  ctx.stdout.write(
    o.json
      ? `${JSON.stringify(body)}\n`
      : o.csv
        ? renderIndexCsv(body)
        : renderIndex(inertAll(body), ctx.terminal),
  );
  return 0;
}
