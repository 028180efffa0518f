/**
 * Exit codes of CONTRACT.md and the one table that maps errors to them.
 * Nothing else in the CLI decides an exit code.
 */
import { InvalidParameterError, NoCatalogMappingError, OracleError, UnknownProductError } from '../domain/errors.js';
import { IngestInterruptedError, InputError } from '../ingest/errors.js';

export const EXIT = {
  ok: 0,
  /** Runtime failure: database, network, upstream. */
  runtime: 1,
  /** Usage error or invalid argument; the message names the argument and its range. */
  usage: 2,
  /** Ingest finished but rejected more records than --max-rejects. */
  tooManyRejects: 3,
  /** Interrupted by Ctrl-C (128 + SIGINT, as shells report it); committed batches stay. */
  interrupted: 130,
} as const;

/** Thrown by commands for a usage error that is not a parameter of the engine (a bad flag value). */
export class UsageError extends OracleError {}

export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError || error instanceof InvalidParameterError) return EXIT.usage;
  if (error instanceof UnknownProductError || error instanceof NoCatalogMappingError) return EXIT.usage;
  // Unusable ingest input (empty, wrong kind, unknown columns, invalid UTF-8, broken CSV/JSON).
  if (error instanceof InputError) return EXIT.usage;
  if (error instanceof IngestInterruptedError) return EXIT.interrupted;
  return EXIT.runtime;
}
