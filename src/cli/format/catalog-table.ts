/**
 * The analyst's view of the catalog: one line per product with the key to price it by, the
 * name and set people know it by, its variant (printing and language: `1st Ed Holo`, `JP`;
 * empty for an English card of its regular printing), its TCGplayer product id and refsource
 * id (PriceCharting's, after a PriceCharting catalog ingest), and its observation count,
 * fitted to the terminal's width (terminal.ts): name, set and variant give up width first, cut
 * with "…"; the ids and the count are never cut. When that is not enough, the set goes, then
 * the name (the catalog's keys name both), then the TCGplayer id, the refsource id and the
 * variant; the key is never cut: only when it alone is wider than the terminal it wraps at a `-`.
 * The variant and id columns are left out when no listed product has one.
 */
import type { CatalogEntry } from '../../domain/product.js';
import { fitColumns, type Column } from './columns.js';
import { variantCell } from './identity.js';

export function renderCatalogTable(entries: readonly CatalogEntry[], width: number): string {
  const columns: Column[] = [
    { head: 'product key', cells: entries.map((e) => e.product_key), shrink: 0, min: 24, keep: true },
    {
      head: 'name',
      cells: entries.map((e) => (e.subtitle ? `${e.product_name} ${e.subtitle}` : e.product_name)),
      shrink: 1,
      min: 12,
      lastResort: 2,
    },
    { head: 'set', cells: entries.map((e) => e.set_name), shrink: 2, min: 10, lastResort: 1 },
    {
      head: 'variant',
      cells: entries.map((e) => variantCell(e.printing, e.language)),
      shrink: 3,
      min: 11,
      dropWhenBlank: true,
      lastResort: 5,
    },
    {
      head: 'tcg id',
      cells: entries.map((e) => e.tcgplayer_id ?? '-'),
      shrink: 0,
      min: 6,
      alignRight: true,
      dropWhenBlank: true,
      lastResort: 3,
    },
    {
      head: 'ref id',
      cells: entries.map((e) => e.refsource_id ?? '-'),
      shrink: 0,
      min: 6,
      alignRight: true,
      dropWhenBlank: true,
      lastResort: 4,
    },
    {
      head: 'earliest',
      cells: entries.map((e) => e.earliest_observation ?? '-'),
      shrink: 0,
      min: 10,
      optional: true,
    },
    {
      head: 'obs',
      cells: entries.map((e) => e.observation_count.toLocaleString('en-US')),
      shrink: 0,
      min: 3,
      alignRight: true,
    },
  ];
  return `${fitColumns(columns, width)}${entries.length} product${entries.length === 1 ? '' : 's'}\n`;
}
