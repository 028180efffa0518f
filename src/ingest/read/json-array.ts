/**
 * A streaming reader of one JSON array of records (`[{...}, {...}]`): each element is cut
 * out by a small scanner (strings, escapes, nesting) and parsed on its own, so a 2 GB
 * array is never held whole. An element that is not valid JSON is a rejected record;
 * a broken array structure (no `[`, a comma before `]`, text after `]`, no closing `]`)
 * stops the run, keeping the records before it.
 *
 * Not stream-json: its tokenizer, in JavaScript, made the ingest of a JSON array measurably
 * slower than this scanner with the native JSON.parse per element (bench/findings.md, "JSON
 * array reader"), gives no line numbers for rejects, and cannot go on after a bad element.
 */
import { InputError, MAX_RECORD_CHARS, recordTooLong } from '../../domain/errors.js';
import { parseJsonRecord, type JsonRecordHandler } from './json-records.js';

/** Where the scanner is: before `[`, before the first element or `]`, after a comma, after an element, after `]`. */
type State = 'start' | 'first' | 'element' | 'separator' | 'end';

const LF = 0x0a;

export class JsonArrayReader {
  private rest = '';
  private line = 1;
  private state: State = 'start';
  /** Embedded: the text after the closing `]`, for the reader of the enclosing value (takeTrailing). */
  private trailing = '';

  /**
   * `embedded`: the array is a value inside a larger document (tcgcsv's `results`), which goes
   * on after its `]`: that text is kept for takeTrailing() instead of being an error; `line`
   * is the line the array starts on.
   */
  constructor(
    private readonly source: string,
    private readonly handler: JsonRecordHandler,
    private readonly maxRecordChars = MAX_RECORD_CHARS,
    private readonly embedded: { line: number } | null = null,
  ) {
    if (embedded !== null) this.line = embedded.line;
  }

  /** True once the closing `]` was read. */
  get closed(): boolean {
    return this.state === 'end';
  }

  /** The line reached. */
  get currentLine(): number {
    return this.line;
  }

  /** The text read after the closing `]` (embedded arrays only), handed over once. */
  takeTrailing(): string {
    const text = this.trailing;
    this.trailing = '';
    return text;
  }

  push(chunk: string): void {
    this.parse(this.rest === '' ? chunk : this.rest + chunk, false);
  }

  end(): void {
    this.parse(this.rest, true);
    if (this.state !== 'end') {
      throw new InputError(
        this.source,
        this.line,
        'the JSON array is not closed with ] (is the file truncated?)',
      );
    }
  }

  private parse(text: string, final: boolean): void {
    const n = text.length;
    let i = 0;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === LF) {
        this.line += 1;
        i += 1;
        continue;
      }
      if (c === 0x20 || c === 0x09 || c === 0x0d) {
        i += 1;
        continue;
      }
      if (this.state === 'start') {
        if (c !== 0x5b)
          throw new InputError(this.source, this.line, 'expected a JSON array of records starting with [');
        this.state = 'first';
        i += 1;
      } else if (this.state === 'separator') {
        if (c === 0x2c) this.state = 'element';
        else if (c === 0x5d) this.state = 'end';
        else throw new InputError(this.source, this.line, 'expected , or ] between array elements');
        i += 1;
      } else if (this.state === 'end') {
        if (this.embedded !== null) {
          this.trailing += text.slice(i);
          break;
        }
        throw new InputError(this.source, this.line, 'unexpected text after the closing ] of the array');
      } else if (c === 0x5d) {
        // `]` where an element may start: the empty array, or after a comma, which JSON forbids.
        if (this.state === 'element') {
          throw new InputError(
            this.source,
            this.line,
            'a comma before the closing ] is not JSON: remove the comma after the last element',
          );
        }
        this.state = 'end';
        i += 1;
      } else {
        const scan = scanValue(text, i);
        if (scan === null) {
          if (n - i > this.maxRecordChars) throw recordTooLong(this.source, this.line);
          if (final) break;
          this.rest = text.slice(i);
          return;
        }
        if (scan.end - i > this.maxRecordChars) throw recordTooLong(this.source, this.line);
        parseJsonRecord(text.slice(i, scan.end), this.line, this.handler);
        this.line += scan.newlines;
        this.state = 'separator';
        i = scan.end;
      }
    }
    this.rest = '';
  }
}

/**
 * The end of the JSON value starting at `from` (exclusive) and the line breaks inside it;
 * null when the text ends first. Validity is left to JSON.parse.
 */
export function scanValue(text: string, from: number): { end: number; newlines: number } | null {
  const n = text.length;
  let depth = 0;
  let newlines = 0;
  for (let i = from; i < n; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote, stepping over escapes.
      for (i += 1; i < n; i += 1) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i += 1;
        else if (s === 0x22) break;
        else if (s === LF) newlines += 1;
      }
      if (i >= n) return null;
      if (depth === 0) return { end: i + 1, newlines };
    } else if (c === 0x7b || c === 0x5b) depth += 1;
    else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) return { end: i, newlines }; // the array's own `]` ends a bare value
      depth -= 1;
      if (depth === 0) return { end: i + 1, newlines };
    } else if (c === 0x2c && depth === 0) return { end: i, newlines };
    else if (c === LF) newlines += 1;
  }
  return null;
}
