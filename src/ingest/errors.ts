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
 * (exit 70, the run stops) instead of as a rejected record.
 */
export class MapperBugError extends OracleError {}

/**
 * A gzip stream failed its own checks (a bad deflate block, CRC-32 or length): none of its
 * text can be trusted, and the pipeline rolls back everything read from it.
 */
export class GzipCorruptError extends OracleError {}

/** The run was stopped by a signal (Ctrl-C, SIGTERM); what was read before it is committed (not of a gzip source). */
export class IngestInterruptedError extends OracleError {
  constructor(
    readonly signal: string,
    message: string,
  ) {
    super(message);
  }
}

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
