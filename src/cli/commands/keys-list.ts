/** `oracle keys list [--json]`: id, label, created, last used, revoked; never a secret (none is stored). */
import { toIsoUtc } from '../../domain/time.js';
import { keysListOptions, optionsOf } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { fitColumns } from '../format/columns.js';
import { withService } from '../open-service.js';
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
  // The id is what `keys revoke` takes: never cut. The label gives way first; a column nobody has a value in is left out.
  const shown = inertAll(rows);
  const table = fitColumns(
    [
      { head: 'id', cells: shown.map((r) => r.id), shrink: 0, min: 8, keep: true },
      { head: 'label', cells: shown.map((r) => r.label), shrink: 1, min: 8 },
      { head: 'created', cells: shown.map((r) => r.created_at), shrink: 0, min: 20 },
      {
        head: 'last used',
        cells: shown.map((r) => r.last_used_at ?? '-'),
        shrink: 0,
        min: 20,
        lastResort: 1,
      },
      {
        head: 'revoked',
        cells: shown.map((r) => r.revoked_at ?? '-'),
        shrink: 0,
        min: 20,
        dropWhenBlank: true,
        lastResort: 2,
      },
    ],
    ctx.terminal.width,
  );
  ctx.stdout.write(`${rows.length === 0 ? '' : table}${rows.length} key${rows.length === 1 ? '' : 's'}\n`);
  return 0;
}
