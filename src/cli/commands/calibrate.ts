/** `oracle calibrate [--at <time>] [--show]`: fit and store the calibration, or print the stored one. */
import type { CommandContext } from '../context.js';
import { renderCalibration } from '../format/calibration-table.js';
import { withService } from '../service.js';

interface CalibrateOptions {
  /** Epoch ms (now when not given). */
  at: number;
  show?: boolean;
  json?: boolean;
}

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const o = ctx.options as CalibrateOptions;
  const at = o.at;
  const result = await withService(ctx, (service) => (o.show === true ? service.calibration(at) : service.calibrate(at, ctx.now)));
  ctx.stdout.write(o.json === true ? `${JSON.stringify(result)}\n` : await renderCalibration(result));
  return 0;
}
