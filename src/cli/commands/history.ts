/** `oracle history <product_key>` or `--refsource <id>`: a slot's price at every step of a span, charted, as JSON or CSV. */
import { parseHistoryRequest } from '../../domain/history.js';
import { historyOptions, optionsOf } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { renderHistory, renderHistoryCsv } from '../format/history-view.js';
import { productRef, seriesParams } from '../pricing-options.js';
import { withService } from '../open-service.js';
import { inertAll } from '../format/inert.js';

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const o = optionsOf(ctx, historyOptions);
  const ref = productRef('history', args[0] as string | undefined, o);
  const params = seriesParams(o);
  const request = parseHistoryRequest(o, ctx.now, {
    from: '--from',
    to: '--to',
    every: '--every',
    slots: '--slots',
  });
  const history = await withService(ctx, (service) => service.history({ ref, params, request }));
  ctx.stdout.write(
    o.json
      ? `${JSON.stringify(history.body)}\n`
      : o.csv
        ? renderHistoryCsv(history)
        : renderHistory(inertAll(history), ctx.terminal),
  );
  return 0;
}
