/**
 * CSV as oracle reads and writes it (RFC 4180), for every part that does: ingest, the
 * collection file of `oracle value`, the CLI's CSV output and the sample generator.
 * The CLI's CSV output (export, `value --csv`, `history --csv`) goes through `csvOutputLine`,
 * which neutralises text a spreadsheet would evaluate as a formula.
 *
 * Reading is a streaming parser written for speed: quoted fields with "" escapes, commas
 * and line breaks inside quotes, CRLF, LF or CR line ends. Text arrives in chunks; an
 * incomplete record is kept (at most MAX_RECORD_CHARS) and parsed again with the next
 * chunk, so memory stays constant whatever the file size. Blank lines are skipped.
 */
import { InputError, MAX_RECORD_CHARS, recordTooLong } from './errors.js';

/** Receives each record's fields and the physical line it starts on. */
export type CsvRowHandler = (fields: string[], line: number) => void;

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

export class CsvParser {
  /** Unparsed text: the start of a record the last chunk did not complete. */
  private rest = '';
  /** Physical line on which `rest` starts. */
  private line = 1;

  constructor(
    private readonly source: string,
    private readonly onRow: CsvRowHandler,
    private readonly maxRecordChars = MAX_RECORD_CHARS,
  ) {}

  /** Parses every record `chunk` completes. */
  push(chunk: string): void {
    this.parse(this.rest === '' ? chunk : this.rest + chunk, false);
  }

  /** Parses what is left at the end of the input. */
  end(): void {
    if (this.rest !== '') this.parse(this.rest, true);
  }

  /** Physical line the parser has reached (where the next record starts). */
  get currentLine(): number {
    return this.line;
  }

  private parse(text: string, final: boolean): void {
    const n = text.length;
    const max = this.maxRecordChars;
    let pos = 0;
    let line = this.line;
    record: while (pos < n) {
      const fields: string[] = [];
      let newlines = 0; // line breaks inside quoted fields of this record
      let i = pos;
      for (;;) {
        if (i < n && text.charCodeAt(i) === QUOTE) {
          let value = '';
          let segment = i + 1;
          let j = segment;
          for (;;) {
            const q = text.indexOf('"', j);
            if (q === -1 || (q + 1 === n && !final)) {
              // Either no closing quote yet, or a quote at the chunk's end that may start "".
              if (final)
                throw new InputError(this.source, line, 'unterminated quoted field (a closing " is missing)');
              break record;
            }
            if (q + 1 < n && text.charCodeAt(q + 1) === QUOTE) {
              value += text.slice(segment, q + 1);
              j = segment = q + 2;
              continue;
            }
            value += text.slice(segment, q);
            newlines += countLf(text, i, q);
            i = q + 1;
            break;
          }
          fields.push(value);
          const c = i < n ? text.charCodeAt(i) : -1;
          if (c === COMMA) {
            i += 1;
            continue;
          }
          if (c === LF) {
            i += 1;
            break;
          }
          if (c === CR) {
            if (i + 1 < n) i += text.charCodeAt(i + 1) === LF ? 2 : 1;
            else if (final) i += 1;
            else break record;
            break;
          }
          if (c === -1) {
            if (final) break;
            break record;
          }
          throw new InputError(
            this.source,
            line + newlines,
            'unexpected character after a closing quote (quotes inside a field must be doubled)',
          );
        }
        let j = i;
        while (j < n) {
          const c = text.charCodeAt(j);
          if (c === COMMA || c === LF || c === CR) break;
          j += 1;
        }
        if (j === n && !final) break record;
        fields.push(text.slice(i, j));
        if (j === n) {
          i = j;
          break;
        }
        const c = text.charCodeAt(j);
        if (c === COMMA) {
          i = j + 1;
          continue;
        }
        if (c === LF) {
          i = j + 1;
          break;
        }
        if (j + 1 < n) i = text.charCodeAt(j + 1) === LF ? j + 2 : j + 1;
        else if (final) i = j + 1;
        else break record;
        break;
      }
      if (i - pos > max) throw recordTooLong(this.source, line);
      if (fields.length > 1 || fields[0] !== '') this.onRow(fields, line);
      line += newlines + 1;
      pos = i;
    }
    this.line = line;
    this.rest = pos < n ? text.slice(pos) : '';
    if (this.rest.length > max) throw recordTooLong(this.source, line);
  }
}

function countLf(text: string, from: number, to: number): number {
  let count = 0;
  let i = text.indexOf('\n', from);
  while (i !== -1 && i < to) {
    count += 1;
    i = text.indexOf('\n', i + 1);
  }
  return count;
}

const NEEDS_QUOTES = /[",\r\n]/;

/** A field as written in CSV: quoted, with doubled quotes, when it holds a comma, quote or line break. */
export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** One CSV line (without the line end) of raw values: a data file oracle reads back (the sample generator's). */
export function csvLine(values: readonly string[]): string {
  return values.map(csvField).join(',');
}

/**
 * A cell of a CSV a person may open in a spreadsheet: text (names, keys, dates), a number (cents,
 * counts), or nothing (null or undefined, an empty cell).
 */
export type CsvCell = string | number | null | undefined;

/**
 * First characters that make a spreadsheet evaluate a text cell as a formula (OWASP "CSV
 * Injection": `=`, `+`, `-`, `@`, tab, carriage return).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell made inert for a spreadsheet: one that starts like a formula gets a leading `'`,
 * as OWASP recommends, so Excel, LibreOffice and Google Sheets show it as text. Numbers are
 * written as they are (a negative gain stays `-500`): only text can carry a formula.
 */
export function inertCsvCell(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') return csvField(String(cell));
  return csvField(FORMULA_START.test(cell) ? `'${cell}` : cell);
}

/** One line (without the line end) of a CSV the CLI writes for people: every text cell inert. */
export function csvOutputLine(cells: readonly CsvCell[]): string {
  return cells.map(inertCsvCell).join(',');
}
