/** `oracle keys list [--json]`: id, label, created, last used, revoked; never a secret (none is stored). */
import { toIsoUtc } from '../../domain/time.js';
import { keysListOptions, optionsOf } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { withService } from '../service.js';
import { inertAll } from '../format/inert.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const rows = (await withService(ctx, (service) => service.listKeys())).map((k) => ({
    id: k.id,
    label: k.label,
    created_at: toIsoUtc(k.createdAt),
    last_used_at: k.lastUsedAt === null ? null : toIsoUtc(k.lastUsedAt),
    revoked_at: k.revokedAt === null ? null : toIsoUtc(k.revokedAt),
  }));
  if (optionsOf(ctx, keysListOptions).json) {
    ctx.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  const { default: Table } = await import('cli-table3');
  const table = new Table({ head: ['id', 'label', 'created', 'last used', 'revoked'], style: { head: [], border: [] } });
  for (const r of inertAll(rows)) table.push([r.id, r.label, r.created_at, r.last_used_at ?? '-', r.revoked_at ?? '-']);
  ctx.stdout.write(`${table.toString()}\n${rows.length} key${rows.length === 1 ? '' : 's'}\n`);
  return 0;
}
