/** `oracle history <product_key>` or `--refsource <id>`: a slot's price at every step of a span, charted, as JSON or CSV. */
import { parseHistoryRequest } from '../../domain/history.js';
import { createOracle } from '../../service/oracle.js';
import { openStore } from '../../store/store.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { outputWidth } from '../format/columns.js';
import { renderHistory, renderHistoryCsv } from '../format/history-view.js';

interface HistoryOptions {
  refsource?: string;
  slots?: string;
  from?: string;
  to?: string;
  every?: string;
  windowHours: number;
  outlierStddevs: number;
  json?: boolean;
  csv?: boolean;
}

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const productKey = args[0] as string | undefined;
  const o = ctx.options as HistoryOptions;
  if ((productKey === undefined) === (o.refsource === undefined)) {
    throw new UsageError('history takes either a product_key or --refsource <id>, not both and not neither');
  }
  if (o.json && o.csv) throw new UsageError('--json and --csv are exclusive: choose one');
  const params = { windowHours: o.windowHours, outlierStddevs: o.outlierStddevs };
  const request = parseHistoryRequest(o, ctx.now, { from: '--from', to: '--to', every: '--every', slots: '--slots' });
  const store = await openStore(ctx.dbPath);
  try {
    const oracle = createOracle({ store });
    const product = o.refsource === undefined ? oracle.productByKey(productKey as string) : oracle.productByRefsource(o.refsource);
    const history = oracle.history(product, params, request, o.refsource ?? null);
    ctx.stdout.write(
      o.json ? `${JSON.stringify(history.body)}\n` : o.csv ? renderHistoryCsv(history) : renderHistory(history, outputWidth(ctx.stdout)),
    );
  } finally {
    store.close();
  }
  return 0;
}
