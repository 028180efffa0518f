/** The interface of a row format: how one parsed CSV row becomes canonical records. */
import type { CanonicalRecord } from '../validate/record.js';
import type { TcgcsvGroups } from './tcgcsv-groups.js';

/** The two kinds of record `oracle ingest` loads (CONTRACT.md). */
export type RecordKind = 'observations' | 'catalog';

/** One parsed CSV row: its fields and the physical line it starts on. */
export interface RawRow {
  readonly line: number;
  readonly fields: readonly string[];
}

/**
 * Where a mapper sends what it makes of a row. Records use CONTRACT.md's field names with
 * text or number values (empty text and null mean absent) and are validated by the same
 * zod schemas as canonical input; an invalid one is rejected with its line.
 */
export interface RecordSink {
  observation(record: CanonicalRecord): void;
  product(record: CanonicalRecord): void;
  /**
   * Counts `count` values of a row that are neither a record nor an error (a blank price, a
   * printing not taken): reported in the summary by `reason`, never rejected.
   */
  skip(reason: string, count?: number): void;
  /**
   * A date the file carries of its own (tcgcsv's `modifiedOn`), epoch ms, named by its field:
   * the run warns when the newest is more than STALE_FILE_MS before the time its quotes were
   * given without `--observed-at` (an old download about to be dated today).
   */
  fileDate?(at: number, field: string): void;
}

/** Options of `oracle ingest` a format may need, as the user typed them. */
export interface FormatOptions {
  /** The source's name for messages (path, URL or `stdin`). */
  readonly source: string;
  /** `--observed-at`, epoch ms, checked by the CLI (price guides carry no time of their own); undefined: `now`. */
  readonly observedAt: number | undefined;
  /** `--subtype`, unparsed. */
  readonly subtype: string | undefined;
  /** `--kind`, when given: a format making both kinds makes only this one. */
  readonly kind: RecordKind | undefined;
  /** The clock of the command, epoch ms: the default observation time of price guides. */
  readonly now: number;
  /** `--groups`, read: the tcgcsv groups a catalog of ProductsAndPrices.csv takes set names and dates from. */
  readonly tcgcsvGroups?: TcgcsvGroups;
}

/**
 * What a mapper throws for a row it cannot map (a malformed price, an id that is not digits):
 * the row is rejected with this message as its reason (name the column and the value) and
 * the run goes on. Any other error thrown by a mapper (a TypeError) is a bug in it: the run
 * stops with that error, never hiding it as a rejected row.
 */
export class RowRejection extends Error {
  override readonly name = 'RowRejection';
}

/** Turns one row into zero or more records; throws RowRejection to reject the row. */
export type RowMapper = (row: RawRow, out: RecordSink) => void;

export interface RowFormat {
  /** The `--format` value that selects it. */
  readonly name: string;
  /** The kinds of record it makes; `--kind` keeps one of them. */
  readonly kinds: readonly RecordKind[];
  /**
   * Observations whose product the catalog does not know are skipped and counted as
   * `unmapped`, not rejected: a feed covering a whole market names products nobody tracks.
   */
  readonly skipsUnmapped?: boolean;
  /**
   * Catalog records whose refsource_id the catalog already has update that product under its
   * stored product_key, instead of being rejected: a feed deriving keys from names would
   * otherwise give a product renamed upstream a second key. A record without `era` (the feed
   * cannot tell it) keeps the stored product's era; a new product without one is rejected.
   */
  readonly keepsProductKeys?: boolean;
  /** True when a CSV header (cells as written) is this format's; used when --format is not given. */
  detect?(header: readonly string[]): boolean;
  /**
   * Checks the header and prepares the mapper for one file (column indices computed once).
   * Throwing stops the run with exit 2: the message should name the missing or unknown columns.
   */
  open(header: readonly string[], options: FormatOptions): RowMapper;
}

/** Turns one parsed JSON value (an NDJSON line, an array element) into zero or more records; throws RowRejection to reject it. */
export type JsonMapper = (value: unknown, out: RecordSink) => void;

/**
 * A feed of JSON records (NDJSON or a JSON array, told apart as for canonical records):
 * each value goes through the mapper instead of being a canonical record itself.
 */
export interface JsonFormat {
  /** The `--format` value that selects it. */
  readonly name: string;
  /** The kinds of record it makes. */
  readonly kinds: readonly RecordKind[];
  /** What to tell a user whose file is no JSON records at all (its first line is no JSON). */
  readonly notJsonRecordsHint: string;
  /**
   * The records are the elements of the `results` array of one JSON object (a response
   * envelope, read by read/json-results.ts), not NDJSON or a bare array.
   */
  readonly envelope?: boolean;
  /** The keys whose array holds the records (default `results`); a file has one of them. */
  readonly resultsKeys?: readonly string[];
  /**
   * In place of `open` and `checkEnvelope`, for a format whose records need the envelope's
   * other keys (a file's own date): the mapper of one source, told each other key's value
   * (`onKey`, before the records when the file gives it first) and which array holds them.
   */
  openEnvelope?(options: FormatOptions): {
    map: JsonMapper;
    onKey(key: string, value: unknown, line: number): void;
    onArray(key: string, line: number): void;
  };
  /** The envelope's other keys (`success`, `errors`): throw an InputError to stop the run. */
  checkEnvelope?(key: string, value: unknown, source: string, line: number): void;
  /** As RowFormat.skipsUnmapped. */
  readonly skipsUnmapped?: boolean;
  /**
   * Its catalog records claim a crosswalk identity (Product.identities, first): one another
   * product already holds (mapped from another source) is skipped, counted `on a product of
   * another source (crosswalk)`, so the card stays one product.
   */
  readonly joinsCrosswalk?: boolean;
  /** Prepares the mapper for one source (options checked once). */
  open(options: FormatOptions): JsonMapper;
}
