/**
 * A streaming reader of a response envelope: one JSON object whose `results` array holds the
 * records (`{"success": true, "errors": [], "results": [{...}, ...]}`, as tcgcsv serves
 * TCGplayer's prices, products and groups). The elements of `results` are cut out one at a
 * time by JsonArrayReader, so a large response is never held whole; every other key's value
 * (small: `success`, `errors`, `totalItems`) is parsed and handed to `onKey`, which may stop
 * the run (a response that says it failed).
 */
import { InputError, MAX_RECORD_CHARS, recordTooLong } from '../../domain/errors.js';
import { JsonArrayReader, scanValue } from './json-array.js';
import type { JsonRecordHandler } from './json-records.js';

type State = 'start' | 'key' | 'colon' | 'value' | 'results' | 'separator' | 'end';

const LF = 0x0a;

/** The key of the array of records. */
export const RESULTS_KEY = 'results';

export class JsonResultsReader {
  private rest = '';
  private line = 1;
  private state: State = 'start';
  private key = '';
  private inner: JsonArrayReader | null = null;
  private sawResults = false;
  /** The keys read so far: a key given twice is refused (JSON.parse would keep the last silently). */
  private readonly keys = new Set<string>();

  constructor(
    private readonly source: string,
    private readonly handler: JsonRecordHandler,
    private readonly onKey: (key: string, value: unknown, line: number) => void,
    /** The keys that may hold the array of records (a file has one of them), and what to tell when it starts. */
    private readonly resultsKeys: readonly string[] = [RESULTS_KEY],
    private readonly onArray?: (key: string, line: number) => void,
  ) {}

  /** The line reached, for messages. */
  get currentLine(): number {
    return this.inner?.currentLine ?? this.line;
  }

  push(chunk: string): void {
    if (this.inner !== null) {
      this.inner.push(chunk);
      if (!this.leaveResults()) return;
      chunk = this.inner === null ? this.takeAfterResults() : '';
    }
    this.parse(this.rest === '' ? chunk : this.rest + chunk);
  }

  end(): void {
    if (this.inner !== null) this.inner.end(); // throws: the array is not closed
    if (this.rest.trim() !== '') this.parse(this.rest);
    if (this.state !== 'end')
      throw new InputError(
        this.source,
        this.currentLine,
        'the JSON object is not closed with } (is the file truncated?)',
      );
    if (!this.sawResults)
      throw new InputError(
        this.source,
        this.line,
        `the JSON object has no ${this.resultsKeys.map((k) => `"${k}"`).join(' or ')} array of records`,
      );
  }

  private afterResults = '';

  /** When the inner array is closed: keeps the text after it and returns to this reader's states. */
  private leaveResults(): boolean {
    const inner = this.inner as JsonArrayReader;
    if (!inner.closed) return false;
    this.line = inner.currentLine;
    this.afterResults = inner.takeTrailing();
    this.inner = null;
    this.state = 'separator';
    return true;
  }

  private takeAfterResults(): string {
    const text = this.afterResults;
    this.afterResults = '';
    return text;
  }

  private parse(text: string): void {
    this.rest = '';
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
        if (c !== 0x7b)
          throw new InputError(this.source, this.line, 'expected a JSON object starting with {');
        this.state = 'key';
        i += 1;
      } else if (this.state === 'key') {
        if (c === 0x7d) {
          this.state = 'end';
          i += 1;
          continue;
        }
        if (c !== 0x22) throw new InputError(this.source, this.line, 'expected a key in double quotes');
        const scan = scanValue(text, i);
        if (scan === null) return this.keep(text, i);
        this.key = JSON.parse(text.slice(i, scan.end)) as string;
        if (this.keys.has(this.key)) {
          throw new InputError(
            this.source,
            this.line,
            `the key "${this.key}" is given twice in the response: which one is meant cannot be told, so nothing of it is read`,
          );
        }
        this.keys.add(this.key);
        this.state = 'colon';
        i = scan.end;
      } else if (this.state === 'colon') {
        if (c !== 0x3a)
          throw new InputError(this.source, this.line, `expected : after the key "${this.key}"`);
        this.state = 'value';
        i += 1;
      } else if (this.state === 'value') {
        if (this.resultsKeys.includes(this.key)) {
          if (c !== 0x5b)
            throw new InputError(this.source, this.line, `"${this.key}" must be an array of records`);
          if (this.sawResults)
            throw new InputError(
              this.source,
              this.line,
              `the file holds a second array of records, "${this.key}"`,
            );
          this.onArray?.(this.key, this.line);
          this.sawResults = true;
          this.state = 'results';
          this.inner = new JsonArrayReader(this.source, this.handler, MAX_RECORD_CHARS, { line: this.line });
          this.inner.push(text.slice(i));
          if (!this.leaveResults()) return;
          return this.parse(this.takeAfterResults());
        }
        const scan = scanValue(text, i);
        if (scan === null) return this.keep(text, i);
        let value: unknown;
        try {
          value = JSON.parse(text.slice(i, scan.end));
        } catch (error) {
          throw new InputError(
            this.source,
            this.line,
            `the value of "${this.key}" is not valid JSON: ${(error as Error).message}`,
          );
        }
        this.onKey(this.key, value, this.line);
        this.line += scan.newlines;
        this.state = 'separator';
        i = scan.end;
      } else if (this.state === 'separator') {
        if (c === 0x2c) this.state = 'key';
        else if (c === 0x7d) this.state = 'end';
        else throw new InputError(this.source, this.line, 'expected , or } between the keys of the object');
        i += 1;
      } else {
        throw new InputError(this.source, this.line, 'unexpected text after the closing } of the object');
      }
    }
  }

  /** Keeps the unfinished value from `from` for the next chunk. */
  private keep(text: string, from: number): void {
    if (text.length - from > MAX_RECORD_CHARS) throw recordTooLong(this.source, this.line);
    this.rest = text.slice(from);
  }
}
