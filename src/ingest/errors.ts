/**
 * Errors of the ingest pipeline only. A source that cannot be read at all is the domain's
 * SourceUnreadableError (exit 1), unusable input at a known line the domain's InputError
 * (exit 2): the collection file of `oracle value` fails the same way.
 */
import { OracleError } from '../domain/errors.js';

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
