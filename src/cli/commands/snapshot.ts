/** `oracle snapshot <refsource_id> --date YYYY-MM-DD`: the bundle over one past UTC day. */
import { optionsOf, snapshotOptions } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { printBundle } from '../format/print-bundle.js';
import { withService } from '../open-service.js';

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const refsourceId = args[0] as string;
  const o = optionsOf(ctx, snapshotOptions);
  const bundle = await withService(ctx, (service) =>
    service.snapshot({ id: refsourceId, day: o.date, outlierStddevs: o.outlierStddevs, now: ctx.now }),
  );
  printBundle(bundle, o.json === true, ctx.stdout, ctx.terminal);
  return 0;
}
