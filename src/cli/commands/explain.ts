/** `oracle explain <product_key> --slot psa9` or `--refsource <id>`: the evidence behind one slot's price. */
import { parseSlot } from '../../domain/evidence.js';
import { createOracle } from '../../service/oracle.js';
import { openStore } from '../../store/store.js';
import type { CommandContext } from '../context.js';
import { outputWidth } from '../format/columns.js';
import { renderEvidence } from '../format/evidence-view.js';
import { checkProductChoice, chosenProduct, pricingParams, type PricingOptions } from '../pricing-options.js';

interface ExplainOptions extends PricingOptions {
  slot?: string;
  json?: boolean;
}

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const productKey = args[0] as string | undefined;
  const o = ctx.options as ExplainOptions;
  checkProductChoice('explain', productKey, o);
  const slot = parseSlot(o.slot, '--slot');
  const params = pricingParams(o);
  const store = await openStore(ctx.dbPath);
  try {
    const oracle = createOracle({ store });
    const evidence = oracle.explain(chosenProduct(oracle, productKey, o), slot, params, o.refsource ?? null);
    ctx.stdout.write(o.json ? `${JSON.stringify(evidence)}\n` : renderEvidence(evidence, outputWidth(ctx.stdout)));
  } finally {
    store.close();
  }
  return 0;
}
