/**
 * The ONE table from errors to HTTP statuses and `{detail}` bodies (SPEC.md section 7,
 * CONTRACT.md decisions 1-5). Anything not in it is a 500 with a generic detail: its message
 * and stack go to the error log, never to the client.
 */
import {
  DatabaseUnavailableError,
  InvalidDateError,
  InvalidParameterError,
  NoCatalogMappingError,
  OracleError,
  UnknownProductError,
  UpstreamNotConfiguredError,
  UpstreamUnavailableError,
} from '../domain/errors.js';

/** No key, or a key that is unknown or revoked. */
export class UnauthorizedError extends OracleError {}

/** A valid key used with a method other than GET or HEAD. */
export class ReadOnlyError extends OracleError {}

/** The request itself is malformed (e.g. HTTP/1.1 without a Host header). */
export class MalformedRequestError extends OracleError {}

/** The server runs but cannot serve yet (readiness): no API key exists. */
export class NotReadyError extends OracleError {}

/** No route has this path. */
export class RouteNotFoundError extends OracleError {}

/** The key's token bucket is empty; `retryAfterSeconds` until the next token. */
export class RateLimitedError extends OracleError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate limit exceeded: back off and retry later');
  }
}

export interface HttpFailure {
  status: number;
  detail: string;
}

type ErrorClass = abstract new (...args: never[]) => Error;

/** First match wins: subclasses come before their parents. A 5xx is also logged with its cause. */
const TABLE: readonly [ErrorClass, number, ((error: Error) => string)?][] = [
  [MalformedRequestError, 400],
  [UnauthorizedError, 401],
  [ReadOnlyError, 403],
  [RouteNotFoundError, 404],
  [RateLimitedError, 429],
  [InvalidDateError, 422],
  [InvalidParameterError, 400],
  [UnknownProductError, 400],
  [NoCatalogMappingError, 400],
  [UpstreamUnavailableError, 502],
  // The server's operator fixes it with a flag of `oracle serve`: the edge names them.
  [UpstreamNotConfiguredError, 503, (error) => `${error.message} (it needs --refsource-url or --offline)`],
  [NotReadyError, 503],
  // The message names the file path: the operator reads it in the error log, the client gets the reason.
  [
    DatabaseUnavailableError,
    503,
    (error) => `database unavailable: ${(error as DatabaseUnavailableError).reason}`,
  ],
];

export const INTERNAL_ERROR_DETAIL = 'internal error';

export function httpFailure(error: unknown): HttpFailure {
  for (const [type, status, detail] of TABLE) {
    if (error instanceof type) return { status, detail: detail ? detail(error) : error.message };
  }
  return { status: 500, detail: INTERNAL_ERROR_DETAIL };
}
