/**
 * The store boundary: everything oracle keeps, behind one interface, whatever the database.
 * This module holds the interface alone (types, no code), so the dialects implement it
 * without importing what picks between them: ./sqlite/ (the default, a file path) and ./pg/
 * (a `postgres://` URL). `openStore(location)` (open-store.ts) is the one entry point; the
 * service and the ingest pipeline see only `Store`.
 *
 * What an implementation must guarantee (the CLI and HTTP suites hold both to it):
 * - Reads return Promises; values are plain objects the caller may keep (no live rows).
 *   Pricing reads (`pricePoints`, `pricePointSeries`) return each condition's points in time
 *   order, as price-points.ts documents, so the engine gives identical bundles on either.
 * - Orderings are part of the contract: the catalog by product_key (search: best match first,
 *   ties by product_key), `pageAfter` and `all` by row id, keys by (created_at, id),
 *   calibrations by (as_of, id).
 * - Idempotency by observation identity (CONTRACT.md): (source, external_id) when the record
 *   has an external id, otherwise (product, condition, observed_at, price, source). A record
 *   already stored, or twice in one batch, is a duplicate: never a second row, never an error.
 *   Ingesting the same file twice inserts nothing the second time, on any store.
 * - Transactions: an ingest batch (its products and observations, and the products'
 *   observation_count / earliest_observed_at) commits as one transaction or not at all; a
 *   reader never sees half a batch. `commit` resolves only once the batch is durable.
 * - `dataVersion()` is synchronous and cheap (the server reads it on every request): it must
 *   change after any other connection or process commits a write, within a second.
 * - Failures of the database itself (gone, locked, corrupt, unreachable) reject with
 *   DatabaseUnavailableError (DatabaseBusyError when a writer gave up waiting for the lock);
 *   anything else is a bug and passes through unchanged.
 */
import type { IdentityScheme } from '../domain/identity.js';
import type { CatalogEntry, Product } from '../domain/product.js';
import type { ConditionPoints, Observation, PricePoint } from '../domain/observation.js';
import type { DeliveryStatus, StoredWatchEvent, WatchDefinition, WatchRule } from '../domain/watch.js';
import type { IndexDefinition, PublishedIndexValue, StoredIndex } from '../domain/market-index.js';
import type { LockWait } from './lock-wait.js';

/** A product with its row id, which observation reads take. */
export interface StoredProduct extends Product {
  id: number;
  printing: string | null;
  language: string | null;
}

/** Which points to read, per priced condition (the engine's `pointsRequest` has this shape). */
export interface PricePointRange {
  /** Every point in [windowStart, asOf), */
  windowStart: number;
  asOf: number;
  /** the latest `depthPerCondition` in [lookbackStart, windowStart), */
  lookbackStart: number;
  depthPerCondition: number;
  /** and the latest `priorPerCondition` before lookbackStart. */
  priorPerCondition: number;
}

export interface ProductStore {
  findByKey(productKey: string): Promise<StoredProduct | undefined>;
  findByRefsourceId(refsourceId: string): Promise<StoredProduct | undefined>;
  /** Every product of a TCGplayer id (one per printing), oldest first. */
  findByTcgplayerId(tcgplayerId: string): Promise<StoredProduct[]>;
  /** The product an identity of the crosswalk names (domain/identity.ts), for every scheme. */
  findByIdentity(scheme: IdentityScheme, value: string): Promise<StoredProduct | undefined>;
  count(): Promise<number>;
  /** Up to `limit` products after row id `afterId`, by id: a cursor over the catalog in constant memory. */
  pageAfter(afterId: number, limit: number): Promise<StoredProduct[]>;
  /** Every product, by id (`oracle calibrate`). */
  all(): Promise<StoredProduct[]>;
  /**
   * Every product ordered by key or, with `search`, those matching every word of it (any
   * order, each word a prefix, across key, name, set and subtitle), best match first; at
   * most `limit` (-1: all).
   */
  catalog(search?: string, limit?: number): Promise<CatalogEntry[]>;
  /**
   * Up to `limit` products whose key sorts after `afterKey` (null: from the first), ordered by
   * key as catalog() is: a page of the catalog, read in time and memory of the page alone.
   */
  catalogPage(afterKey: string | null, limit: number): Promise<CatalogEntry[]>;
  /** SPEC.md 4.5's body (`{total, products}`) of the whole catalog as JSON text, equal to catalogBody(catalog()). */
  catalogJson(): Promise<string>;
  /** Keys of the products sharing the most (and rarest) words with `text`, best first: "did you mean" candidates. */
  keysLike(text: string, limit: number): Promise<string[]>;
  /**
   * Every word of the search index (key, name, set and subtitle as search splits and folds
   * them) with how many products hold it, in word order: what a misspelled search word is
   * corrected to (service/spelling.ts). A catalog of 300,000 products holds about 600,000 words:
   * the SQLite store reads them a page at a time, awaiting `pause` between two pages.
   */
  vocabulary(pause?: ReadPause): Promise<{ word: string; products: number }[]>;
  /**
   * The products with at least `minObservations` observations of `condition` in [from, to), by
   * id, each with that count (`oracle movers`' candidates): a range count per product over the
   * pricing index, so its cost follows the catalog, not the observations outside the range.
   */
  activeIn(condition: string, from: number, to: number, minObservations: number): Promise<ActiveProduct[]>;
}

/** A product and how many observations of a condition it has in a range. */
export interface ActiveProduct extends StoredProduct {
  observations: number;
}

/** What a point read carries beyond what pricing needs. */
export interface PointReadOptions {
  /**
   * Also read each point's observations.matched_by (PricePoint.matchedBy), for `oracle explain`.
   * Off for pricing: the column is not in the index, so reading it makes every point a table
   * seek, where pricing's read is index-only for sales.
   */
  matchedBy?: boolean;
}

export interface PricePointReader {
  /** The points of `range` for one product (the one read a bundle makes). */
  read(productId: number, range: PricePointRange, options?: PointReadOptions): Promise<PricePoint[]>;
  /**
   * The points of the product's extra grades (conditions/isExtraCondition: not in
   * PRICED_CONDITIONS, not ungraded, not a played raw card) in [range.lookbackStart,
   * range.asOf): the 30 days an extra grade is priced from (docs/methodology.md §13). One
   * statement, made only when extra grades are asked for.
   */
  readExtra(productId: number, range: PricePointRange, options?: PointReadOptions): Promise<PricePoint[]>;
}

export interface PricePointSeriesReader {
  /**
   * One read for a whole history (ranges of one pricing request at many instants): per priced
   * condition, as columns in time order, every point from the earliest range's lookback to
   * the latest range's asOf and the latest `priorPerCondition` before that. The engine slices
   * it per instant (engine/series.ts) into exactly what `read` gives each range. A store that
   * reads synchronously (SQLite) reads a page at a time and awaits `pause` between two.
   */
  readSeries(
    productId: number,
    ranges: readonly PricePointRange[],
    pause?: ReadPause,
  ): Promise<ConditionPoints[]>;
}

/** Awaited between two statements of a long read: the caller gives the event loop a turn there when its slice is up (service/turns.ts). */
export type ReadPause = () => Promise<void>;

export interface ApiKeyRecord {
  id: string;
  label: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface ApiKeyStore {
  create(id: string, label: string, secretHash: string, createdAt: number): Promise<void>;
  list(): Promise<ApiKeyRecord[]>;
  findByHash(secretHash: string): Promise<ApiKeyRecord | undefined>;
  /** False when no active key has this id. */
  revoke(id: string, at: number): Promise<boolean>;
  /** Writes last-used times, all in one transaction. */
  touch(uses: readonly (readonly [id: string, at: number])[]): Promise<void>;
}

export interface StoredCalibration {
  id: number;
  /** The instant the fit read observations before (epoch ms). */
  asOf: number;
  createdAt: number;
  /** The fitted tables, as `oracle calibrate` wrote them (JSON text). */
  body: string;
}

/** One reference exchange rate: `perEuro` units of `currency` bought one euro on `day` (YYYY-MM-DD). */
export interface FxRate {
  day: string;
  currency: string;
  perEuro: number;
  /** Who published it (`ecb`). */
  source: string;
}

/** The reference exchange rates (docs/methodology.md, "Currencies"). */
export interface RateStore {
  /** Adds rates in one transaction; a rate already stored for its currency and day is kept (a duplicate). */
  add(rates: readonly FxRate[]): Promise<{ inserted: number; duplicates: number }>;
  /** Every stored rate, by currency, then day. */
  all(): Promise<FxRate[]>;
}

export interface CalibrationStore {
  insert(asOf: number, createdAt: number, body: string): Promise<number>;
  /** The newest calibration fitted as of `at` or earlier (ties: the latest written), or null. */
  usableAt(at: number): Promise<StoredCalibration | null>;
  /** Every stored calibration, oldest `as_of` first (same `as_of`: in the order written). */
  all(): Promise<StoredCalibration[]>;
}

/**
 * One rule's state after a check: written only if the rule's `firing` is still `wasFiring`
 * (another check did not change it meanwhile), and then with `event`, in the same transaction
 * (the outbox: an event exists exactly when its rule's state turned on).
 */
export interface WatchStateChange {
  ruleId: number;
  wasFiring: boolean;
  firing: boolean;
  lastValue: number | null;
  /** The check's clock. */
  changedAt: number;
  event?: { id: string; createdAt: number; body: string; webhookUrl: string | null };
}

/** A delivery attempt's outcome: `error` null when the receiver answered 2xx. */
export interface DeliveryOutcome {
  attempts: number;
  at: number;
  error: string | null;
}

/** Market index definitions: added, never edited, so a name always means one index. */
export interface IndexStore {
  /** The stored index, or null when an index of this name exists already. */
  add(definition: IndexDefinition, createdAt: number): Promise<StoredIndex | null>;
  /** Every index, by name. */
  list(): Promise<StoredIndex[]>;
  byName(name: string): Promise<StoredIndex | undefined>;
  /**
   * The published values of an index from `from` to `to` (epoch ms, both included), by instant:
   * each instant's highest version not above `version` (no limit when undefined).
   */
  values(indexId: number, from: number, to: number, version?: number): Promise<PublishedIndexValue[]>;
  /** The highest version of any value of the index; 0 when none is published. */
  lastVersion(indexId: number): Promise<number>;
  /**
   * Stores these values, all or none. Values are never updated: a version stored already at an
   * instant is a conflict (an error), so two publishers cannot both write one version.
   */
  publish(indexId: number, values: readonly PublishedIndexValue[]): Promise<void>;
}

export interface WatchStore {
  add(rule: WatchDefinition, createdAt: number): Promise<WatchRule>;
  /** Every rule, by id. */
  rules(): Promise<WatchRule[]>;
  /** False when no rule has this id. Its events stay (a pending one is still delivered). */
  remove(id: number): Promise<boolean>;
  /** Applies the changes whose rule is still as read, all in one transaction; the ids of the events recorded. */
  record(changes: readonly WatchStateChange[]): Promise<string[]>;
  /** Events not delivered yet, oldest first. */
  pending(): Promise<StoredWatchEvent[]>;
  /** Adds a delivery's attempts to an event; with no error it is delivered. */
  delivery(id: string, outcome: DeliveryOutcome): Promise<void>;
  /** The latest `limit` events (of `status`, when given), newest first. */
  events(limit: number, status?: DeliveryStatus): Promise<StoredWatchEvent[]>;
}

export interface IngestCounts {
  read: number;
  inserted: number;
  duplicates: number;
  rejected: number;
}

export type IngestRunStatus = 'ok' | 'rejected' | 'failed' | 'interrupted';

export interface IngestRunStore {
  /** Records a run as `running`, naming this host and process; returns its id. */
  start(run: {
    source: string;
    kind: string;
    format: string;
    dryRun: boolean;
    startedAt: number;
  }): Promise<number>;
  finish(
    id: number,
    finishedAt: number,
    status: IngestRunStatus,
    counts: IngestCounts,
    error?: string | null,
  ): Promise<void>;
  /**
   * Marks `interrupted` the `running` runs whose process is gone (of this host and no longer
   * alive, or written before runs named their process); returns how many.
   */
  markInterrupted(): Promise<number>;
  /** The latest runs, newest first, as rows. */
  recent(limit: number): Promise<Record<string, unknown>[]>;
}

/** An observation whose product is resolved to its row id. */
export interface ResolvedObservation extends Observation {
  productId: number;
}

/** One resolved observation as the ingest writer stores it (IngestWriter.insert). */
export interface ObservationRow {
  productId: number;
  /** conditionKey(grader, grade). */
  condition: string;
  observedAt: number;
  priceMinor: number;
  source: string;
  grader: string;
  grade: number | null;
  /** '' when the record has none (the store's encoding). */
  externalId: string;
  /** How many sales a price guide's quote summarises; null or absent for a sale. Not part of the identity. */
  salesVolume?: number | null;
  /** How a listing that named no product was matched to this one (observations.matched_by); null when the record named it. */
  matchedBy?: string | null;
  /** The currency the source priced it in; absent: USD. Not part of the identity (price_minor is). */
  currency?: string;
  /** The amount in `currency`'s minor units, as the source gave it; null or absent for USD. */
  amountMinor?: number | null;
}

export interface InsertResult {
  inserted: number;
  duplicates: number;
}

/** Synchronous product lookups for resolving a run's records (see IngestWriter.products). */
export interface ProductLookup {
  findByKey(productKey: string): StoredProduct | undefined;
  findByRefsourceId(refsourceId: string): StoredProduct | undefined;
  findByTcgplayerId(tcgplayerId: string): StoredProduct[];
  /** The product an identity of the crosswalk names (domain/identity.ts), for every scheme. */
  findByIdentity(scheme: IdentityScheme, value: string): StoredProduct | undefined;
  /**
   * Every product whose name holds one of `words` as a whole word (the catalog's full-text
   * index, folded as it folds: case and diacritics), by id: the candidates of a title match.
   */
  productsNamed(words: readonly string[]): StoredProduct[];
}

/**
 * The ingest's writes, a batch at a time. Rows are handed in synchronously (a parser calls
 * `insert` per row, refilling one ObservationRow, so no object is built per row) and written when
 * the batch commits: an implementation may insert each at once into an open transaction
 * (SQLite) or buffer the batch for one bulk COPY (PostgreSQL). `commit` takes the batch as
 * it stands (rows handed in after it start the next one) and resolves with its outcome;
 * commits complete in the order they were asked for.
 */
export interface IngestWriter {
  /**
   * The catalog as this writer sees it: every product stored when it opened, and those it
   * upserted since. Synchronous, since a record is resolved while it is parsed; an
   * implementation may answer from memory it loaded on open.
   */
  readonly products: ProductLookup;
  /** Creates or updates products (by product_key) in the current batch. */
  upsertProducts(products: readonly Product[]): void;
  /**
   * One observation into the current batch; a dry run only counts what it would insert. The
   * row is read during the call only, so a caller may refill one object for every row.
   */
  insert(row: ObservationRow): void;
  /** Commits the batch (dry: counts it, writing nothing): how many of its observations were new. */
  commit(): Promise<InsertResult>;
  /** Drops the batch not yet committed. */
  rollback(): Promise<void>;
  /** Drops what is not committed and ends the writer. */
  close(): Promise<void>;
}

export interface IngestWriterOptions {
  /** Write nothing: `commit` counts what would be inserted, against the store and the run so far. */
  dryRun: boolean;
}

export interface Inventory {
  products: number;
  observations: number;
  /** Keys not revoked. */
  activeKeys: number;
}

export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  /** What `openStore` was given (for a URL, without its password): for messages. */
  readonly location: string;
  /**
   * What `openStore` was given, as given (a URL with its password): for opening the same
   * database again elsewhere (the ingest's parse worker), never for messages.
   */
  readonly address: string;
  readonly products: ProductStore;
  /** The bounded read pricing needs. */
  readonly pricePoints: PricePointReader;
  /** The same read for many instants of one product. */
  readonly pricePointSeries: PricePointSeriesReader;
  readonly apiKeys: ApiKeyStore;
  readonly ingestRuns: IngestRunStore;
  /** Fitted grader premiums and grade ratios (`oracle calibrate`). */
  readonly calibrations: CalibrationStore;
  /** Reference exchange rates (the ECB's). */
  readonly rates: RateStore;
  /** Watch rules and the outbox of their events (docs/alerts.md). */
  readonly watches: WatchStore;
  /** Market index definitions (docs/indexes.md). */
  readonly indexes: IndexStore;
  /**
   * SQLite: the file is read through a copy in memory taken at open (a WAL-mode file on a
   * read-only directory or mount, sqlite/read-only-copy.ts), so later changes to the file are
   * not seen through this store; the server opens the file again when it changes.
   */
  readonly inMemoryCopy?: boolean;
  /** Changes whenever another connection commits a write: the cue to drop cached bundles. Synchronous. */
  dataVersion(): number;
  /** What the store holds, in small reads (observations are counted per product on insert). */
  inventory(): Promise<Inventory>;
  /** Opens the ingest's writer; one at a time per store. */
  openIngest(options: IngestWriterOptions): Promise<IngestWriter>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /**
   * Create the database (or its schema in an empty one): ingest. Without it the store must
   * already hold oracle's schema; anything else is refused, unchanged.
   */
  create?: boolean;
  /** Read-only: the server's reads (nothing can change through this store, not even on close). */
  readonly?: boolean;
  /**
   * The caller writes (keys, calibrate, watch rules): a SQLite file this process may not write
   * is refused at open, naming it and the fix. Without it a command that only reads opens such
   * a file read-only.
   */
  write?: boolean;
  /**
   * Told what a user should know of how the database is read: a SQLite file on a read-only
   * directory or mount read through a copy in memory (sqlite/read-only-copy.ts).
   */
  notice?: (message: string) => void;
  /**
   * How a write waits for another writer (default: the busy timeout, then fail): an ingest
   * waits up to `maxWaitMs`, calling `onWait` once the first second has passed.
   */
  lockWait?: LockWait;
  /** How long a PostgreSQL store's calls may take (default: DEADLINE_DEFAULTS.command); SQLite ignores it. */
  deadlines?: DatabaseDeadlines;
}

/**
 * The deadlines of a PostgreSQL store (docs/deploy.md "Deadlines"): past one, the call fails
 * with DatabaseUnavailableError instead of waiting on a database that does not answer.
 */
export interface DatabaseDeadlines {
  /** A new connection, and a wait for a free one in the pool. */
  connectMs: number;
  /** One statement (PostgreSQL's statement_timeout, and the client's own wait a little longer); null: none. */
  statementMs: number | null;
}

/**
 * `serve`: every call bounded well inside the 2 s a load balancer is given to hear a 503 from a
 * replica whose database froze (below libpq's advice of a connect timeout of at least 2 s: a
 * replica far from its database over TLS raises it, docs/deploy.md "Deadlines"). `command`: a
 * one-shot command's statements (an ingest's batches, an export) run as long as their data
 * needs; only connecting is bounded, with room for a remote server's TLS and authentication.
 */
export const DEADLINE_DEFAULTS = {
  serve: { connectMs: 1_500, statementMs: 1_500 },
  command: { connectMs: 10_000, statementMs: null },
} as const satisfies Record<string, DatabaseDeadlines>;
