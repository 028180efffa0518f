/** `oracle snapshot <refsource_id> --date YYYY-MM-DD`: the bundle over one past UTC day. */
import { toIsoUtc, toUtcDate } from '../../domain/time.js';
import type { OracleService } from '../../service/oracle-service.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { printBundle } from '../format/print-bundle.js';
import { withService } from '../service.js';

/** Refsource ids are digits (the catalog refuses anything else). */
const REFSOURCE_ID = /^\d+$/;

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const refsourceId = args[0] as string;
  const o = ctx.options as { date: { start: number; end: number }; outlierStddevs: number; json?: boolean };
  const day = o.date;
  const outlierStddevs = o.outlierStddevs;
  const bundle = await withService(ctx, async (service) => {
    if (!REFSOURCE_ID.test(refsourceId)) throw await notARefsourceId(service, refsourceId, day.end > ctx.now ? null : day.end, toUtcDate(day.start));
    return service.snapshot(refsourceId, day, outlierStddevs, ctx.now);
  });
  await printBundle(bundle, o.json === true, ctx.stdout);
  return 0;
}

/**
 * The error for an argument that cannot be a refsource id, most often a product key: it names
 * the two commands that do what was meant (the product's snapshot by its refsource id, or
 * `oracle price` over the same 24 hours, which end at `dayEnd`; null for today, which has not
 * ended, so the price is the current one: --at may not be later than now).
 */
async function notARefsourceId(service: OracleService, arg: string, dayEnd: number | null, date: string): Promise<UsageError> {
  const price = dayEnd === null ? `'oracle price ${arg}' (the last 24 hours)` : `'oracle price ${arg} --at ${toIsoUtc(dayEnd)}' (the same 24 hours)`;
  const product = await service.findProduct(arg);
  if (product === null) {
    return new UsageError(
      `snapshot takes a refsource id (digits), not ${JSON.stringify(arg)}, which is no product_key either (see oracle catalog --search)`,
    );
  }
  const snapshot = product.refsourceId === null ? '' : ` 'oracle snapshot ${product.refsourceId} --date ${date}' (its refsource id) or`;
  return new UsageError(`snapshot takes a refsource id, not a product_key: for ${arg} run${snapshot} ${price}`);
}
