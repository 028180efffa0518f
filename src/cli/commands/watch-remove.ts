/** `oracle watch remove <id>`: the rule is gone; its recorded events stay (a pending one is still delivered). */
import { readInput, wholeNumber } from '../../domain/input.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { withService } from '../open-service.js';

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const id = readInput(wholeNumber({ min: 1 }), String(args[0]), 'the rule id');
  const removed = await withService(ctx, (service) => service.removeWatch({ id }), { write: true });
  if (!removed) throw new UsageError(`no watch rule has id ${id} (see oracle watch list)`);
  ctx.stderr.write(`removed watch ${id}\n`);
  return 0;
}
