/**
 * The ingest's writer on PostgreSQL (IngestWriter, ../store.ts), on a connection of its own.
 *
 * Rows are handed in synchronously and written as COPY text into a temporary staging table,
 * in chunks, as they come; every statement runs in order on one promise chain, and `drain`
 * waits for it, so a fast parser is held to the connection's pace (constant memory). A commit
 * ends the COPY, takes the ingest's writer lock (write-lock.ts: concurrent ingests' commits
 * take turns), upserts the batch's products, moves the staged rows into observations with
 * one INSERT ... ON CONFLICT DO NOTHING (the two unique indexes are the identity of
 * CONTRACT.md, as in SQLite: a row stored before, or given twice, is skipped), adds what was
 * inserted to the products' counts and earliest times in the same statement, bumps the data
 * version (NOTIFY at commit) and commits.
 *
 * Product lookups are synchronous: the catalog is read into memory on open, and products
 * upserted since are kept there. A product new to the database gets a provisional negative
 * id until its batch commits; the commit records which real id each provisional one became
 * (a session table), and the staged rows are mapped through it.
 *
 * A dry run stages and counts the same way, and writes nothing: a staged row is new when no
 * stored row has its identity and the run has not counted it before (a session table of the
 * identities counted).
 */
import { from as copyFrom, type CopyStreamQuery } from 'pg-copy-streams';
import { tcgplayerIdentity, type IdentityScheme, type ProductIdentity } from '../../domain/identity.js';
import { samePrinting } from '../../domain/printing.js';
import type { Product } from '../../domain/product.js';
import type { LockWait } from '../lock-wait.js';
import { PRODUCT_COLUMNS, toProduct, type ProductRow } from '../product-rows.js';
import type {
  InsertResult,
  IngestWriter,
  IngestWriterOptions,
  ProductLookup,
  StoredProduct,
} from '../store.js';
import { toPgDatabaseError, type PgClient, type PgPool } from './connection.js';
import { BUMPS_VERSION, bumpDataVersion } from './data-version.js';
import { upsertProducts } from './products.js';
import { tokenize } from './search.js';
import { takeWriteLock } from './write-lock.js';

const COLUMNS =
  'product_id, condition, observed_at, price_minor, source, grader, grade, external_id, sales_volume, matched_by, currency, amount_minor';

const SESSION_TABLES = [
  `CREATE TEMP TABLE IF NOT EXISTS observations_staging (
     product_id integer NOT NULL, condition text NOT NULL, observed_at bigint NOT NULL, price_minor bigint NOT NULL,
     source text NOT NULL, grader text NOT NULL, grade double precision, external_id text NOT NULL, sales_volume integer, matched_by text,
     currency text NOT NULL, amount_minor bigint
   ) ON COMMIT DELETE ROWS`,
  'CREATE TEMP TABLE IF NOT EXISTS provisional_products (provisional integer PRIMARY KEY, id integer NOT NULL)',
  'CREATE TEMP TABLE IF NOT EXISTS dry_run_seen (identity text PRIMARY KEY)',
];

/**
 * Staged rows with their products' real ids. A sequential scan of the staging table, emptied
 * at every commit, returns the rows in the order they came, so ids follow the input as in
 * SQLite; only provisional (negative) ids are looked up.
 */
const STAGED = `SELECT CASE WHEN s.product_id < 0 THEN (SELECT m.id FROM provisional_products m WHERE m.provisional = s.product_id)
      ELSE s.product_id END,
    s.condition, s.observed_at, s.price_minor, s.source, s.grader, s.grade, s.external_id, s.sales_volume, s.matched_by,
    s.currency, s.amount_minor
  FROM observations_staging s`;

const MERGE = `WITH inserted AS (
    INSERT INTO observations (${COLUMNS}) ${STAGED}
    ON CONFLICT DO NOTHING
    RETURNING product_id, observed_at
  ), per_product AS (
    SELECT product_id, count(*) AS n, min(observed_at) AS earliest FROM inserted GROUP BY product_id
  ), bumped AS (
    UPDATE products p SET observation_count = p.observation_count + a.n,
      earliest_observed_at = LEAST(COALESCE(p.earliest_observed_at, a.earliest), a.earliest)
    FROM per_product a WHERE p.id = a.product_id
  )
  SELECT coalesce(sum(n), 0)::bigint AS inserted FROM per_product`;

/** A dry run's count: staged identities neither stored nor counted before (CONTRACT.md identity). */
const DRY_COUNT = `WITH fresh AS (
    INSERT INTO dry_run_seen (identity)
    SELECT CASE WHEN s.external_id <> '' THEN 'e|' || s.source || '|' || s.external_id
                ELSE 'f|' || s.source || '|' || s.product_id || '|' || s.observed_at || '|' || s.price_minor || '|' || s.condition END
    FROM observations_staging s
    WHERE CASE WHEN s.external_id <> ''
      THEN NOT EXISTS (SELECT 1 FROM observations o WHERE o.source = s.source AND o.external_id = s.external_id AND o.external_id <> '')
      ELSE NOT EXISTS (SELECT 1 FROM observations o WHERE o.product_id = s.product_id AND o.condition = s.condition
        AND o.observed_at = s.observed_at AND o.price_minor = s.price_minor AND o.source = s.source AND o.external_id = '')
    END
    ON CONFLICT DO NOTHING
    RETURNING 1
  )
  SELECT count(*) AS inserted FROM fresh`;

/** Bytes of COPY text gathered before they are sent. */
const CHUNK_BYTES = 64 * 1024;

const SPECIAL = /[\\\t\n\r]/;
/** A value in COPY's text format: backslash, tab and line breaks escaped. */
function copyText(value: string): string {
  if (!SPECIAL.test(value)) return value;
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/** The catalog in memory, by each identity the ingest resolves a record with. */
class Catalog implements ProductLookup {
  private readonly byKey = new Map<string, StoredProduct>();
  private readonly byRefsource = new Map<string, StoredProduct>();
  private readonly byTcgplayer = new Map<string, StoredProduct[]>();
  /** The crosswalk: `scheme value` -> product key, and each key's values by scheme. */
  private readonly byIdentity = new Map<string, string>();
  private readonly identitiesOf = new Map<string, Map<string, string>>();
  /** Products by each word of their name (as the search index folds it), built on the first title match. */
  private byNameWord: Map<string, StoredProduct[]> | null = null;

  findByKey(productKey: string): StoredProduct | undefined {
    return this.byKey.get(productKey);
  }
  findByRefsourceId(refsourceId: string): StoredProduct | undefined {
    return this.byRefsource.get(refsourceId);
  }
  findByTcgplayerId(tcgplayerId: string): StoredProduct[] {
    return this.byTcgplayer.get(tcgplayerId) ?? [];
  }
  findByIdentity(scheme: IdentityScheme, value: string): StoredProduct | undefined {
    if (scheme === 'tcgplayer') {
      const { tcgplayerId, printing } = tcgplayerIdentity(value);
      return this.findByTcgplayerId(tcgplayerId).find((p) => samePrinting(p.printing, printing));
    }
    const key = this.byIdentity.get(`${scheme} ${value}`);
    return key === undefined ? undefined : this.byKey.get(key);
  }
  /** Records that `productKey` holds `identity`, replacing its value of that scheme. */
  claim(productKey: string, { scheme, value }: ProductIdentity): void {
    const held = this.identitiesOf.get(productKey) ?? new Map<string, string>();
    const old = held.get(scheme);
    if (old !== undefined && this.byIdentity.get(`${scheme} ${old}`) === productKey)
      this.byIdentity.delete(`${scheme} ${old}`);
    held.set(scheme, value);
    this.identitiesOf.set(productKey, held);
    this.byIdentity.set(`${scheme} ${value}`, productKey);
  }
  /** As the SQLite store's full-text match of name words: whole words, folded as its index folds them, by id. */
  productsNamed(words: readonly string[]): StoredProduct[] {
    if (this.byNameWord === null) {
      this.byNameWord = new Map();
      for (const product of this.byKey.values()) {
        for (const word of new Set(tokenize(product.productName))) {
          const list = this.byNameWord.get(word);
          if (list === undefined) this.byNameWord.set(word, [product]);
          else list.push(product);
        }
      }
    }
    const found = new Set<StoredProduct>();
    for (const word of new Set(words.flatMap((w) => tokenize(w))))
      for (const p of this.byNameWord.get(word) ?? []) found.add(p);
    return [...found].sort((a, b) => order(a.id) - order(b.id));
  }

  /** Adds or replaces a product (by key), moving its refsource and TCGplayer entries with it. */
  set(product: StoredProduct): void {
    this.byNameWord = null;
    const old = this.byKey.get(product.productKey);
    if (old) {
      if (old.refsourceId !== null && this.byRefsource.get(old.refsourceId) === old)
        this.byRefsource.delete(old.refsourceId);
      if (old.tcgplayerId !== null) {
        const rest = this.findByTcgplayerId(old.tcgplayerId).filter((p) => p !== old);
        if (rest.length > 0) this.byTcgplayer.set(old.tcgplayerId, rest);
        else this.byTcgplayer.delete(old.tcgplayerId);
      }
    }
    this.byKey.set(product.productKey, product);
    for (const identity of product.identities ?? []) this.claim(product.productKey, identity);
    if (product.refsourceId !== null) this.byRefsource.set(product.refsourceId, product);
    if (product.tcgplayerId !== null) {
      const list = this.findByTcgplayerId(product.tcgplayerId).filter(
        (p) => p.productKey !== product.productKey,
      );
      // Oldest first, as the stored order (ids) has them; provisional ids come after every real one.
      list.push(product);
      list.sort((a, b) => order(a.id) - order(b.id));
      this.byTcgplayer.set(product.tcgplayerId, list);
    }
  }

  clear(): void {
    this.byNameWord = null;
    this.byKey.clear();
    this.byRefsource.clear();
    this.byTcgplayer.clear();
    this.byIdentity.clear();
    this.identitiesOf.clear();
  }
}

/** Sort position of a product id: real ids ascending, then provisional ones (-1, -2, ...) in the order given. */
const order = (id: number) => (id > 0 ? id : 2 ** 31 - id);

interface Batch {
  /** COPY text not yet sent. */
  text: string;
  rows: number;
  products: Product[];
}

/** `lockWait`: how a commit waits for another ingest's (write-lock.ts). */
export async function openPgIngestWriter(
  pool: PgPool,
  url: string,
  options: IngestWriterOptions,
  lockWait?: LockWait,
): Promise<IngestWriter> {
  const client: PgClient = await pool
    .connect()
    .catch((error: unknown) => Promise.reject(toPgDatabaseError(error, url)));
  const catalog = new Catalog();
  let nextProvisional = -1;
  try {
    for (const statement of SESSION_TABLES) await client.query(statement);
    // A pooled connection keeps its session tables from an earlier writer.
    await client.query('TRUNCATE provisional_products, dry_run_seen');
    await loadCatalog();
  } catch (error) {
    client.release();
    throw toPgDatabaseError(error, url);
  }

  async function loadCatalog(): Promise<void> {
    catalog.clear();
    const rows = await client.query<ProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM products ORDER BY id`);
    for (const row of rows.rows) catalog.set(toProduct(row));
    const identities = await client.query<{
      product_key: string;
      scheme: ProductIdentity['scheme'];
      value: string;
    }>(
      'SELECT p.product_key, i.scheme, i.value FROM product_identities i JOIN products p ON p.id = i.product_id',
    );
    for (const { product_key, scheme, value } of identities.rows)
      catalog.claim(product_key, { scheme, value });
  }

  let batch: Batch = { text: '', rows: 0, products: [] };
  /** Every statement, in order. */
  let chain: Promise<unknown> = Promise.resolve();
  /** The first failure since the last rollback; every later step is skipped and commit rejects with it. */
  let failure: { error: unknown } | null = null;
  let inTransaction = false;
  let copy: { stream: CopyStreamQuery; done: Promise<void> } | null = null;

  /**
   * Queues `step` on the chain, whatever failed before: the client runs one statement at a
   * time, so even a rollback waits its turn. Rows handed in while it runs (a parse worker's
   * last messages) are sent after its ROLLBACK, into the next batch, instead of opening a
   * COPY beside it.
   */
  function inTurn<T>(step: () => Promise<T>): Promise<T> {
    const run = chain.then(step);
    chain = run.catch(() => {});
    return run;
  }

  /** Queues `step` on the chain; a step after a failure does nothing. */
  function enqueue<T>(step: () => Promise<T>): Promise<T> {
    return inTurn(() => {
      if (failure !== null) return Promise.reject(failure.error);
      return step().catch((error: unknown) => {
        failure ??= { error: toPgDatabaseError(error, url) };
        throw failure.error;
      });
    });
  }

  async function begin(): Promise<void> {
    if (inTransaction) return;
    // The batch bumps the data version itself, once and only when it changed something: the
    // trigger that bumps it for other writers' statements (drizzle-pg/0004) stands aside.
    await client.query(`BEGIN; SET LOCAL ${BUMPS_VERSION} = on`);
    inTransaction = true;
  }

  async function send(text: string): Promise<void> {
    await begin();
    if (copy === null) {
      const stream = client.query(copyFrom(`COPY observations_staging (${COLUMNS}) FROM STDIN`));
      const done = new Promise<void>((resolve, reject) => {
        stream.once('finish', resolve);
        stream.once('error', reject);
      });
      done.catch(() => {}); // observed by endCopy
      copy = { stream, done };
    }
    const { stream, done } = copy;
    if (!stream.write(text))
      await Promise.race([new Promise((resolve) => stream.once('drain', resolve)), done]);
  }

  async function endCopy(): Promise<void> {
    if (copy === null) return;
    const { stream, done } = copy;
    copy = null;
    stream.end();
    await done;
  }

  /** Sends the gathered text (in order, on the chain). */
  function flushText(): void {
    if (batch.text === '') return;
    const text = batch.text;
    batch.text = '';
    enqueue(() => send(text)).catch(() => {}); // the failure is kept for commit
  }

  async function commitBatch(done: Batch): Promise<InsertResult> {
    if (done.text !== '') await send(done.text);
    if (!inTransaction && done.products.length === 0) return { inserted: 0, duplicates: 0 };
    await begin();
    await endCopy();
    if (!options.dryRun) await takeWriteLock(client, lockWait);
    if (done.products.length > 0) {
      const stored = await upsertProducts(
        (text, params) => client.query(text, params).then((r) => r.rows),
        done.products,
      );
      const provisional: number[] = [];
      const real: number[] = [];
      for (const { id, product_key } of stored) {
        const known = catalog.findByKey(product_key);
        if (known && known.id < 0) {
          provisional.push(known.id);
          real.push(id);
          catalog.set({ ...known, id });
        }
      }
      if (provisional.length > 0) {
        await client.query(
          'INSERT INTO provisional_products (provisional, id) SELECT * FROM unnest($1::int[], $2::int[])',
          [provisional, real],
        );
      }
    }
    const result = await client.query<{ inserted: number }>(options.dryRun ? DRY_COUNT : MERGE);
    const inserted = result.rows[0]!.inserted;
    if (!options.dryRun && inserted + done.products.length > 0) await bumpDataVersion(client);
    await client.query('COMMIT');
    inTransaction = false;
    return { inserted, duplicates: done.rows - inserted };
  }

  async function abort(): Promise<void> {
    if (copy !== null) {
      const { stream, done } = copy;
      copy = null;
      // Failing the COPY from our side makes the server abort it; the ROLLBACK follows.
      stream.destroy(new Error('ingest rolled back'));
      await done.catch(() => {});
    }
    if (inTransaction) await client.query('ROLLBACK').catch(() => {});
    inTransaction = false;
  }

  const writer: IngestWriter & { drain(): Promise<void> } = {
    products: catalog,
    upsertProducts(products) {
      if (options.dryRun) throw new Error('a dry run writes no products');
      for (const p of products) {
        const known = catalog.findByKey(p.productKey);
        catalog.set({
          ...p,
          id: known?.id ?? nextProvisional--,
          tcgplayerId: p.tcgplayerId ?? known?.tcgplayerId ?? null,
          printing: p.printing ?? known?.printing ?? null,
          language: p.language ?? null,
        });
        batch.products.push(p);
      }
    },
    insert({
      productId,
      condition,
      observedAt,
      priceMinor,
      source,
      grader,
      grade,
      externalId,
      salesVolume,
      matchedBy,
      currency,
      amountMinor,
    }) {
      batch.text += `${productId}\t${copyText(condition)}\t${observedAt}\t${priceMinor}\t${copyText(source)}\t${copyText(grader)}\t${grade === null ? '\\N' : grade}\t${copyText(externalId)}\t${salesVolume === null || salesVolume === undefined ? '\\N' : salesVolume}\t${matchedBy == null ? '\\N' : copyText(matchedBy)}\t${copyText(currency ?? 'USD')}\t${amountMinor == null ? '\\N' : amountMinor}\n`;
      batch.rows += 1;
      if (batch.text.length >= CHUNK_BYTES) flushText();
    },
    /** Waits until what was handed in is sent: the caller's backpressure. */
    async drain() {
      await chain;
      if (failure !== null) throw failure.error;
    },
    commit() {
      const done = batch;
      batch = { text: '', rows: 0, products: [] };
      return enqueue(() => commitBatch(done));
    },
    rollback() {
      batch = { text: '', rows: 0, products: [] };
      return inTurn(async () => {
        await abort();
        failure = null;
        // Products of the dropped batch may be in the catalog under provisional ids: read it again.
        if (nextProvisional !== -1)
          await loadCatalog().catch((error: unknown) => Promise.reject(toPgDatabaseError(error, url)));
      });
    },
    close() {
      batch = { text: '', rows: 0, products: [] };
      return inTurn(async () => {
        await abort();
        client.release();
      });
    },
  };
  return writer;
}
