/** `oracle snapshot <refsource_id> --date YYYY-MM-DD`: the bundle over one past UTC day. */
import { parseOutlierStddevs, parseSnapshotDate } from '../../domain/params.js';
import { createOracle } from '../../service/oracle.js';
import { openStore } from '../../store/store.js';
import type { CommandContext } from '../context.js';
import { printBundle } from '../format/print-bundle.js';

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const refsourceId = args[0] as string;
  const o = ctx.options as { date?: string; outlierStddevs?: string; json?: boolean };
  const day = parseSnapshotDate(o.date, ctx.now, '--date');
  const outlierStddevs = parseOutlierStddevs(o.outlierStddevs, '--outlier-stddevs');
  const store = await openStore(ctx.dbPath);
  try {
    const oracle = createOracle({ store });
    const bundle = oracle.snapshot(oracle.productByRefsource(refsourceId), day, outlierStddevs);
    await printBundle(bundle, o.json === true, ctx.stdout);
  } finally {
    store.close();
  }
  return 0;
}
