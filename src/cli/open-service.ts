/** The oracle (src/service/oracle.ts) over the command's store, as every command but `serve` uses it. */
import { createOracle, type Oracle } from '../service/oracle.js';
import { openStore } from '../store/open-store.js';
import type { OpenOptions } from '../store/store.js';
import type { CommandContext } from './context.js';
import { prepareUserDatabase } from './db-location.js';

/**
 * Opens the store at `ctx.dbPath` (as `options` ask: `create` for ingest, `write` for the other
 * commands that write) with the run's opener (ProgramDeps.openStore, else the real one), runs
 * `fn` with the oracle over it, and closes both after, whatever happens. What the store says of
 * how it reads the database (a copy in memory) is a `note:` line on stderr.
 */
export async function withService<T>(
  ctx: CommandContext,
  fn: (service: Oracle) => Promise<T>,
  options: OpenOptions = {},
): Promise<T> {
  const open = ctx.openStore ?? openStore;
  if (options.create === true) prepareUserDatabase(ctx.dbPath, ctx.env);
  // A command that writes waits its --lock-wait for another writer (an ingest passes its own, which says so).
  const lockWait =
    typeof ctx.options.lockWait === 'number' ? { maxWaitMs: ctx.options.lockWait * 1000 } : undefined;
  const service = createOracle({
    store: await open(ctx.dbPath, { notice: noteTo(ctx), lockWait, ...options }),
  });
  try {
    return await fn(service);
  } finally {
    await service.close();
  }
}

/** What a store says of how it reads the database, as a `note:` line on the command's stderr. */
export function noteTo(ctx: CommandContext): (message: string) => void {
  return (message) => ctx.stderr.write(`note: ${message}\n`);
}
