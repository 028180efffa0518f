/** Catalog products: lookups for pricing, upserts for ingest, the catalog listing. */
import { tcgplayerIdentity, type IdentityScheme, type ProductIdentity } from '../../domain/identity.js';
import { samePrinting } from '../../domain/printing.js';
import type { CatalogEntry, Product } from '../../domain/product.js';
import {
  CATALOG_COLUMNS,
  identityFirst,
  identityOrder,
  identityText,
  identityWhere,
  PRODUCT_COLUMNS,
  PRODUCT_UPSERT_SET,
  toCatalogEntry,
  toProduct,
  type CatalogRow,
  type ProductRow,
} from '../product-rows.js';
import type { ActiveProduct, ReadPause, StoredProduct } from '../store.js';
import { type SqliteDatabase } from './connection.js';
import { matchAllWords, matchAnyWord, matchNameWords } from '../fts-query.js';
import { onFirstUse } from '../../domain/first-use.js';

/**
 * Products per upsert statement: enough that the search index is written once per slice, small
 * enough that a slice's JSON text stays a young-generation string for V8.
 */
const UPSERT_SLICE = 100;

/**
 * Search-index words per statement of a vocabulary read: a few milliseconds each on the 2-core
 * machine, so a read of 600,000 words gives the event loop back between pages (service/turns.ts).
 */
export const VOCABULARY_PAGE = 2_000;

/**
 * Postings (products per word, summed) at which a vocabulary page ends early: fts5vocab counts a
 * word's products by walking its whole list, so the page holding the few words every product of
 * a 300,000-product catalog holds ("card", "name", "set"...) took 86-111 ms in one statement
 * (issue 35); about 60 ns a posting, this is some 20 ms a page.
 */
export const VOCABULARY_PAGE_POSTINGS = 300_000;

const noPause: ReadPause = () => Promise.resolve();

/**
 * Matches a search with a limit ranks at most (the API's, `price`'s suggestions): the first
 * this many in the index's order (by product id, oldest first). A word most of a 300,000-product
 * catalog holds ("card", "pokemon") otherwise ranked every product in one statement. A search
 * that matches more is one to narrow with another word; `oracle catalog --search` (no limit)
 * still ranks every match.
 */
export const MAX_RANKED_MATCHES = 10_000;

export function createProductRepo(db: SqliteDatabase) {
  const byKey = onFirstUse(() =>
    db.prepare<[string], ProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM products WHERE product_key = ?`),
  );
  const byRefsource = onFirstUse(() =>
    db.prepare<[string], ProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM products WHERE refsource_id = ?`),
  );
  const byTcgplayer = onFirstUse(() =>
    db.prepare<[string], ProductRow>(
      `SELECT ${PRODUCT_COLUMNS} FROM products WHERE tcgplayer_id = ? ORDER BY id`,
    ),
  );
  const byIdentity = onFirstUse(() =>
    db.prepare<[string, string], ProductRow>(
      `SELECT ${PRODUCT_COLUMNS.split(', ')
        .map((c) => `p.${c}`)
        .join(', ')} FROM product_identities i JOIN products p ON p.id = i.product_id
       WHERE i.scheme = ? AND i.value = ?`,
    ),
  );
  // A product holds one value per scheme: a new one replaces the old (delete, then insert, so
  // a value moving between two products of one batch never meets itself).
  const dropIdentity = onFirstUse(() =>
    db.prepare<[string, string]>(
      'DELETE FROM product_identities WHERE product_id = (SELECT id FROM products WHERE product_key = ?) AND scheme = ?',
    ),
  );
  const addIdentity = onFirstUse(() =>
    db.prepare<[string, string, string]>(
      'INSERT INTO product_identities (product_id, scheme, value) SELECT id, ?, ? FROM products WHERE product_key = ?',
    ),
  );
  // One statement upserts a slice of products (a JSON array of rows): the search index's
  // triggers then run inside one statement's savepoint. Row by row, every statement opened one,
  // and FTS5 writes its pending terms out as a new segment at each savepoint: a segment per
  // product, merged again and again (bench/findings.md, 6b).
  const upsertSlice = onFirstUse(() =>
    db.prepare<[string]>(
      `INSERT INTO products (product_key, refsource_id, product_name, subtitle, set_name, image_url, product_type, era, release_date, tcgplayer_id, printing, language)
       SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7, value ->> 8, value ->> 9, value ->> 10, value ->> 11
       FROM json_each(?) WHERE true
       ON CONFLICT (product_key) DO UPDATE SET ${PRODUCT_UPSERT_SET}`,
    ),
  );
  const everyProduct = onFirstUse(() =>
    db.prepare<[], ProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM products ORDER BY id`),
  );
  const catalogAll = onFirstUse(() =>
    db.prepare<[], CatalogRow>(`SELECT ${CATALOG_COLUMNS} FROM products ORDER BY product_key`),
  );
  // Every key is longer than '': the first page is the page after it. The key's unique index
  // reads a page without sorting the catalog.
  const catalogAfter = onFirstUse(() =>
    db.prepare<[string, number], CatalogRow>(
      `SELECT ${CATALOG_COLUMNS} FROM products WHERE product_key > ? ORDER BY product_key LIMIT ?`,
    ),
  );
  // Search ranks by bm25 over the FTS5 index (drizzle/0001_products_fts.sql), a name match
  // weighing most, then set and subtitle (where the card number is), then the key.
  const ranked = `SELECT rowid AS id, bm25(products_fts, 1.0, 4.0, 2.0, 2.0) AS score FROM products_fts WHERE products_fts MATCH @match`;
  const catalogJsonAll = onFirstUse(() =>
    db
      .prepare<[], string>(
        `SELECT json_object('total', count(*), 'products', json_group_array(json_object(
           'product_key', product_key, 'refsource_id', refsource_id, 'product_name', product_name,
           'product_type', product_type, 'era', era,
           'earliest_observation', strftime('%Y-%m-%d', earliest_observed_at / 1000, 'unixepoch'),
           'tcgplayer_id', tcgplayer_id, 'printing', printing, 'language', language
         ) ORDER BY product_key))
         FROM products`,
      )
      .pluck(),
  );
  const catalogSearch = onFirstUse(() =>
    db.prepare<[{ match: string; limit: number }], CatalogRow>(
      `SELECT ${CATALOG_COLUMNS.split(', ')
        .map((c) => `p.${c}`)
        .join(', ')} FROM (${ranked}) f JOIN products p ON p.id = f.id
       ORDER BY f.score, p.product_key LIMIT @limit`,
    ),
  );
  // The same ranked among the first MAX_RANKED_MATCHES matches: the LIMIT inside the subquery
  // stops FTS5's scan there, where ranking every match of a word 300,000 products hold held the
  // event loop most of a second.
  const catalogSearchBounded = onFirstUse(() =>
    db.prepare<[{ match: string; limit: number; cap: number }], CatalogRow>(
      `SELECT ${CATALOG_COLUMNS.split(', ')
        .map((c) => `p.${c}`)
        .join(', ')} FROM (${ranked} LIMIT @cap) f JOIN products p ON p.id = f.id
       ORDER BY f.score, p.product_key LIMIT @limit`,
    ),
  );
  const catalogIdentity = onFirstUse(() =>
    db.prepare<[{ text: string }], CatalogRow>(
      `SELECT ${CATALOG_COLUMNS} FROM products WHERE ${identityWhere('@text')} ORDER BY ${identityOrder('@text')}, product_key`,
    ),
  );
  const keysLike = onFirstUse(() =>
    db
      .prepare<[{ match: string; limit: number }], string>(
        `SELECT p.product_key FROM (${ranked}) f JOIN products p ON p.id = f.id ORDER BY f.score, p.product_key LIMIT @limit`,
      )
      .pluck(),
  );

  // fts5vocab reads the index's own terms; a temp table of this connection, so no migration
  // and no write to the database (a read-only connection may create it). Read a page at a
  // time (its term constraint seeks): the whole of a 300,000-product catalog's 600,000 words
  // held the event loop 4 s in one statement.
  const vocabularyPage = onFirstUse(() => {
    db.exec(
      'CREATE VIRTUAL TABLE IF NOT EXISTS temp.products_fts_words USING fts5vocab(main, products_fts, row)',
    );
    return db.prepare<[string, number], { word: string; products: number }>(
      'SELECT term AS word, doc AS products FROM temp.products_fts_words WHERE term > ? ORDER BY term LIMIT ?',
    );
  });
  const named = onFirstUse(() =>
    db.prepare<[string], ProductRow>(
      `SELECT ${PRODUCT_COLUMNS.split(', ')
        .map((c) => `p.${c}`)
        .join(', ')} FROM products_fts f JOIN products p ON p.id = f.rowid
       WHERE products_fts MATCH ? ORDER BY p.id`,
    ),
  );

  const pageAfter = onFirstUse(() =>
    db.prepare<[number, number], ProductRow>(
      `SELECT ${PRODUCT_COLUMNS} FROM products WHERE id > ? ORDER BY id LIMIT ?`,
    ),
  );
  // observation_count bounds the range count from above: products with fewer in all are never counted.
  const active = onFirstUse(() =>
    db.prepare<
      [{ condition: string; from: number; to: number; min: number }],
      ProductRow & { observations: number }
    >(
      `SELECT * FROM (SELECT ${PRODUCT_COLUMNS}, (SELECT count(*) FROM observations o
                  WHERE o.product_id = products.id AND o.condition = @condition AND o.observed_at >= @from AND o.observed_at < @to) AS observations
                FROM products WHERE observation_count >= @min) WHERE observations >= @min ORDER BY id`,
    ),
  );
  const count = onFirstUse(() => db.prepare<[], number>('SELECT count(*) FROM products').pluck());

  return {
    /** Up to `limit` products after row id `afterId`, by id: a cursor over the catalog in constant memory. */
    pageAfter(afterId: number, limit: number): StoredProduct[] {
      return pageAfter().all(afterId, limit).map(toProduct);
    },
    activeIn(condition: string, from: number, to: number, min: number): ActiveProduct[] {
      return active()
        .all({ condition, from, to, min })
        .map((row) => ({ ...toProduct(row), observations: row.observations }));
    },
    count(): number {
      return count().get() as number;
    },
    findByKey(productKey: string): StoredProduct | undefined {
      const row = byKey().get(productKey);
      return row && toProduct(row);
    },
    findByRefsourceId(refsourceId: string): StoredProduct | undefined {
      const row = byRefsource().get(refsourceId);
      return row && toProduct(row);
    },
    /** Every product, in id order (for `oracle calibrate`). */
    all(): StoredProduct[] {
      return everyProduct().all().map(toProduct);
    },
    /** Every product whose name holds one of `words` as a whole word (ProductLookup.productsNamed), by id. */
    productsNamed(words: readonly string[]): StoredProduct[] {
      const match = matchNameWords(words);
      return match === null ? [] : named().all(match).map(toProduct);
    },
    /** Every product of a TCGplayer id (one per printing), oldest first. */
    findByTcgplayerId(tcgplayerId: string): StoredProduct[] {
      return byTcgplayer().all(tcgplayerId).map(toProduct);
    },
    /** The product an identity of the crosswalk names (ProductLookup.findByIdentity). */
    findByIdentity(scheme: IdentityScheme, value: string): StoredProduct | undefined {
      if (scheme === 'tcgplayer') {
        const { tcgplayerId, printing } = tcgplayerIdentity(value);
        return this.findByTcgplayerId(tcgplayerId).find((p) => samePrinting(p.printing, printing));
      }
      const row = byIdentity().get(scheme, value);
      return row && toProduct(row);
    },
    /** Creates or updates products, in order, in one transaction, with the identities they claim. */
    upsertMany(products: readonly Product[]): void {
      db.transaction(() => {
        for (let start = 0; start < products.length; start += UPSERT_SLICE) {
          const rows = products
            .slice(start, start + UPSERT_SLICE)
            .map((p) => [
              p.productKey,
              p.refsourceId,
              p.productName,
              p.subtitle,
              p.setName,
              p.imageUrl,
              p.productType,
              p.era,
              p.releaseDate,
              p.tcgplayerId,
              p.printing ?? null,
              p.language ?? null,
            ]);
          upsertSlice().run(JSON.stringify(rows));
        }
        const claims: [string, ProductIdentity][] = products.flatMap((p) =>
          (p.identities ?? []).map((i): [string, ProductIdentity] => [p.productKey, i]),
        );
        for (const [key, { scheme }] of claims) dropIdentity().run(key, scheme);
        for (const [key, { scheme, value }] of claims) addIdentity().run(scheme, value, key);
      })();
    },
    /**
     * The catalog body of SPEC.md 4.5 (`{total, products}`) as JSON text built by SQLite:
     * this skips three JS objects per product and their serialisation (bench/findings.md,
     * 5. Catalog). A test holds it equal to catalogBody(catalog()).
     */
    catalogPage(afterKey: string | null, limit: number): CatalogEntry[] {
      return catalogAfter()
        .all(afterKey ?? '', limit)
        .map(toCatalogEntry);
    },
    catalogJson(): string {
      return catalogJsonAll().get() as string;
    },
    /**
     * Every product ordered by key or, with `search`, the product whose key, refsource id or
     * TCGplayer id it is (product-rows.ts, identityWhere), then those matching every word of it
     * (in any order, each word as a prefix, across key, name, set and subtitle), best match first.
     * With a `limit`, the best among the first MAX_RANKED_MATCHES matches (a bounded search).
     */
    catalog(search?: string, limit = -1): CatalogEntry[] {
      if (!search) return catalogAll().all().map(toCatalogEntry);
      const identity = catalogIdentity().all({ text: identityText(search) });
      const match = matchAllWords(search);
      const text =
        match === null
          ? []
          : limit < 0
            ? catalogSearch().all({ match, limit: -1 })
            : catalogSearchBounded().all({ match, limit: limit + identity.length, cap: MAX_RANKED_MATCHES });
      return identityFirst(identity, text, limit).map(toCatalogEntry);
    },
    /** Keys of the products sharing the most (and rarest) words with `text`, best first: "did you mean" candidates. */
    keysLike(text: string, limit: number): string[] {
      const match = matchAnyWord(text);
      return match === null ? [] : (keysLike().all({ match, limit }) as string[]);
    },
    /**
     * Every word of the search index with how many products hold it, in word order
     * (Store.products.vocabulary), VOCABULARY_PAGE words per statement, fewer once they hold
     * `postingsPerPage` postings, with `pause` between two.
     */
    async vocabulary(
      pause: ReadPause = noPause,
      postingsPerPage = VOCABULARY_PAGE_POSTINGS,
    ): Promise<{ word: string; products: number }[]> {
      const words: { word: string; products: number }[] = [];
      // Every term is longer than '': the first page is the page after it.
      for (let after = ''; ;) {
        let read = 0;
        let postings = 0;
        // Stepped row by row and left early: no await runs while the statement is open.
        for (const word of vocabularyPage().iterate(after, VOCABULARY_PAGE)) {
          words.push(word);
          read += 1;
          postings += word.products;
          if (postings >= postingsPerPage) break;
        }
        if (read < VOCABULARY_PAGE && postings < postingsPerPage) return words;
        after = words.at(-1)!.word;
        await pause();
      }
    },
  };
}

export type ProductRepo = ReturnType<typeof createProductRepo>;
