/**
 * Errors of the ingest pipeline only. A source that cannot be read at all is the domain's
 * SourceUnreadableError (exit 1), unusable input at a known line the domain's InputError
 * (exit 2): the collection file of `oracle value` fails the same way.
 */
import { DatabaseUnavailableError, OracleError } from '../domain/errors.js';

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

/**
 * The database could not be written in the middle of an ingest: the disk is full, the file
 * passed a size limit, or the device failed (SQLite's SQLITE_FULL and SQLITE_IOERR). Reported
 * like the other stopping faults: the source, the line, what was committed, and that the same
 * command completes the ingest once there is room. It stops the remaining sources too.
 */
export class IngestStoppedError extends DatabaseUnavailableError {}

/** SQLite's verdict when `error` (or what it wraps) is a failed write: SQLITE_FULL or SQLITE_IOERR*. */
export function writeFailureOf(error: unknown): string | null {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^SQLITE_(FULL|IOERR)/.test(code)) return e.message;
  }
  return null;
}
