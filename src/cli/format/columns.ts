/**
 * Plain-text columns fitted to a width: two spaces between columns, no borders (borders cost
 * columns an 80-column terminal does not have). A `dropWhenBlank` column with nothing in it is
 * left out. Optional columns are dropped when the table
 * does not fit at its natural width, then the shrinkable ones give up width (lowest `shrink`
 * first) down to their `min`, cut with "…", but a `cutLast` column keeps its width; should
 * the table still not fit, the `lastResort` columns are dropped, in order, and only when
 * none is left are the `cutLast` columns cut too.
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
  /** Left out only when the table does not fit with every other column at its `min`: 1 first, then 2 ... */
  lastResort?: number;
  /** Cut only when no `lastResort` column is left to drop (the key a user types). */
  cutLast?: boolean;
  /** Left out when no cell holds anything (each is empty or `-`): nothing to show in it. */
  dropWhenBlank?: boolean;
}

const isBlank = (cell: string) => cell === '' || cell === '-';

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

const totalWidth = (widths: readonly number[]) => widths.reduce((a, b) => a + b, 0) + GAP.length * (widths.length - 1);

/**
 * Each column's width in `width`, shrinking the shrinkable ones (the `cutLast` ones only with
 * `cutAll`); wider than `width` when their mins are.
 */
function shrunkWidths(columns: readonly Column[], width: number, cutAll: boolean): number[] {
  const widths = columns.map(naturalWidth);
  const order = columns
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => c.shrink > 0 && (cutAll || !c.cutLast))
    .sort((a, b) => a.c.shrink - b.c.shrink);
  for (const { c, i } of order) {
    const excess = totalWidth(widths) - width;
    if (excess <= 0) break;
    widths[i] = Math.max(Math.min(c.min, widths[i]!), widths[i]! - excess);
  }
  return widths;
}

export function fitColumns(all: readonly Column[], width: number): string {
  let columns = all.filter((c) => !(c.dropWhenBlank && c.cells.every(isBlank)));
  if (totalWidth(columns.map(naturalWidth)) > width) columns = columns.filter((c) => !c.optional);
  let widths = shrunkWidths(columns, width, false);
  const drops = columns.filter((c) => c.lastResort !== undefined).sort((a, b) => a.lastResort! - b.lastResort!);
  for (const drop of drops) {
    if (totalWidth(widths) <= width) break;
    columns = columns.filter((c) => c !== drop);
    widths = shrunkWidths(columns, width, false);
  }
  if (totalWidth(widths) > width) widths = shrunkWidths(columns, width, true);
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
