/** `oracle catalog`: the tracked products as a table, or SPEC.md 4.5's body with --json; --search ranks full-text matches. */
import { catalogBody } from '../../service/catalog.js';
import { catalogOptions, optionsOf } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { renderCatalogTable } from '../format/catalog-table.js';
import { withService } from '../open-service.js';
import { inertAll } from '../format/inert.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const { json, search } = optionsOf(ctx, catalogOptions);
  // The whole catalog as JSON is the store's text as is (its fast path); a search is a few ranked rows.
  if (json && search === undefined) {
    ctx.stdout.write(`${await withService(ctx, (service) => service.catalogJson())}\n`);
    return 0;
  }
  const { entries, didYouMean } = await withService(ctx, async (service) =>
    search === undefined ? { entries: await service.catalog(), didYouMean: null } : service.search(search),
  );
  // On stderr, so the table or the JSON stays what a pipe reads.
  if (didYouMean !== null)
    ctx.stderr.write(
      `oracle: no product matches ${JSON.stringify(search)}; did you mean ${JSON.stringify(didYouMean)}? Its matches:\n`,
    );
  ctx.stdout.write(
    json
      ? `${JSON.stringify(catalogBody(entries))}\n`
      : renderCatalogTable(inertAll(entries), ctx.terminal.width),
  );
  return 0;
}
