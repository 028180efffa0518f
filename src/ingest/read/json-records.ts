/** What the NDJSON and JSON-array readers hand on: one parsed value, or a record that is not JSON. */
export interface JsonRecordHandler {
  /** A parsed element or line, with the line it starts on. */
  value(value: unknown, line: number): void;
  /** An element or line that is not valid JSON: rejected, the run goes on. */
  invalid(line: number, reason: string, text: string): void;
}

/** Parses one record's text, handing the value or the parse error to `handler`. */
export function parseJsonRecord(text: string, line: number, handler: JsonRecordHandler): void {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    handler.invalid(line, `not valid JSON: ${(error as Error).message}`, text);
    return;
  }
  handler.value(value, line);
}
