/** `oracle calibrate [--at <time>] [--show]`: fit and store the calibration, or print the stored one. */
import { calibrateOptions, optionsOf } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { renderCalibration } from '../format/calibration-table.js';
import { withService } from '../open-service.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const o = optionsOf(ctx, calibrateOptions);
  const at = o.at;
  const result = await withService(
    ctx,
    (service) =>
      o.show === true ? service.calibration({ at }) : service.calibrate({ asOf: at, now: ctx.now }),
    {
      write: o.show !== true,
    },
  );
  ctx.stdout.write(o.json === true ? `${JSON.stringify(result)}\n` : renderCalibration(result, ctx.terminal));
  return 0;
}
