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

/**
 * A snapshot was asked of something that cannot be a reference-source id. `product` is the
 * catalog product it is the key of (null: none), so that an adapter can say what to ask
 * instead; `day` is the snapshot's UTC day, `dayEnded` whether it was over at the request.
 */
export class NotARefsourceIdError extends InvalidParameterError {
  constructor(
    readonly given: string,
    readonly product: { productKey: string; refsourceId: string | null } | null,
    readonly day: { start: number; end: number },
    readonly dayEnded: boolean,
  ) {
    super('refsource_id', `${JSON.stringify(given)} is not a refsource id (1 to 20 digits)`);
  }
}

/**
 * A currency with no stored reference rate: `quoted` are the currencies the stored rates do
 * quote (EUR, the ECB's base, among them). An adapter may add how its user loads the rates.
 */
export class UnknownCurrencyError extends InvalidParameterError {
  constructor(
    readonly currency: string,
    readonly quoted: readonly string[],
  ) {
    super('currency', unknownCurrencyText(currency, quoted, 'docs/feeds.md#currencies'));
  }

  /** The message, with `howToLoad` (how the adapter's user loads the ECB's rates) in its parentheses. */
  describe(howToLoad: string): string {
    return unknownCurrencyText(this.currency, this.quoted, `${howToLoad}, docs/feeds.md#currencies`);
  }
}

function unknownCurrencyText(currency: string, quoted: readonly string[], where: string): string {
  return `currency ${currency}: no reference rate is stored for it; ingest the ECB's rates (${where}), which quote ${quoted.join(', ') || 'nothing yet'}`;
}

/** No market index has this name; `defined` are the names that exist. */
export class UnknownIndexError extends InvalidParameterError {
  constructor(
    readonly indexName: string,
    readonly defined: readonly string[],
  ) {
    super('name', unknownIndexText(indexName, defined, 'none is defined'));
  }

  /** The message, with `howToDefine` (the adapter's way to define one) when none is defined. */
  describe(howToDefine: string): string {
    return unknownIndexText(this.indexName, this.defined, `none is defined: ${howToDefine}`);
  }
}

function unknownIndexText(name: string, defined: readonly string[], none: string): string {
  return `no index named ${JSON.stringify(name)} (${defined.length === 0 ? none : `defined: ${defined.join(', ')}`})`;
}

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
 * The message ends with where the whole list is found; each adapter names its own search (`describe`).
 */
export class ProductChoiceError extends OracleError {
  constructor(
    readonly phrase: string,
    readonly candidates: readonly ProductChoice[],
    readonly total: number,
  ) {
    super(choiceText(phrase, candidates, total, 'a catalog search lists them'));
  }

  /** The message, with `listedBy` (how the adapter's user lists every match) after the keys. */
  describe(listedBy: string): string {
    return choiceText(this.phrase, this.candidates, this.total, listedBy);
  }
}

function choiceText(
  phrase: string,
  candidates: readonly ProductChoice[],
  total: number,
  listedBy: string,
): string {
  const shown = candidates.length < total ? `the first ${candidates.length}: ` : '';
  const keys = candidates.map((c) => c.product_key).join(', ');
  return `${JSON.stringify(phrase)} is no product_key and names ${total} products, not one: give one of their keys (${shown}${keys}; ${listedBy})`;
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
