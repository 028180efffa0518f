/**
 * From parsed CSV records to a sink: the first record is the header, which chooses and opens
 * the row format; every later record goes through its mapper. Shared by the pipeline and the
 * parse worker, so both read a file the same way, line numbers and rejects included.
 */
import type { CsvRowHandler } from '../../domain/csv.js';
import { InputError, OracleError } from '../../domain/errors.js';
import { MapperBugError } from '../errors.js';
import type { CanonicalRecord } from '../validate/record.js';
import { chooseCsvFormat } from './detect.js';
import {
  RowRejection,
  type FormatOptions,
  type RecordKind,
  type RecordSink,
  type RowFormat,
  type RowMapper,
} from './types.js';

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
export function csvRowHandler(
  options: CsvRowOptions,
  sink: CsvRowSink,
  onFormat: (format: RowFormat) => void,
): CsvRowHandler {
  const name = options.source;
  let header: string[] | null = null;
  let mapper: RowMapper | null = null;
  let formatName = '';
  return (fields, line) => {
    if (mapper === null) {
      header = fields;
      try {
        const format = chooseCsvFormat(fields, options.format, options.kind);
        formatName = format.name;
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
      if (!(error instanceof RowRejection)) throw mapperFailure(name, line, formatName, error);
      sink.rejectUnread(line, error.message, rowRecord(header as string[], fields));
    }
  };
}

/**
 * An error a row mapper threw that is no RowRejection: the OracleErrors it passes on
 * (a bad --observed-at), or a bug in the mapper, which stops the run naming the row rather
 * than passing for a bad row.
 */
export function mapperFailure(source: string, line: number, format: string, error: unknown): unknown {
  if (error instanceof OracleError) return error;
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new MapperBugError(
    `${source}:${line}: the ${format} format failed on this record (a bug in oracle, not in the file): ${what}`,
    { cause: error },
  );
}

/** A CSV row as a record for the rejects file: named cells, or the bare cells when the count is off. */
function rowRecord(header: readonly string[], fields: readonly string[]): unknown {
  if (header.length !== fields.length) return fields;
  const record: CanonicalRecord = {};
  header.forEach((name, i) => (record[name] = fields[i]));
  return record;
}
