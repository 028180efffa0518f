/**
 * Plain-text columns fitted to a width: two spaces between columns, no borders (borders cost
 * columns an 80-column terminal does not have). Optional columns are dropped when the table
 * does not fit at its natural width, then the shrinkable ones give up width (lowest `shrink`
 * first) down to their `min`, cut with "…".
 */

export interface Column {
  head: string;
  cells: readonly string[];
  /** Order in which columns give up width: 1 first, then 2 ...; 0 never. */
  shrink: number;
  min: number;
  alignRight?: boolean;
  /** Left out entirely when the table would not fit otherwise. */
  optional?: boolean;
}

const GAP = '  ';

/** Width used when stdout is not a terminal (a pipe, a file). */
export const DEFAULT_WIDTH = 80;

/** The terminal's width, or DEFAULT_WIDTH for a pipe or a file. */
export function outputWidth(out: { isTTY?: boolean; columns?: number }): number {
  return out.isTTY && out.columns ? out.columns : DEFAULT_WIDTH;
}

function naturalWidth(c: Column): number {
  return Math.max(c.head.length, ...c.cells.map((s) => s.length));
}

function cut(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

export function fitColumns(all: readonly Column[], width: number): string {
  let columns = [...all];
  let widths = columns.map(naturalWidth);
  const total = () => widths.reduce((a, b) => a + b, 0) + GAP.length * (widths.length - 1);
  if (total() > width) {
    widths = widths.filter((_, i) => !columns[i]!.optional);
    columns = columns.filter((c) => !c.optional);
  }
  const order = columns.map((c, i) => ({ c, i })).filter(({ c }) => c.shrink > 0).sort((a, b) => a.c.shrink - b.c.shrink);
  for (const { c, i } of order) {
    const excess = total() - width;
    if (excess <= 0) break;
    widths[i] = Math.max(Math.min(c.min, widths[i]!), widths[i]! - excess);
  }
  const line = (cells: readonly string[]) =>
    cells
      .map((text, i) => {
        const w = widths[i]!;
        const fitted = cut(text, w);
        return columns[i]!.alignRight ? fitted.padStart(w) : fitted.padEnd(w);
      })
      .join(GAP)
      .trimEnd();
  const rows = [line(columns.map((c) => c.head))];
  for (let r = 0; r < (columns[0]?.cells.length ?? 0); r++) rows.push(line(columns.map((c) => c.cells[r]!)));
  return `${rows.join('\n')}\n`;
}
