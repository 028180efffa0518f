/**
 * Errors named for what went wrong. Each edge (CLI exit codes, HTTP statuses) maps
 * them in one table; nothing else decides a status. `cause` is always kept.
 */

export class OracleError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A request parameter is missing, malformed or out of range; the message names it and its range. */
export class InvalidParameterError extends OracleError {
  constructor(
    readonly parameter: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A snapshot date is malformed or in the future. */
export class InvalidDateError extends InvalidParameterError {}

/** No catalog product has this product key; `suggestions` are close keys that exist ("did you mean"). */
export class UnknownProductError extends OracleError {
  constructor(
    readonly productKey: string,
    readonly suggestions: readonly string[] = [],
  ) {
    super(
      `unknown product_key ${JSON.stringify(productKey)}` +
        (suggestions.length > 0
          ? ` (did you mean ${suggestions.map((k) => JSON.stringify(k)).join(', ')}?)`
          : ''),
    );
  }
}

/** A product as a list of candidates shows it: the key to copy, and what it is. */
export interface ProductChoice {
  product_key: string;
  product_name: string;
  /** `4/102 Holo`, `4/102 1st Edition`: what tells apart cards of one name in one set. */
  subtitle: string;
  set_name: string;
  /** The printing when not the regular one (`1st Edition Holofoil`), which tells same-named products apart. */
  printing: string | null;
}

/**
 * A name or search phrase given where one product is meant (`oracle price charizard`) matches
 * several products: `candidates` are the first of them, best match first, `total` how many.
 */
export class ProductChoiceError extends OracleError {
  constructor(
    readonly phrase: string,
    readonly candidates: readonly ProductChoice[],
    readonly total: number,
  ) {
    const shown = candidates.length < total ? `the first ${candidates.length}: ` : '';
    super(
      `${JSON.stringify(phrase)} is no product_key and names ${total} products, not one: give one of their keys (${shown}${candidates.map((c) => c.product_key).join(', ')}; oracle catalog --search lists them)`,
    );
  }
}

/** No catalog product maps this reference-source id. */
export class NoCatalogMappingError extends OracleError {
  constructor(readonly refsourceId: string) {
    super(`no catalog mapping for refsource id ${JSON.stringify(refsourceId)}`);
  }
}

/** The upstream reference source failed (5xx, timeout, network) and no local mapping could stand in. */
export class UpstreamUnavailableError extends OracleError {}

/** The server has no upstream reference source configured and is not in offline mode. */
export class UpstreamNotConfiguredError extends OracleError {}

/**
 * The SQLite file is missing, empty, not oracle's, locked past the busy timeout, or corrupt.
 * The message names the file (for the operator); `reason` does not (it is shown to API clients).
 */
export class DatabaseUnavailableError extends OracleError {
  readonly reason: string;
  /** What fixes it, when that is not loading data or naming another database (a newer oracle's file: upgrading). */
  readonly remedy: string | undefined;
  constructor(message: string, options?: { cause?: unknown; reason?: string; remedy?: string }) {
    super(message, options);
    this.reason = options?.reason ?? 'try again later';
    this.remedy = options?.remedy;
  }
}

/** Another writer held SQLite's write lock longer than this one would wait. */
export class DatabaseBusyError extends DatabaseUnavailableError {}

/** An input source (file, stdin, URL) cannot be read; the message names it. */
export class SourceUnreadableError extends OracleError {}

/**
 * An input file is unusable at a known place: empty, of an undetectable or wrong kind,
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
