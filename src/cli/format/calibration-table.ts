/** The analyst's view of a calibration: per era, each condition's ratio to PSA 10, its spread and where it came from. */
import type { CalibrationReport } from '../../service/calibration.js';
import { ERAS } from '../../domain/product.js';

export async function renderCalibration(report: CalibrationReport | null): Promise<string> {
  if (report === null) {
    return 'no calibration stored for that instant: the engine prices with the documented priors (docs/methodology.md §7); run `oracle calibrate`\n';
  }
  const { default: Table } = await import('cli-table3');
  const lines = [`calibration fitted from observations before ${report.as_of} (run ${report.created_at})`];
  for (const era of ERAS) {
    lines.push('', `${era}: ${report.products[era]} products with data`);
    const table = new Table({
      head: ['condition', 'x PSA 10', 'spread', 'products', 'from'],
      colAligns: ['left', 'right', 'right', 'right', 'left'],
      style: { head: [], border: [] },
    });
    for (const row of report.eras[era]) {
      table.push([row.condition, row.ratio_vs_psa10.toFixed(4), row.dispersion.toFixed(3), String(row.products), row.source]);
    }
    lines.push(table.toString());
  }
  lines.push('', 'x PSA 10: price / the same card\'s PSA 10 price; spread: robust sd of ln(ratio) between cards; prior: too few products, the documented prior holds');
  return `${lines.join('\n')}\n`;
}
