/**
 * From parsed CSV records to a sink: the first record is the header, which chooses and opens
 * the row format; every later record goes through its mapper. Shared by the pipeline and the
 * parse worker, so both read a file the same way, line numbers and rejects included.
 */
import { OracleError } from '../domain/errors.js';
import type { CsvRowHandler } from './csv-parser.js';
import { chooseCsvFormat } from './detect.js';
import { InputError } from './errors.js';
import type { FormatOptions, RecordKind, RecordSink, RowFormat, RowMapper } from './formats/types.js';
import type { CanonicalRecord } from './records.js';

/** Where rows go: records, and rows that are no record at all. */
export interface CsvRowSink extends RecordSink {
  /** Line of the row being handed in. */
  line: number;
  rejectUnread(line: number, reason: string, record: unknown): void;
}

export interface CsvRowOptions extends Omit<FormatOptions, 'kind'> {
  format: string | undefined;
  kind: RecordKind | undefined;
}

/** The handler of a CSV source's records; `onFormat` hears the format the header chose. */
export function csvRowHandler(options: CsvRowOptions, sink: CsvRowSink, onFormat: (format: RowFormat) => void): CsvRowHandler {
  const name = options.source;
  let header: string[] | null = null;
  let mapper: RowMapper | null = null;
  return (fields, line) => {
    if (mapper === null) {
      header = fields;
      try {
        const format = chooseCsvFormat(fields, options.format, options.kind);
        mapper = format.open(fields, options);
        onFormat(format);
      } catch (error) {
        if (error instanceof OracleError) throw error;
        throw new InputError(name, line, (error as Error).message, { cause: error });
      }
      return;
    }
    sink.line = line;
    try {
      mapper({ line, fields }, sink);
    } catch (error) {
      if (error instanceof OracleError) throw error;
      sink.rejectUnread(line, (error as Error).message, rowRecord(header as string[], fields));
    }
  };
}

/** A CSV row as a record for the rejects file: named cells, or the bare cells when the count is off. */
function rowRecord(header: readonly string[], fields: readonly string[]): unknown {
  if (header.length !== fields.length) return fields;
  const record: CanonicalRecord = {};
  header.forEach((name, i) => (record[name] = fields[i]));
  return record;
}
