/** `oracle price <product_key>` or `oracle price --refsource <id>`: one bundle, as a table or the API body. */
import { createOracle } from '../../service/oracle.js';
import { openStore } from '../../store/store.js';
import type { CommandContext } from '../context.js';
import { formatChanges } from '../format/change.js';
import { printBundle } from '../format/print-bundle.js';
import { checkProductChoice, chosenProduct, pricingParams, type PricingOptions } from '../pricing-options.js';

interface PriceOptions extends PricingOptions {
  json?: boolean;
}

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const productKey = args[0] as string | undefined;
  const o = ctx.options as PriceOptions;
  checkProductChoice('price', productKey, o);
  const params = pricingParams(o);
  const store = await openStore(ctx.dbPath);
  try {
    const oracle = createOracle({ store });
    const product = chosenProduct(oracle, productKey, o);
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
