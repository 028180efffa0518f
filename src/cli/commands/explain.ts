/** `oracle explain <product_key> --slot psa9` or `--refsource <id>`: the evidence behind one slot's price. */
import { slot as slotInput } from '../../domain/evidence.js';
import { readInput } from '../../domain/input.js';
import { explainOptions, optionsOf } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { renderEvidence } from '../format/evidence-view.js';
import { pricingParams, productRef } from '../pricing-options.js';
import { withService } from '../open-service.js';
import { inertAll } from '../format/inert.js';

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const o = optionsOf(ctx, explainOptions);
  const ref = productRef('explain', args[0] as string | undefined, o);
  const slot = readInput(slotInput, o.slot, '--slot');
  const params = pricingParams(o);
  const evidence = await withService(ctx, async (service) =>
    service.evidence({ ref, slot, query: params, now: ctx.now }),
  );
  ctx.stdout.write(
    o.json ? `${JSON.stringify(evidence)}\n` : renderEvidence(inertAll(evidence), ctx.terminal),
  );
  return 0;
}
