/**
 * What the terminal a view is written to allows: how many columns (the terminal's own, else
 * `COLUMNS`, else 80; none under `--wide`) and whether colour is on (NO_COLOR, `--no-color`,
 * FORCE_COLOR, a TTY), with the few ANSI codes the views use and the line wrapping that keeps
 * prose inside the width. Every table and view takes its width and palette from here.
 */

/** The parts of a stream and an environment read here (context.ts's Output and Env have them). */
type Output = { isTTY?: boolean; columns?: number };
type Env = Readonly<Record<string, string | undefined>>;

/** Columns assumed when stdout is no terminal and `COLUMNS` does not say: the classic terminal. */
export const DEFAULT_WIDTH = 80;

/** What a view may use: `width` columns (Infinity under `--wide`: nothing is cut or wrapped) and a palette. */
export interface Terminal {
  width: number;
  colour: Palette;
}

/** The global flags that shape the output (`--wide`, `--no-color`: commander's `color: false`). */
export interface DisplayFlags {
  wide?: boolean;
  color?: boolean;
}

/** A positive whole number of columns from `COLUMNS`, or undefined. */
function columnsVariable(env: Env): number | undefined {
  const text = env.COLUMNS?.trim() ?? '';
  return /^[1-9]\d{0,4}$/.test(text) ? Number(text) : undefined;
}

/**
 * The width of `out`: a terminal's own columns; for a pipe or a file, `COLUMNS` when it is a
 * positive number (a shell exports it, a user sets it for `| less`), else DEFAULT_WIDTH.
 */
export function outputWidth(out: Output, env: Env): number {
  if (out.isTTY && out.columns) return out.columns;
  return columnsVariable(env) ?? DEFAULT_WIDTH;
}

/**
 * Whether to write colour to `out`: never with `--no-color`; with FORCE_COLOR set (other than
 * `0` or `false`) always, as Node itself reads it; never with NO_COLOR set non-empty
 * (no-color.org); otherwise only on a terminal that is not `TERM=dumb`.
 */
export function colourOn(out: Output, env: Env, flags: DisplayFlags = {}): boolean {
  if (flags.color === false) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return out.isTTY === true && env.TERM !== 'dumb';
}

export function terminalOf(out: Output, env: Env, flags: DisplayFlags = {}): Terminal {
  return {
    width: flags.wide === true ? Infinity : outputWidth(out, env),
    colour: palette(colourOn(out, env, flags)),
  };
}

/**
 * The meanings colour carries, each the identity when colour is off so a view writes the same
 * characters either way: gains green, losses red, stale yellow, estimated and secondary text
 * dim, headings bold.
 */
export interface Palette {
  on: boolean;
  gain: (text: string) => string;
  loss: (text: string) => string;
  stale: (text: string) => string;
  dim: (text: string) => string;
  bold: (text: string) => string;
}

/** SGR codes: each style's own reset, so styles nest (dim inside a red cell). */
const sgr = (open: number, close: number) => (text: string) =>
  text === '' ? text : `\x1b[${open}m${text}\x1b[${close}m`;
const plain = (text: string) => text;

export function palette(on: boolean): Palette {
  if (!on) return { on, gain: plain, loss: plain, stale: plain, dim: plain, bold: plain };
  return { on, gain: sgr(32, 39), loss: sgr(31, 39), stale: sgr(33, 39), dim: sgr(2, 22), bold: sgr(1, 22) };
}

/** Colour by sign: `value` > 0 gain, < 0 loss, 0 or unknown as is. */
export function bySign(colour: Palette, value: number | null, text: string): string {
  if (value === null || value === 0) return text;
  return value > 0 ? colour.gain(text) : colour.loss(text);
}

const ANSI = /\x1b\[[0-9;]*m/g;

/** The columns `text` takes on a terminal: its characters less the colour codes. */
export function visibleLength(text: string): number {
  return text.replace(ANSI, '').length;
}

/**
 * The indent of a wrapped line's continuation: its own leading spaces, then past a label
 * (`window:      `, `12. `, `- `) so the continuation lines up under the text.
 */
function hangingIndent(line: string): number {
  const text = line.replace(ANSI, '');
  const label = /^(\s*)(?:[\w ]{1,14}:\s+|\d+\.\s+|[-*]\s+)/.exec(text);
  return label ? label[0].length : (/^\s*/.exec(text)?.[0].length ?? 0);
}

/**
 * `line` in lines of at most `width` columns, broken at spaces, each continuation indented
 * under the text (hangingIndent). A word longer than the room (a URL, a long key) is broken
 * only when it cannot fit on a line of its own.
 */
export function wrapLine(line: string, width: number): string[] {
  if (visibleLength(line) <= width) return [line];
  const indent = ' '.repeat(Math.min(hangingIndent(line), Math.floor(width / 2)));
  const lead = /^\s*/.exec(line)![0];
  const words = line.slice(lead.length).split(' ');
  const out: string[] = [];
  let current = lead;
  let empty = true;
  for (const word of words) {
    const joined = empty ? current + word : `${current} ${word}`;
    if (!empty && visibleLength(joined) > width) {
      out.push(current);
      current = indent + word;
    } else current = joined;
    empty = false;
    // A word wider than a line of its own (a URL, a long key): broken where the line ends.
    while (visibleLength(current) > width && !current.includes('\x1b')) {
      out.push(current.slice(0, width));
      current = indent + current.slice(width);
    }
  }
  out.push(current);
  return out;
}

/**
 * `parts` joined by `separator` in lines of at most `width` (`key | set | era`): a line breaks
 * between parts, never inside one, unless a part alone is wider than a line (wrapLine).
 */
export function joinWrapped(parts: readonly string[], separator: string, width: number): string[] {
  const lines: string[] = [];
  for (const part of parts) {
    const last = lines.at(-1);
    if (last !== undefined && visibleLength(last + separator + part) <= width)
      lines[lines.length - 1] = last + separator + part;
    else lines.push(part);
  }
  return lines.flatMap((line) => wrapLine(line, width));
}

/** Every line of `text` (its ending newline kept) wrapped to `width` (wrapLine). */
export function wrapText(text: string, width: number): string {
  if (width === Infinity) return text;
  const end = text.endsWith('\n') ? '\n' : '';
  return `${(end ? text.slice(0, -1) : text)
    .split('\n')
    .flatMap((line) => wrapLine(line, width))
    .join('\n')}${end}`;
}
