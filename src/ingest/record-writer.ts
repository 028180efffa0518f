/**
 * Where records go: validated one by one with the zod schemas, collected into batches, and
 * written one batch per transaction (catalog records first, so a feed row's product exists
 * before its observations). Counts every outcome; rejects go to the --rejects file.
 */
import type { Product } from '../domain/product.js';
import type { Store } from '../store/store.js';
import type { ResolvedObservation } from '../store/store.js';
import type { NormalizedRecordSink } from './formats/canonical-csv.js';
import type { RecordKind } from './formats/types.js';
import {
  catalogRecordSchema,
  normalizeRecord,
  observationRecordSchema,
  rejectReason,
  toObservation,
  toProduct,
  type CanonicalRecord,
  type CatalogRecord,
  type ObservationRecord,
} from './records.js';
import type { RejectsWriter } from './rejects.js';
import { ProductResolver } from './resolve.js';

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

export interface RecordWriterOptions {
  source: string;
  dryRun: boolean;
  batchSize: number;
  /** Keep only this kind (records of the other kind are skipped, not counted). */
  only: RecordKind | undefined;
  rejects: RejectsWriter | null;
}

export class RecordWriter implements NormalizedRecordSink {
  readonly counts: RecordCounts = { read: 0, inserted: 0, updated: 0, duplicates: 0, rejected: 0, skipped: 0, skippedBy: {} };
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

  private observations: Pending<ObservationRecord>[] = [];
  private products: Pending<CatalogRecord>[] = [];
  private readonly resolver: ProductResolver;
  /** Products of this batch (of the whole run when dry), by key, and refsource_id owners. */
  private readonly batchProducts = new Map<string, Product>();
  private readonly batchRefsources = new Map<string, string>();
  /** Dedup keys a dry run has counted. */
  private readonly drySeen = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly options: RecordWriterOptions,
  ) {
    this.resolver = new ProductResolver(store.products);
  }

  observation(record: CanonicalRecord, normalized = false): void {
    if (this.options.only === 'catalog') return;
    this.kinds.add('observations');
    this.counts.read += 1;
    const result = observationRecordSchema.safeParse(normalized ? record : normalizeRecord(record));
    if (!result.success) return this.reject(this.line, rejectReason(result.error), record);
    this.observations.push({ line: this.line, record, value: result.data });
    if (this.observations.length + this.products.length >= this.options.batchSize) this.flush();
  }

  product(record: CanonicalRecord, normalized = false): void {
    if (this.options.only === 'observations') return;
    this.kinds.add('catalog');
    this.counts.read += 1;
    const result = catalogRecordSchema.safeParse(normalized ? record : normalizeRecord(record));
    if (!result.success) return this.reject(this.line, rejectReason(result.error), record);
    this.products.push({ line: this.line, record, value: result.data });
    if (this.observations.length + this.products.length >= this.options.batchSize) this.flush();
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

  /** Writes the pending batch in one transaction (or, dry, only counts it). */
  flush(): void {
    if (this.observations.length === 0 && this.products.length === 0) return;
    this.store.transaction(() => {
      this.writeProducts();
      this.writeObservations();
    });
    this.options.rejects?.flush();
  }

  private reject(line: number, reason: string, record: unknown): void {
    this.counts.rejected += 1;
    this.firstReject ??= { line, reason };
    this.options.rejects?.add({ source: this.options.source, line, reason, record });
  }

  private writeProducts(): void {
    if (this.products.length === 0) return;
    const changed: Product[] = [];
    for (const { line, record, value } of this.products) {
      let product = toProduct(value);
      const refsourceId = product.refsourceId;
      if (refsourceId !== null) {
        const owner = this.batchRefsources.get(refsourceId) ?? this.store.products.findByRefsourceId(refsourceId)?.productKey;
        if (owner !== undefined && owner !== product.productKey) {
          if (!this.keepStoredKeys) {
            this.reject(line, `refsource_id ${refsourceId} already belongs to product_key ${JSON.stringify(owner)}`, record);
            continue;
          }
          product = { ...product, productKey: owner }; // renamed upstream: keep the key scripts use
        }
        this.batchRefsources.set(refsourceId, product.productKey);
      }
      const key = product.productKey;
      const stored = this.batchProducts.get(key) ?? this.store.products.findByKey(key);
      if (stored === undefined) this.counts.inserted += 1;
      else if (sameProduct(stored, product)) {
        this.counts.duplicates += 1;
        continue;
      } else this.counts.updated += 1;
      this.batchProducts.set(key, { ...product, tcgplayerId: product.tcgplayerId ?? stored?.tcgplayerId ?? null });
      changed.push(product);
    }
    this.products = [];
    if (this.options.dryRun) {
      this.resolver.assume(changed);
      return;
    }
    this.store.products.upsertMany(changed);
    this.resolver.forget();
    this.batchProducts.clear();
    this.batchRefsources.clear();
  }

  private writeObservations(): void {
    if (this.observations.length === 0) return;
    const rows: ResolvedObservation[] = [];
    for (const { line, record, value } of this.observations) {
      const product = this.resolver.resolve(value);
      if (typeof product === 'string') {
        if (this.skipUnmapped) this.countSkipped('unmapped', 1);
        else this.reject(line, product, record);
      }
      else rows.push(toObservation(value, product));
    }
    this.observations = [];
    const result = this.options.dryRun
      ? this.store.observations.countNew(rows, this.drySeen)
      : this.store.observations.insertMany(rows);
    this.counts.inserted += result.inserted;
    this.counts.duplicates += result.duplicates;
  }
}

/** True when storing `next` would change nothing (a missing tcgplayer_id keeps the stored one). */
function sameProduct(stored: Product, next: Product): boolean {
  return (
    stored.refsourceId === next.refsourceId &&
    stored.productName === next.productName &&
    stored.subtitle === next.subtitle &&
    stored.setName === next.setName &&
    stored.imageUrl === next.imageUrl &&
    stored.productType === next.productType &&
    stored.era === next.era &&
    stored.releaseDate === next.releaseDate &&
    (next.tcgplayerId === null || stored.tcgplayerId === next.tcgplayerId)
  );
}
