/**
 * Exit codes of CONTRACT.md and the one table that maps errors to them.
 * Nothing else in the CLI decides an exit code, but for bin/oracle.js: 1 when the bundle
 * cannot be loaded, and `internal` (from here) when main never settled.
 */
import {
  InputError,
  InvalidParameterError,
  NoCatalogMappingError,
  OracleError,
  ProductChoiceError,
  UnknownProductError,
} from '../domain/errors.js';
import { GzipCorruptError, IngestInterruptedError, MapperBugError } from '../ingest/errors.js';

export const EXIT = {
  ok: 0,
  /** Runtime failure: database, network, upstream. */
  runtime: 1,
  /** Usage error or invalid argument; the message names the argument and its range. */
  usage: 2,
  /** Ingest finished but rejected more records than --max-rejects. */
  tooManyRejects: 3,
  /** A bug in oracle (EX_SOFTWARE of sysexits.h), e.g. a feed format's mapper that threw a TypeError. */
  internal: 70,
  /** Interrupted by Ctrl-C (128 + SIGINT, as shells report it); committed batches stay. */
  interrupted: 130,
  /** Stopped by SIGTERM (128 + 15), after committing like Ctrl-C. */
  terminated: 143,
  /** The reader of stdout went away (`oracle export | head`): 128 + SIGPIPE, as shells report a tool that SIGPIPE ended. */
  brokenPipe: 141,
} as const;

/**
 * The worst of two outcomes, for a command that goes on after a failure (ingest of several
 * sources): a runtime failure (1) beats unusable input (2), which beats too many rejects (3),
 * which beats success.
 */
export function worseExit(a: number, b: number): number {
  const rank = (code: number) => [EXIT.ok, EXIT.tooManyRejects, EXIT.usage, EXIT.runtime].indexOf(code as 0);
  return rank(b) > rank(a) ? b : a;
}

/** Thrown by commands for a usage error that is not a parameter of the engine (a bad flag value). */
export class UsageError extends OracleError {}

export function exitCodeFor(error: unknown): number {
  if (error instanceof MapperBugError) return EXIT.internal;
  if (error instanceof UsageError || error instanceof InvalidParameterError) return EXIT.usage;
  if (
    error instanceof UnknownProductError ||
    error instanceof NoCatalogMappingError ||
    error instanceof ProductChoiceError
  )
    return EXIT.usage;
  // Unusable ingest input (empty, wrong kind, unknown columns, invalid UTF-8, broken CSV/JSON, corrupt gzip).
  if (error instanceof InputError || error instanceof GzipCorruptError) return EXIT.usage;
  if (error instanceof IngestInterruptedError)
    return error.signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted;
  return EXIT.runtime;
}
