/** `oracle catalog`: the tracked products as a table, or SPEC.md 4.5's body with --json. */
import { openStore } from '../../store/store.js';
import type { CommandContext } from '../context.js';
import { catalogBody } from '../../service/catalog.js';
import { renderCatalogTable } from '../format/catalog-table.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const { json, search } = ctx.options as { json?: boolean; search?: string };
  const store = await openStore(ctx.dbPath);
  try {
    const entries = store.products.catalog(search);
    ctx.stdout.write(json ? `${JSON.stringify(catalogBody(entries), null, 2)}\n` : await renderCatalogTable(entries));
  } finally {
    store.close();
  }
  return 0;
}
