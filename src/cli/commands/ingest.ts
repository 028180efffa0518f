import type { CommandContext } from '../context.js';

export async function run(_args: unknown[], _ctx: CommandContext): Promise<number> {
  throw new Error('not implemented yet');
}
