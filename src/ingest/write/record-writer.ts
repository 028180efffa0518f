/**
 * Where records go. An observation is validated (canonical CSV cells by the fast checks,
 * anything else by the zod schema), resolved to its product and inserted at once into the
 * open transaction, so nothing but a few primitives outlives a row; the transaction is
 * committed every `batchSize` records (and by the pipeline about every second). Catalog
 * records are collected and written before the next observation, so a feed row's product
 * exists before its observations. Counts every outcome; rejects go to the --rejects file.
 */
import { futureObservationProblem } from '../../domain/observation.js';
import { toIsoUtc } from '../../domain/time.js';
import { convertMinor, type RateTable } from '../../engine/currency.js';
import { RATE_CARRY_DAYS } from '../../engine/methodology.js';
import type { Product } from '../../domain/product.js';
import type { IngestWriter, InsertResult } from '../../store/store.js';
import type { NormalizedRecordSink } from '../formats/canonical-csv.js';
import type { RecordKind } from '../formats/types.js';
import { catalogRecordSchema, toProduct, type CatalogRecord } from '../validate/catalog.js';
import { cellsRecord, readObservationCells, type ObservationColumns } from '../validate/observation-fast.js';
import { ObservationValues } from '../validate/observation-values.js';
import { checkObservation } from '../validate/observation.js';
import { ProductResolver, type Unresolved } from '../validate/product-resolver.js';
import { matchTitle } from '../validate/title-matcher.js';
import { normalizeRecord, rejectReason, type CanonicalRecord } from '../validate/record.js';
import { identityConflicts, sameProduct } from './product-identity.js';
import type { RejectsWriter } from './rejects-writer.js';

/** What a run did; read = inserted + updated + duplicates + rejected. */
export interface RecordCounts {
  read: number;
  inserted: number;
  /** Catalog records that changed a stored product. */
  updated: number;
  /** Records already stored (observations by idempotency key, products unchanged). */
  duplicates: number;
  rejected: number;
  /** Values a feed format skipped, and feed records of products not in the catalog, by reason. */
  skipped: number;
  skippedBy: Record<string, number>;
}

interface Pending<T> {
  line: number;
  record: CanonicalRecord;
  value: T;
}

/**
 * Catalog records kept pending before they are written into the open transaction: the identity
 * check sees them together, and memory stays flat whatever the catalog's size (pending until
 * the batch's end, every record and its parsed product stayed in memory: memory grew with the
 * catalog). Small enough that a chunk is written before V8's young generation has been
 * collected twice, so its records die young instead of filling the old generation
 * (bench/findings.md, 6b). Two records claiming one identity across a chunk boundary are
 * judged as across commits: the first is written, the second rejected as claiming a stored
 * product's identity.
 */
export const CATALOG_WRITE_CHUNK = 1_000;

export interface RecordWriterOptions {
  source: string;
  dryRun: boolean;
  /** Records per transaction. */
  batchSize: number;
  /** Keep only this kind (records of the other kind are skipped, not counted). */
  only: RecordKind | undefined;
  rejects: RejectsWriter | null;
  /** Epoch ms: what "the future" of an observation's date is measured from. */
  clock: () => number;
  /** The reference rates an observation in another currency than USD is converted to US cents with; null: none stored. */
  rates: RateTable | null;
}

/** The counts of a run before its first record. */
export function noCounts(): RecordCounts {
  return { read: 0, inserted: 0, updated: 0, duplicates: 0, rejected: 0, skipped: 0, skippedBy: {} };
}

export class RecordWriter implements NormalizedRecordSink {
  readonly counts: RecordCounts = noCounts();
  /** The first reject, for the one-line message of exit 3. */
  firstReject: { line: number; reason: string } | null = null;
  /** Kinds of the records seen. */
  readonly kinds = new Set<RecordKind>();
  /** Line of the record being handed in (set by the reader before each row or record). */
  line = 0;
  /** Skip (count as `unmapped`) rather than reject observations of unknown products (RowFormat.skipsUnmapped). */
  skipUnmapped = false;
  /** Update a product found by refsource_id under its stored key rather than reject it (RowFormat.keepsProductKeys). */
  keepStoredKeys = false;
  /**
   * A catalog record whose crosswalk identity another product already holds (JsonFormat.joinsCrosswalk)
   * is that product's, from another source: skipped, never a second product of the card.
   */
  joinCrosswalk = false;

  private products: Pending<CatalogRecord>[] = [];
  /** The row being written (one instance for the whole run). */
  private readonly values = new ObservationValues();
  /** Records handed to the writer since the last commit (their outcomes are counted once committed). */
  private uncommitted = 0;
  /** The commits asked for and not yet counted; the first failure among them. */
  private committing: Promise<void> = Promise.resolve();
  private commitFailure: { error: unknown } | null = null;
  private readonly resolver: ProductResolver;
  /**
   * A dry run's products, by key: it writes none, so each later record is judged against the
   * products the run would have written. A real run writes every chunk, so the store has them.
   */
  private readonly dryRunProducts = new Map<string, Product>();
  /**
   * The clock as last read: read again only for an observation that looks future, so a long
   * run (a live pipe) judges by the time it has reached, at no cost per row.
   */
  private now: number;
  /** While true, flush() writes into the open transaction but never commits it (see holdCommits). */
  private held = false;
  /**
   * The source is one response that is valid only whole (tcgcsv's envelope, which may say
   * `"success": false` after its results): commits are held to its end, and a bad line rolls
   * back everything read instead of keeping the records before it.
   */
  wholeSource = false;

  /** `writer` is the store's (opened with this run's dryRun), which this one closes. */
  constructor(
    private readonly writer: IngestWriter,
    private readonly options: RecordWriterOptions,
  ) {
    this.resolver = new ProductResolver(writer.products);
    this.now = options.clock();
  }

  observation(record: CanonicalRecord, normalized = false): void {
    if (this.options.only === 'catalog') return;
    this.kinds.add('observations');
    this.counts.read += 1;
    const invalid = checkObservation(record, this.values, normalized);
    if (invalid !== null) return this.reject(this.line, invalid, record);
    const future = this.future(this.values.observedAt);
    if (future !== null) return this.reject(this.line, future, record);
    if (this.latestObservedAt === null || this.values.observedAt > this.latestObservedAt)
      this.latestObservedAt = this.values.observedAt;
    const unconverted = this.toUsd(this.values);
    if (unconverted !== null) return this.reject(this.line, unconverted, record);
    const reason = this.write(this.values);
    if (reason !== null) this.unresolved(reason, record);
  }

  /**
   * Converts an observation priced in another currency than USD to US cents at the reference
   * rate of its day (docs/methodology.md §16), keeping its own amount; why not, or null.
   */
  private toUsd(v: ObservationValues): string | null {
    if (v.currency === 'USD') return null;
    const converted =
      this.options.rates === null
        ? null
        : convertMinor(this.options.rates, v.priceMinor, v.currency, 'USD', v.observedAt);
    if (converted === null) {
      return (
        `no reference rate for ${v.currency} on ${toIsoUtc(v.observedAt).slice(0, 10)} or the ${RATE_CARRY_DAYS} days before: ` +
        'ingest the ECB rates first (oracle ingest eurofxref-hist.csv, docs/feeds.md#currencies)'
      );
    }
    if (converted.amountMinor <= 0) return `${v.currency} ${v.priceMinor} is less than a US cent`;
    v.amountMinor = v.priceMinor;
    v.priceMinor = converted.amountMinor;
    return null;
  }

  /** A canonical CSV row of observation cells: the fast path, with the schema only for a row it refuses. */
  observationCells(fields: readonly string[], columns: ObservationColumns): void {
    if (this.options.only === 'catalog') return;
    if (!readObservationCells(fields, columns, this.values))
      return this.observation(cellsRecord(fields, columns), true);
    this.kinds.add('observations');
    this.counts.read += 1;
    const future = this.future(this.values.observedAt);
    if (future !== null) return this.reject(this.line, future, cellsRecord(fields, columns));
    const reason = this.write(this.values);
    if (reason !== null) this.unresolved(reason, cellsRecord(fields, columns));
  }

  /** Why an observation dated `observedAt` is refused as future, or null. */
  private future(observedAt: number): string | null {
    if (futureObservationProblem(observedAt, this.now) === null) return null;
    this.now = this.options.clock();
    return futureObservationProblem(observedAt, this.now);
  }

  product(record: CanonicalRecord, normalized = false): void {
    if (this.options.only === 'observations') return;
    this.kinds.add('catalog');
    this.counts.read += 1;
    const result = catalogRecordSchema.safeParse(normalized ? record : normalizeRecord(record));
    if (!result.success) return this.reject(this.line, rejectReason(result.error), record);
    this.products.push({ line: this.line, record, value: result.data });
    // Held (a gzip source): nothing is committed, but a batch of catalog records is still written.
    const pending = this.held ? this.products.length : this.uncommitted + this.products.length;
    if (pending >= this.options.batchSize) this.flush();
    else if (this.products.length >= CATALOG_WRITE_CHUNK) this.writeProducts();
  }

  /** The newest date the file gave of its own (RecordSink.fileDate), and the latest quote time written. */
  newestFileDate: { at: number; field: string } | null = null;
  latestObservedAt: number | null = null;

  fileDate(at: number, field: string): void {
    if (this.newestFileDate === null || at > this.newestFileDate.at) this.newestFileDate = { at, field };
  }

  /** Values of a row that are no record and no error (see RecordSink.skip): counted as read and skipped. */
  skip(reason: string, count = 1): void {
    this.counts.read += count;
    this.countSkipped(reason, count);
  }

  private countSkipped(reason: string, count: number): void {
    this.counts.skipped += count;
    this.counts.skippedBy[reason] = (this.counts.skippedBy[reason] ?? 0) + count;
  }

  /** A record (or row) that never became a record: counted as read and rejected. */
  rejectUnread(line: number, reason: string, record: unknown): void {
    this.counts.read += 1;
    this.reject(line, reason, record);
  }

  /**
   * Keeps everything from here on in one transaction, rejects included, until
   * releaseCommits(): for input whose integrity is known only at its end (gzip's checksum).
   */
  holdCommits(): void {
    this.held = true;
  }

  releaseCommits(): void {
    this.held = false;
  }

  /** Writes the pending catalog records and commits the open transaction (dry: only counts); held: only writes. */
  flush(): void {
    this.writeProducts();
    this.commitWritten();
  }

  /**
   * Commits what is written, keeping catalog records pending: they are written together (at
   * the end of the source, or every batchSize records) so that two records claiming one
   * identity are both seen before either is written.
   */
  commitWritten(): void {
    if (this.held) return;
    if (this.uncommitted > 0) this.track(this.writer.commit());
    this.uncommitted = 0;
    this.options.rejects?.flush();
  }

  /** Counts a commit's outcome once it is there, keeping the first failure for `settle`. */
  private track(commit: Promise<InsertResult>): void {
    const counted = commit.then(
      ({ inserted, duplicates }) => {
        this.counts.inserted += inserted;
        this.counts.duplicates += duplicates;
      },
      (error: unknown) => {
        this.commitFailure ??= { error };
      },
    );
    this.committing = this.committing.then(() => counted);
  }

  /** Waits for the commits asked for so far, and counts them; throws the first that failed. */
  async settle(): Promise<void> {
    await this.committing;
    if (this.commitFailure !== null) throw this.commitFailure.error;
  }

  /** Drops what is not committed (a database or source failure: the re-run completes it). */
  async abandon(): Promise<void> {
    this.products = [];
    this.uncommitted = 0;
    this.options.rejects?.discard();
    await this.committing;
    await this.writer.rollback();
  }

  /** Ends the writer; what is not flushed is rolled back. */
  async close(): Promise<void> {
    await this.committing;
    await this.writer.close();
  }

  /** Resolves and writes (dry: counts) one valid observation; why not when its product is unknown. */
  private write(v: ObservationValues): Unresolved | null {
    if (this.products.length > 0) this.writeProducts(); // a feed row's product comes first
    if (v.title !== undefined) {
      const matched = matchTitle(v.title, this.writer.products);
      if ('reason' in matched)
        return {
          reason: matched.reason,
          skip: matched.kind === 'ambiguous' ? 'ambiguous title' : 'unmatched title',
        };
      v.matchedBy = matched.matchedBy;
      this.keep(matched.product.id, v);
      return null;
    }
    const product = this.resolver.resolve(v);
    if ('reason' in product) return product;
    this.keep(product.id, v);
    return null;
  }

  /**
   * An observation validated and resolved elsewhere (the parse worker): counted as read and
   * written like any other.
   */
  resolvedObservation(productId: number, v: ObservationValues): void {
    this.kinds.add('observations');
    this.counts.read += 1;
    const unconverted = this.toUsd(v);
    if (unconverted !== null)
      return this.reject(this.line, unconverted, { currency: v.currency, price_minor: v.priceMinor });
    this.keep(productId, v);
  }

  /** Inserts (dry: counts) one resolved observation; commits every batchSize records. */
  private keep(productId: number, v: ObservationValues): void {
    v.productId = productId;
    this.writer.insert(v);
    this.uncommitted += 1;
    if (!this.held && this.uncommitted >= this.options.batchSize) this.flush();
  }

  /** An observation whose product the catalog lacks: skipped for feeds that cover a whole market, else rejected. */
  private unresolved(why: Unresolved, record: CanonicalRecord): void {
    if (this.skipUnmapped) this.countSkipped(why.skip, 1);
    else this.reject(this.line, why.reason, record);
  }

  private reject(line: number, reason: string, record: unknown): void {
    this.counts.rejected += 1;
    this.firstReject ??= { line, reason };
    this.options.rejects?.add({ source: this.options.source, line, reason, record });
  }

  /**
   * Writes the pending catalog records (dry: counts them). Two records that claim one
   * identity, the same refsource_id or the same (tcgplayer_id, printing), under two
   * product_keys, or one that claims the identity of a stored product it is not, are all
   * rejected with a reason naming both keys, and neither product changes.
   */
  private writeProducts(): void {
    if (this.products.length === 0) return;
    const pending = [];
    for (const p of this.products) {
      const product = this.keyedProduct(toProduct(p.value));
      if (this.keepStoredKeys && p.value.era === undefined) {
        // A feed that cannot tell the era leaves it out: keep the stored one, never guess one.
        const stored = this.writer.products.findByKey(product.productKey);
        if (stored === undefined) {
          this.reject(p.line, UNKNOWN_ERA, p.record);
          continue;
        }
        product.era = stored.era;
      }
      if (this.joinCrosswalk) {
        const held = product.identities?.[0];
        const owner = held && this.writer.products.findByIdentity(held.scheme, held.value);
        if (owner && owner.productKey !== product.productKey) {
          this.countSkipped('on a product of another source (crosswalk)', 1);
          continue;
        }
      }
      pending.push({ line: p.line, record: p.record, product });
    }
    this.products = [];
    // A real run's map lives only in this call. One kept on the writer and cleared every chunk
    // ended in V8's old generation, and every product later set in it was promoted there too
    // (its dead tables still referenced them): memory grew with the catalog until a full
    // collection (bench/findings.md, 6b).
    const written = this.options.dryRun ? this.dryRunProducts : new Map<string, Product>();
    /** A product as this run has it: written in this chunk (by a dry run: in this run), else stored. */
    const current = (key: string) => written.get(key) ?? this.writer.products.findByKey(key);
    const conflicts = identityConflicts(
      pending.map((p) => p.product),
      current,
      this.writer.products,
    );
    const changed: Product[] = [];
    for (const { line, record, product } of pending) {
      const conflict = conflicts.get(product.productKey);
      if (conflict !== undefined) {
        this.reject(line, conflict, record);
        continue;
      }
      const key = product.productKey;
      const stored = current(key);
      if (stored === undefined) this.counts.inserted += 1;
      else if (sameProduct(stored, product, this.writer.products)) {
        this.counts.duplicates += 1;
        continue;
      } else this.counts.updated += 1;
      written.set(key, asWritten(product, stored));
      changed.push(product);
    }
    if (this.options.dryRun) {
      this.resolver.assume(changed);
      return;
    }
    if (changed.length > 0) {
      this.writer.upsertProducts(changed); // in the observations' batch
      this.resolver.forget();
    }
    this.uncommitted += changed.length;
  }

  /**
   * The product under the key it is stored with: a feed deriving keys from names
   * (RowFormat.keepsProductKeys) keeps the key of the product holding its refsource_id, so a
   * product renamed upstream keeps the key scripts use. `product` is this record's own (toProduct).
   */
  private keyedProduct(product: Product): Product {
    if (!this.keepStoredKeys || product.refsourceId === null) return product;
    const owner = this.writer.products.findByRefsourceId(product.refsourceId)?.productKey;
    if (owner !== undefined) product.productKey = owner;
    return product;
  }
}

/**
 * The product as the store has it once `product` is written over `stored`. Spelled out field by
 * field: V8 promoted objects built as `{ ...product, more }` to its old generation, and with them
 * every record they referenced, so memory grew with the catalog until a full collection
 * (bench/findings.md, 6b). No object on this path is built that way.
 */
function asWritten(product: Product, stored: Product | undefined): Product {
  return {
    productKey: product.productKey,
    refsourceId: product.refsourceId,
    productName: product.productName,
    subtitle: product.subtitle,
    setName: product.setName,
    imageUrl: product.imageUrl,
    productType: product.productType,
    era: product.era,
    releaseDate: product.releaseDate,
    tcgplayerId: product.tcgplayerId ?? stored?.tcgplayerId ?? null,
    printing: product.printing ?? stored?.printing ?? null,
    language: product.language ?? null,
    identities: product.identities,
  };
}

const UNKNOWN_ERA =
  'release-date is empty, so the era (vintage before 2004, modern after) cannot be told: the product is not added; ' +
  'add it once with a catalog record that gives its era, and later runs keep that era';
