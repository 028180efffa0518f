/** The one service (src/service/oracle-service.ts) over the command's store, as every command but `serve` uses it. */
import { createCommandStore } from '../service/command-store.js';
import { createOracleService, type OracleService } from '../service/oracle-service.js';
import type { OpenOptions } from '../store/store.js';
import type { CommandContext } from './context.js';

/**
 * Runs `fn` with the service over `ctx.dbPath` (opened on its first call), closing it after,
 * whatever happens. Without a bundle cache: a command makes one call, which would fill it and never read it.
 */
export async function withService<T>(ctx: CommandContext, fn: (service: OracleService) => Promise<T>, options: OpenOptions = {}): Promise<T> {
  const service = createOracleService({ store: createCommandStore(ctx.dbPath, options), bundleCache: false });
  try {
    return await fn(service);
  } finally {
    await service.close();
  }
}
