/**
 * `oracle keys revoke <key-id>`: refused from the next request on. A running server notices
 * the write (the database's data_version moves) and drops its cached lookup of the key.
 */
import type { CommandContext } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { withService } from '../open-service.js';

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const id = String(args[0]);
  const revoked = await withService(ctx, (service) => service.revokeKey({ id, now: ctx.now }), {
    write: true,
  });
  if (!revoked) throw new UsageError(`no active API key has id ${JSON.stringify(id)} (see oracle keys list)`);
  ctx.stderr.write(`revoked API key ${id}\n`);
  return 0;
}
