/**
 * Plain-text columns fitted to a width: two spaces between columns, no borders (borders cost
 * columns an 80-column terminal does not have). A `dropWhenBlank` column with nothing in it is
 * left out. Optional columns are dropped when the table does not fit at its natural width,
 * then the shrinkable ones give up width (lowest `shrink` first) down to their `min`, cut with
 * "…"; should the table still not fit, the `lastResort` columns are dropped, in order. A `keep`
 * column (a key a user copies) is never cut: when nothing else is left to give way, each row
 * is stacked, its key whole on a line of its own and the rest under it (fitTable).
 * Under `--wide` the width is Infinity: every column at its natural width, nothing cut.
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
  /** Never cut (the key a user types): wrapped over more lines when nothing else can give way. */
  keep?: boolean;
  /** Left out when no cell holds anything (each is empty or `-`): nothing to show in it. */
  dropWhenBlank?: boolean;
  /** Colour for a cell's text (terminal.ts Palette), applied after fitting: widths count plain text. */
  paint?: (text: string, row: number) => string;
}

const isBlank = (cell: string) => cell === '' || cell === '-';

const GAP = '  ';

/** The widest of head and cells (a loop: spreading 125,000 cells into Math.max overflowed the stack). */
function naturalWidth(c: Column): number {
  let width = c.head.length;
  for (const cell of c.cells) if (cell.length > width) width = cell.length;
  return width;
}

function cut(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/** A kept cell in pieces of at most `width`, each ending after a `-` where one falls in it. */
function pieces(text: string, width: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > width) {
    const dash = rest.lastIndexOf('-', width - 1);
    const end = dash > 0 ? dash + 1 : width;
    out.push(rest.slice(0, end));
    rest = rest.slice(end);
  }
  out.push(rest);
  return out;
}

const totalWidth = (widths: readonly number[]) =>
  widths.reduce((a, b) => a + b, 0) + GAP.length * (widths.length - 1);

/** Each column's width in `width`, shrinking the shrinkable ones; wider than `width` when their mins are. */
function shrunkWidths(columns: readonly Column[], width: number): number[] {
  const widths = columns.map(naturalWidth);
  const order = columns
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => c.shrink > 0 && !c.keep)
    .sort((a, b) => a.c.shrink - b.c.shrink);
  for (const { c, i } of order) {
    const excess = totalWidth(widths) - width;
    if (excess <= 0) break;
    widths[i] = Math.max(Math.min(c.min, widths[i]!), widths[i]! - excess);
  }
  return widths;
}

/** A fitted table: its head's lines and each row's (two or more where the rows are stacked). */
export interface FittedTable {
  head: string[];
  rows: string[][];
}

/** The columns shown and their widths in `width`: what gives way, in order (see the top). */
function plan(all: readonly Column[], width: number): { columns: Column[]; widths: number[] } {
  let columns = all.filter((c) => !(c.dropWhenBlank && c.cells.every(isBlank)));
  if (totalWidth(columns.map(naturalWidth)) > width) columns = columns.filter((c) => !c.optional);
  let widths = shrunkWidths(columns, width);
  const drops = columns
    .filter((c) => c.lastResort !== undefined)
    .sort((a, b) => a.lastResort! - b.lastResort!);
  for (const drop of drops) {
    if (totalWidth(widths) <= width) break;
    columns = columns.filter((c) => c !== drop);
    widths = shrunkWidths(columns, width);
  }
  return { columns, widths };
}

/** Indent of a stacked row's second line, under its key. */
const STACK_INDENT = '  ';

function drawLine(
  columns: readonly Column[],
  widths: readonly number[],
  cells: readonly string[],
  row: number | null,
): string {
  return cells
    .map((text, i) => {
      const c = columns[i]!;
      const w = widths[i]!;
      const fitted = cut(text, w);
      const padding = ' '.repeat(Math.max(0, w - fitted.length));
      const painted = row === null || c.paint === undefined || fitted === '' ? fitted : c.paint(fitted, row);
      return c.alignRight ? padding + painted : painted + padding;
    })
    .join(GAP)
    .trimEnd();
}

/**
 * The table fitted to `width` as lines, row by row (for a view that adds lines under a row).
 * When the kept columns do not fit beside what is left of the others, each row is stacked:
 * its kept cells whole on a line of their own (broken after a `-` only when wider than the
 * terminal), the other columns on the next line, indented.
 */
export function fitTable(all: readonly Column[], width: number): FittedTable {
  const flat = plan(all, width);
  const count = all[0]?.cells.length ?? 0;
  if (totalWidth(flat.widths) <= width || !flat.columns.some((c) => c.keep)) {
    const rows = Array.from({ length: count }, (_, r) => [
      drawLine(
        flat.columns,
        flat.widths,
        flat.columns.map((c) => c.cells[r]!),
        r,
      ),
    ]);
    return {
      head: [
        drawLine(
          flat.columns,
          flat.widths,
          flat.columns.map((c) => c.head),
          null,
        ),
      ],
      rows,
    };
  }
  const kept = flat.columns.filter((c) => c.keep);
  // The others get a line of their own: what was dropped to make room beside the key may come back.
  const rest = plan(
    all.filter((c) => !c.keep),
    width - STACK_INDENT.length,
  );
  const keyLine = (cells: readonly string[]) => pieces(cells.join(GAP), width);
  const restLine = (cells: readonly string[], row: number | null) => {
    const text = drawLine(rest.columns, rest.widths, cells, row);
    return text === '' ? [] : [STACK_INDENT + text];
  };
  return {
    head: [
      ...keyLine(kept.map((c) => c.head)),
      ...restLine(
        rest.columns.map((c) => c.head),
        null,
      ),
    ],
    rows: Array.from({ length: count }, (_, r) => [
      ...keyLine(kept.map((c) => c.cells[r]!)),
      ...restLine(
        rest.columns.map((c) => c.cells[r]!),
        r,
      ),
    ]),
  };
}

/** The table fitted to `width`, head and rows, each line ending in a newline. */
export function fitColumns(columns: readonly Column[], width: number): string {
  const { head, rows } = fitTable(columns, width);
  return `${[...head, ...rows.flat()].join('\n')}\n`;
}
