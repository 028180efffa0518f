/**
 * Plain-text columns fitted to a width: two spaces between columns, no borders (borders cost
 * columns an 80-column terminal does not have). A `dropWhenBlank` column with nothing in it is
 * left out. Optional columns are dropped when the table does not fit at its natural width,
 * then the shrinkable ones give up width (lowest `shrink` first) down to their `min`, cut with
 * "…"; should the table still not fit, the `lastResort` columns are dropped, in order. A `keep`
 * column (a key a user copies) is never cut: when nothing else is left to give way, its cells
 * wrap over as many lines as they need, broken after a `-` where one falls in the line.
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

function naturalWidth(c: Column): number {
  return Math.max(c.head.length, ...c.cells.map((s) => s.length));
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

const totalWidth = (widths: readonly number[]) => widths.reduce((a, b) => a + b, 0) + GAP.length * (widths.length - 1);

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

export function fitColumns(all: readonly Column[], width: number): string {
  let columns = all.filter((c) => !(c.dropWhenBlank && c.cells.every(isBlank)));
  if (totalWidth(columns.map(naturalWidth)) > width) columns = columns.filter((c) => !c.optional);
  let widths = shrunkWidths(columns, width);
  const drops = columns.filter((c) => c.lastResort !== undefined).sort((a, b) => a.lastResort! - b.lastResort!);
  for (const drop of drops) {
    if (totalWidth(widths) <= width) break;
    columns = columns.filter((c) => c !== drop);
    widths = shrunkWidths(columns, width);
  }
  // Only the kept columns are left to give way: they share what the others leave, and wrap.
  const kept = columns.flatMap((c, i) => (c.keep ? [i] : []));
  const excess = totalWidth(widths) - width;
  if (excess > 0 && kept.length > 0) {
    const room = widths.reduce((sum, w, i) => (kept.includes(i) ? sum + w : sum), 0) - excess;
    for (const i of kept) widths[i] = Math.max(columns[i]!.head.length, Math.floor(room / kept.length), 8);
  }
  const line = (cells: readonly string[], row: number | null) =>
    cells
      .map((text, i) => {
        const c = columns[i]!;
        const w = widths[i]!;
        const fitted = cut(text, w);
        const padding = ' '.repeat(w - fitted.length);
        const painted = row === null || c.paint === undefined || fitted === '' ? fitted : c.paint(fitted, row);
        return c.alignRight ? padding + painted : painted + padding;
      })
      .join(GAP)
      .trimEnd();
  const rows = [line(columns.map((c) => c.head), null)];
  for (let r = 0; r < (columns[0]?.cells.length ?? 0); r++) {
    const split = columns.map((c, i) => (c.keep ? pieces(c.cells[r]!, widths[i]!) : [c.cells[r]!]));
    const height = Math.max(...split.map((p) => p.length));
    for (let k = 0; k < height; k++) rows.push(line(split.map((p) => p[k] ?? ''), r));
  }
  return `${rows.join('\n')}\n`;
}
