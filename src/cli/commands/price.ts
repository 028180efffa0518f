/** `oracle price <product_key>` or `oracle price --refsource <id>`: one bundle, as a table or the API body. */
import { parseAsOf, parseOutlierStddevs, parseWindowHours } from '../../domain/params.js';
import { createOracle } from '../../service/oracle.js';
import { openStore } from '../../store/store.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { formatChanges } from '../format/change.js';
import { printBundle } from '../format/print-bundle.js';

interface PriceOptions {
  refsource?: string;
  windowHours?: string;
  outlierStddevs?: string;
  at?: string;
  json?: boolean;
}

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const productKey = args[0] as string | undefined;
  const o = ctx.options as PriceOptions;
  if ((productKey === undefined) === (o.refsource === undefined)) {
    throw new UsageError('price takes either a product_key or --refsource <id>, not both and not neither');
  }
  const params = {
    windowHours: parseWindowHours(o.windowHours, '--window-hours'),
    outlierStddevs: parseOutlierStddevs(o.outlierStddevs, '--outlier-stddevs'),
    asOf: parseAsOf(o.at, ctx.now, '--at'),
  };
  const store = await openStore(ctx.dbPath);
  try {
    const oracle = createOracle({ store });
    const product = o.refsource === undefined ? oracle.productByKey(productKey as string) : oracle.productByRefsource(o.refsource);
    const id = o.refsource ?? null;
    if (o.json) {
      await printBundle(oracle.price(product, params, id), true, ctx.stdout);
    } else {
      const { bundle, changes } = oracle.priceWithChanges(product, params, id);
      await printBundle(bundle, false, ctx.stdout);
      ctx.stdout.write(`change:      ungraded ${formatChanges(changes)}\n`);
    }
  } finally {
    store.close();
  }
  return 0;
}
