/**
 * Rows of `oracle export`: a bundle as one NDJSON line (the API's body) or one CSV row of
 * every slot's price and interval in cents.
 */
import type { PricingBundle } from '../../domain/bundle.js';
import { SLOT_KEYS } from '../../domain/history.js';
import { csvOutputLine, type CsvCell } from '../../domain/csv.js';
import { confidenceOf, slotOf } from '../../service/history.js';

/** The `--format` choices of oracle export (program.ts). */
export type ExportFormat = 'ndjson' | 'csv';

export function exportHeader(format: ExportFormat): string {
  if (format === 'ndjson') return '';
  const slots = SLOT_KEYS.flatMap((s) => [`${s}_price_minor`, `${s}_low_minor`, `${s}_high_minor`]);
  return `${['product_key', 'refsource_id', 'at', ...slots].join(',')}\n`;
}

export function exportRow(bundle: PricingBundle, format: ExportFormat): string {
  if (format === 'ndjson') return `${JSON.stringify(bundle)}\n`;
  const cells: CsvCell[] = [bundle.product_key, bundle.id, bundle.ungraded.window_end];
  for (const key of SLOT_KEYS) {
    const slot = slotOf(bundle, key);
    const c = confidenceOf(slot);
    cells.push(slot.price_minor, c?.low_minor ?? null, c?.high_minor ?? null);
  }
  return `${csvOutputLine(cells)}\n`;
}
