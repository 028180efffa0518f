/** The analyst's view of a calibration: per era, each condition's ratio to PSA 10, its spread and where it came from. */
import type { CalibrationReport } from '../../service/calibration.js';
import { ERAS } from '../../domain/product.js';
import { fitColumns } from './columns.js';
import { wrapText, type Terminal } from './terminal.js';

export function renderCalibration(report: CalibrationReport | null, terminal: Terminal): string {
  if (report === null) {
    return wrapText(
      'no calibration stored for that instant: the engine prices with the documented priors (docs/methodology.md §7); run `oracle calibrate`\n',
      terminal.width,
    );
  }
  const lines = [`calibration fitted from observations before ${report.as_of} (run ${report.created_at})`];
  for (const era of ERAS) {
    lines.push('', `${era}: ${report.products[era]} products with data`);
    const rows = report.eras[era];
    const prior = (text: string, r: number) =>
      rows[r]!.source === 'prior' ? terminal.colour.dim(text) : text;
    const columns = [
      { head: 'condition', cells: rows.map((row) => row.condition), shrink: 0, min: 9, keep: true },
      {
        head: 'x PSA 10',
        cells: rows.map((row) => row.ratio_vs_psa10.toFixed(4)),
        shrink: 0,
        min: 8,
        alignRight: true,
      },
      {
        head: 'spread',
        cells: rows.map((row) => row.dispersion.toFixed(3)),
        shrink: 0,
        min: 6,
        alignRight: true,
      },
      {
        head: 'products',
        cells: rows.map((row) => String(row.products)),
        shrink: 0,
        min: 8,
        alignRight: true,
      },
      { head: 'from', cells: rows.map((row) => row.source), shrink: 1, min: 5 },
    ];
    lines.push(
      fitColumns(
        columns.map((c) => ({ ...c, paint: prior })),
        terminal.width,
      ).trimEnd(),
    );
  }
  lines.push(
    '',
    "x PSA 10: price / the same card's PSA 10 price; spread: robust sd of ln(ratio) between cards; prior: too few products, the documented prior holds",
  );
  return wrapText(`${lines.join('\n')}\n`, terminal.width);
}
