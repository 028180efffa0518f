/** `oracle catalog`: the tracked products as a table, or SPEC.md 4.5's body with --json; --search ranks full-text matches. */
import { catalogOptions, optionsOf } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { renderCatalogTable } from '../format/catalog-table.js';
import { outputWidth } from '../format/columns.js';
import { withService } from '../service.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const { json, search } = optionsOf(ctx, catalogOptions);
  ctx.stdout.write(
    json
      ? `${await withService(ctx, (service) => service.catalogJson(search))}\n`
      : renderCatalogTable(await withService(ctx, (service) => service.catalogEntries(search)), outputWidth(ctx.stdout)),
  );
  return 0;
}
