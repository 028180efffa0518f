/**
 * Errors of the ingest pipeline. A source that cannot be read at all is the domain's
 * SourceUnreadableError (exit 1); everything here names the source and the line.
 */
import { OracleError } from '../domain/errors.js';

/**
 * The input itself is unusable at a known place: empty, of an undetectable or wrong kind,
 * unknown columns, invalid UTF-8, a record over the length limit, broken CSV or JSON structure.
 * The message reads `<source>:<line>: <what>`.
 */
export class InputError extends OracleError {
  constructor(
    readonly source: string,
    readonly line: number,
    readonly what: string,
    options?: { cause?: unknown },
  ) {
    super(`${source}:${line}: ${what}`, options);
  }
}

/**
 * A feed format's mapper threw something other than a RowRejection: a bug, reported as one
 * (exit 1) instead of as a rejected record.
 */
export class MapperBugError extends OracleError {}

/** The run was interrupted (Ctrl-C); every batch read before the signal is committed. */
export class IngestInterruptedError extends OracleError {}

/** Longest record (CSV record, NDJSON line, JSON array element) accepted, in characters. */
export const MAX_RECORD_CHARS = 64 * 1024;

/** The error of a record over MAX_RECORD_CHARS: never buffer a runaway line. */
export function recordTooLong(source: string, line: number): InputError {
  return new InputError(
    source,
    line,
    `record is longer than ${MAX_RECORD_CHARS.toLocaleString('en-US')} characters (a missing line break or closing quote?)`,
  );
}
