/** `oracle explain <product_key> --slot psa9` or `--refsource <id>`: the evidence behind one slot's price. */
import { parseSlot } from '../../domain/evidence.js';
import { parseAsOf, parseOutlierStddevs, parseWindowHours } from '../../domain/params.js';
import { createOracle } from '../../service/oracle.js';
import { openStore } from '../../store/store.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { outputWidth } from '../format/columns.js';
import { renderEvidence } from '../format/evidence-view.js';

interface ExplainOptions {
  slot?: string;
  refsource?: string;
  windowHours?: string;
  outlierStddevs?: string;
  at?: string;
  json?: boolean;
}

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const productKey = args[0] as string | undefined;
  const o = ctx.options as ExplainOptions;
  if ((productKey === undefined) === (o.refsource === undefined)) {
    throw new UsageError('explain takes either a product_key or --refsource <id>, not both and not neither');
  }
  const slot = parseSlot(o.slot, '--slot');
  const params = {
    windowHours: parseWindowHours(o.windowHours, '--window-hours'),
    outlierStddevs: parseOutlierStddevs(o.outlierStddevs, '--outlier-stddevs'),
    asOf: parseAsOf(o.at, ctx.now, '--at'),
  };
  const store = await openStore(ctx.dbPath);
  try {
    const oracle = createOracle({ store });
    const product = o.refsource === undefined ? oracle.productByKey(productKey as string) : oracle.productByRefsource(o.refsource);
    const evidence = oracle.explain(product, slot, params, o.refsource ?? null);
    ctx.stdout.write(o.json ? `${JSON.stringify(evidence)}\n` : renderEvidence(evidence, outputWidth(ctx.stdout)));
  } finally {
    store.close();
  }
  return 0;
}
