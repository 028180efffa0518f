/** `oracle catalog`: the tracked products as a table, or SPEC.md 4.5's body with --json; --search ranks full-text matches. */
import { parseSearchText } from '../../domain/search.js';
import { createOracle } from '../../service/oracle.js';
import { openStore } from '../../store/store.js';
import type { CommandContext } from '../context.js';
import { renderCatalogTable } from '../format/catalog-table.js';
import { outputWidth } from '../format/columns.js';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  const { json, search: raw } = ctx.options as { json?: boolean; search?: string };
  const search = raw === undefined ? undefined : parseSearchText(raw, '--search');
  const store = await openStore(ctx.dbPath);
  try {
    const oracle = createOracle({ store });
    ctx.stdout.write(
      json
        ? `${oracle.catalogJson(search)}\n`
        : renderCatalogTable(oracle.catalogEntries(search), outputWidth(ctx.stdout)),
    );
  } finally {
    store.close();
  }
  return 0;
}
