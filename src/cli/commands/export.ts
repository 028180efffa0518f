/**
 * `oracle export`: every product's bundle as of one instant, as NDJSON or CSV, to stdout or a
 * file. Bundles are priced and written one at a time with the stream's backpressure, so memory
 * stays flat whatever the catalog's size; `--out` writes `<file>.partial` and renames it when
 * complete, so a cut-off export never looks finished.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { exportOptions, optionsOf } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { createCountProgress } from '../format/count-progress.js';
import { exportHeader, exportRow } from '../format/export-rows.js';
import { pricingParams } from '../pricing-options.js';
import { withService } from '../open-service.js';

/** Text gathered before a write: one write per few dozen bundles, not per bundle. */
const WRITE_CHARS = 64 * 1024;

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const o = optionsOf(ctx, exportOptions);
  const format = o.format;
  const params = pricingParams(o);
  const partial = o.out === undefined ? undefined : `${o.out}.partial`;
  // 0600 like the database: an export is the database's data (the umask may take more away).
  const out: NodeJS.WritableStream =
    partial === undefined ? ctx.stdout : createWriteStream(partial, { mode: 0o600 });
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  try {
    await withService(ctx, async (service) => {
      const { count, bundles } = await service.exportBundles(params);
      const progress = ctx.stderr.isTTY ? createCountProgress(ctx.stderr, 'export', count) : null;
      let pending = exportHeader(format);
      let done = 0;
      for await (const bundle of bundles) {
        pending += exportRow(bundle, format);
        done += 1;
        if (pending.length >= WRITE_CHARS) {
          await write(pending);
          pending = '';
          progress?.update(done);
        }
      }
      await write(pending);
      progress?.update(done);
      progress?.clear();
      if (partial !== undefined) {
        out.end();
        await once(out, 'finish');
        await rename(partial, o.out!);
        ctx.stderr.write(
          `exported ${done.toLocaleString('en-US')} product${done === 1 ? '' : 's'} to ${o.out}\n`,
        );
      }
    });
  } catch (error) {
    if (partial !== undefined) {
      out.end();
      await rm(partial, { force: true });
    }
    // The reader stopped reading (`oracle export | head`): what it wanted was written.
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') return 0;
    throw error;
  }
  return 0;
}
