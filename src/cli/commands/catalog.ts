/** `oracle catalog`: the tracked products as a table, or SPEC.md 4.5's body with --json; --search ranks full-text matches. */
import { catalogBody } from '../../service/catalog.js';
import { catalogOptions, optionsOf } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { renderCatalogTable } from '../format/catalog-table.js';
import { outputWidth } from '../format/columns.js';
import { withService } from '../service.js';
import { inertAll } from '../format/inert.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const { json, search } = optionsOf(ctx, catalogOptions);
  // The whole catalog as JSON is the store's text as is (its fast path); a search is a few ranked rows.
  if (json && search === undefined) {
    ctx.stdout.write(`${await withService(ctx, (service) => service.catalogJson())}\n`);
    return 0;
  }
  const entries = await withService(ctx, (service) => (search === undefined ? service.catalog() : service.search(search)));
  ctx.stdout.write(json ? `${JSON.stringify(catalogBody(entries))}\n` : renderCatalogTable(inertAll(entries), outputWidth(ctx.stdout)));
  return 0;
}
