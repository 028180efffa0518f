/**
 * Streaming NDJSON (JSON Lines): one JSON value per line, blank lines skipped, CRLF
 * accepted. A line that is not JSON is a rejected record; a line over MAX_RECORD_CHARS
 * stops the run (it is a broken file, not a record).
 */
import { MAX_RECORD_CHARS, recordTooLong } from '../../domain/errors.js';
import { parseJsonRecord, type JsonRecordHandler } from './json-records.js';

export class NdjsonReader {
  private rest = '';
  private line = 1;

  constructor(
    private readonly source: string,
    private readonly handler: JsonRecordHandler,
    private readonly maxRecordChars = MAX_RECORD_CHARS,
  ) {}

  push(chunk: string): void {
    const text = this.rest === '' ? chunk : this.rest + chunk;
    let pos = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', pos)) {
      this.handle(text, pos, nl);
      pos = nl + 1;
      this.line += 1;
    }
    this.rest = text.slice(pos);
    if (this.rest.length > this.maxRecordChars) throw recordTooLong(this.source, this.line);
  }

  end(): void {
    if (this.rest !== '') this.handle(this.rest, 0, this.rest.length);
    this.rest = '';
  }

  private handle(text: string, from: number, to: number): void {
    if (to - from > this.maxRecordChars) throw recordTooLong(this.source, this.line);
    const record = text.slice(from, to).trim();
    if (record !== '') parseJsonRecord(record, this.line, this.handler);
  }
}
