/** `oracle catalog`: the tracked products as a table, or SPEC.md 4.5's body with --json; --search ranks full-text matches. */
import { catalogBody } from '../../service/catalog.js';
import { catalogOptions, optionsOf } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { renderCatalogTable } from '../format/catalog-table.js';
import { withService } from '../open-service.js';
import { inertAll } from '../format/inert.js';
import { CATALOG_PAGE } from '../../domain/search.js';
import type { Oracle } from '../../service/oracle.js';
import type { Output } from '../context.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const { json, search } = optionsOf(ctx, catalogOptions);
  // The whole catalog as JSON is written a page at a time, in memory of a page: a search is a few ranked rows.
  if (json && search === undefined) {
    await withService(ctx, (service) => writeCatalogJson(service, ctx.stdout));
    return 0;
  }
  const { entries, didYouMean } = await withService(ctx, async (service) =>
    search === undefined
      ? { entries: await service.catalog(), didYouMean: null }
      : service.search({ q: search }),
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

/**
 * SPEC.md 4.5's body of the whole catalog, `{total, products}`, written page by page as the
 * API serves it (service/catalog.ts catalogPage), waiting for the pipe between pages: memory
 * of one page, however big the catalog (the whole body built at once took 394 MB at 300,000).
 */
async function writeCatalogJson(service: Oracle, out: Output): Promise<void> {
  let cursor: string | null = null;
  let written = 0;
  do {
    const page = await service.catalogPage({ cursor, limit: CATALOG_PAGE.max });
    let text = written === 0 ? `{"total":${page.total},"products":[` : '';
    for (const product of page.products) text += `${written++ === 0 ? '' : ','}${JSON.stringify(product)}`;
    cursor = page.next_cursor;
    if (cursor === null) text += ']}\n';
    if (!out.write(text)) await new Promise((resolve) => out.once('drain', resolve));
  } while (cursor !== null);
}
