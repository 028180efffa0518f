/** `oracle catalog`: the tracked products as a table, or SPEC.md 4.5's body with --json. */
import { createOracle } from '../../service/oracle.js';
import { openStore } from '../../store/store.js';
import type { CommandContext } from '../context.js';
import { renderCatalogTable } from '../format/catalog-table.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const { json, search } = ctx.options as { json?: boolean; search?: string };
  const store = await openStore(ctx.dbPath);
  try {
    const oracle = createOracle({ store });
    ctx.stdout.write(json ? `${oracle.catalogJson(search)}\n` : await renderCatalogTable(oracle.catalogEntries(search)));
  } finally {
    store.close();
  }
  return 0;
}
