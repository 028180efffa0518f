/** `oracle calibrate [--at <time>] [--show]`: fit and store the calibration, or print the stored one. */
import { calibrate, showCalibration } from '../../service/calibration.js';
import { openStore } from '../../store/store.js';
import type { CommandContext } from '../context.js';
import { renderCalibration } from '../format/calibration-table.js';

interface CalibrateOptions {
  /** Epoch ms (now when not given). */
  at: number;
  show?: boolean;
  json?: boolean;
}

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const o = ctx.options as CalibrateOptions;
  const at = o.at;
  const store = await openStore(ctx.dbPath, { create: false });
  try {
    const result = o.show === true ? showCalibration(store, at) : calibrate(store, at, ctx.now);
    ctx.stdout.write(o.json === true ? `${JSON.stringify(result)}\n` : await renderCalibration(result));
  } finally {
    store.close();
  }
  return 0;
}
