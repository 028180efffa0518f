/** The analyst's view of the catalog: one row per product. */
import type { CatalogEntry } from '../../domain/product.js';

export async function renderCatalogTable(entries: readonly CatalogEntry[]): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const table = new Table({
    head: ['product key', 'refsource id', 'name', 'type', 'era', 'earliest', 'observations'],
    colAligns: ['left', 'right', 'left', 'left', 'left', 'left', 'right'],
    style: { head: [], border: [] },
  });
  for (const e of entries) {
    table.push([
      e.product_key,
      e.refsource_id ?? '',
      e.product_name,
      e.product_type,
      e.era,
      e.earliest_observation ?? '-',
      e.observation_count.toLocaleString('en-US'),
    ]);
  }
  return `${table.toString()}\n${entries.length} product${entries.length === 1 ? '' : 's'}\n`;
}
