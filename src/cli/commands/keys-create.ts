/**
 * `oracle keys create --label <name>`: a new random key (256 bits), printed once on stdout;
 * only its SHA-256 is stored. The public id (for `keys list`, `keys revoke` and the access
 * log) goes to stderr, so `KEY=$(oracle keys create --label x)` captures the key alone.
 */
import { keysCreateOptions, optionsOf } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { withService } from '../open-service.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const { label } = optionsOf(ctx, keysCreateOptions); // checked and trimmed by its option (options.ts labelOption)
  // Never a new file: a key stored in an empty database the server does not read would be refused.
  const { id, secret } = await withService(ctx, (service) => service.createKey({ label, now: ctx.now }), {
    write: true,
  });
  ctx.stdout.write(`${secret}\n`);
  ctx.stderr.write(
    `created API key ${id} (${JSON.stringify(label)}); the key above is shown only this once\n`,
  );
  return 0;
}
