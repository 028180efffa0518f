/**
 * The analyst's view of the catalog: one line per product with the key to price it by, the
 * name and set people know it by, and its observation count, fitted to the terminal (80
 * columns when the width is unknown): name and set give up width first, cut with "…".
 */
import type { CatalogEntry } from '../../domain/product.js';
import { DEFAULT_WIDTH, fitColumns, type Column } from './columns.js';

export function renderCatalogTable(entries: readonly CatalogEntry[], width = DEFAULT_WIDTH): string {
  const columns: Column[] = [
    { head: 'product key', cells: entries.map((e) => e.product_key), shrink: 3, min: 24 },
    { head: 'name', cells: entries.map((e) => (e.subtitle ? `${e.product_name} ${e.subtitle}` : e.product_name)), shrink: 1, min: 12 },
    { head: 'set', cells: entries.map((e) => e.set_name), shrink: 2, min: 10 },
    { head: 'earliest', cells: entries.map((e) => e.earliest_observation ?? '-'), shrink: 0, min: 10, optional: true },
    { head: 'obs', cells: entries.map((e) => e.observation_count.toLocaleString('en-US')), shrink: 0, min: 3, alignRight: true },
  ];
  return `${fitColumns(columns, width)}${entries.length} product${entries.length === 1 ? '' : 's'}\n`;
}
