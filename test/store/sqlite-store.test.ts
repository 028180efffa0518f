// @module-tag sqlite-only: the SQLite store itself
/**
 * How the SQLite store keeps its contract (contract.test.ts, price-points.test.ts): its
 * migrations, WAL, the FTS5 catalog index and the query plans of its reads. Opening files
 * (missing, empty, foreign, newer) is connection.test.ts.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from '../../src/domain/errors.js';
import { PRICED_CONDITIONS } from '../../src/domain/conditions.js';
import { DAY_MS } from '../../src/domain/time.js';
import { pointsRequest } from '../../src/engine/index.js';
import {
  CATALOG_CACHE_KIB,
  closeDatabase,
  openDatabase,
  READ_CACHE_KIB,
} from '../../src/store/sqlite/connection.js';
import { createObservationRepo } from '../../src/store/sqlite/observation-repo.js';
import { createPricePointReader } from '../../src/store/sqlite/price-points.js';
import { createPricePointSeriesReader } from '../../src/store/sqlite/price-point-series.js';
import { MAX_PREFIX_CHARS } from '../../src/store/fts-query.js';
import { createProductRepo, VOCABULARY_PAGE } from '../../src/store/sqlite/product-repo.js';
import { createWriteLock } from '../../src/store/sqlite/write-lock.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { testProduct } from '../_setup.js';
import { ungradedRow, writeObservations, writeProducts } from '../_store.js';

describe('SQLite store', () => {
  let dir: string;
  let path: string;
  let store: Store;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'oracle-store-'));
    path = join(dir, 'oracle.db');
    store = await openStore(path, { create: true });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies the migrations on open and opens an up-to-date file without re-running them', async () => {
    const raw = new Database(path, { readonly: true });
    const tables = raw
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all();
    expect(tables).toEqual(expect.arrayContaining(['api_keys', 'ingest_runs', 'observations', 'products']));
    expect(raw.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(1);
    const applied = raw.prepare('SELECT count(*) FROM __drizzle_migrations').pluck().get();
    raw.close();
    await store.close();
    store = await openStore(path);
    const again = new Database(path, { readonly: true });
    expect(again.prepare('SELECT count(*) FROM __drizzle_migrations').pluck().get()).toBe(applied);
    again.close();
  });

  it('runs in WAL mode with NORMAL sync so a reader and a writer can share the file', async () => {
    const raw = new Database(path);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it('looks up and writes catalog products with the small page cache, and gives it back for observations and at close', async () => {
    // The catalog-memory benchmark measures what this buys (docs/benchmarks.md, 6b).
    const db = await openDatabase(path);
    const observations = createObservationRepo(db, createWriteLock(db));
    const cacheKib = () => -(db.pragma('cache_size', { simple: true }) as number);
    expect(cacheKib()).toBe(READ_CACHE_KIB);
    const writer = observations.openWriter();
    // A catalog re-run whose products are all stored only looks them up: small cache from the start.
    expect(cacheKib()).toBe(CATALOG_CACHE_KIB);
    expect(CATALOG_CACHE_KIB).toBeLessThan(READ_CACHE_KIB);
    writer.begin(); // what the store does before it writes products
    expect(cacheKib()).toBe(CATALOG_CACHE_KIB);
    writer.insert(
      ungradedRow({
        productId: 1,
        observedAt: Date.UTC(2026, 0, 1),
        priceMinor: 100,
        source: 'ebay',
        externalId: 'x-1',
      }),
    );
    writer.begin(); // products after observations in one transaction: no switch until the commit
    expect(cacheKib()).toBe(CATALOG_CACHE_KIB);
    writer.commit();
    expect(cacheKib()).toBe(READ_CACHE_KIB);
    writer.insert(
      ungradedRow({
        productId: 1,
        observedAt: Date.UTC(2026, 0, 2),
        priceMinor: 100,
        source: 'ebay',
        externalId: 'x-2',
      }),
    );
    writer.begin();
    expect(cacheKib()).toBe(READ_CACHE_KIB);
    writer.commit();
    writer.begin();
    expect(cacheKib()).toBe(CATALOG_CACHE_KIB);
    writer.close();
    expect(cacheKib()).toBe(READ_CACHE_KIB);
    // A source of observations alone takes the read cache before its first transaction.
    const observing = observations.openWriter();
    expect(cacheKib()).toBe(CATALOG_CACHE_KIB);
    observing.insert(
      ungradedRow({
        productId: 1,
        observedAt: Date.UTC(2026, 0, 3),
        priceMinor: 100,
        source: 'ebay',
        externalId: 'x-3',
      }),
    );
    expect(cacheKib()).toBe(READ_CACHE_KIB);
    observing.commit();
    observing.close();
    closeDatabase(db);
  });

  it('refuses to open a missing file for reading, naming it', async () => {
    await expect(openStore(join(dir, 'missing.db'))).rejects.toThrow(DatabaseUnavailableError);
    await expect(openStore(join(dir, 'missing.db'))).rejects.toThrow(/missing\.db/);
  });

  it('reads one product and condition range with an index range scan, not a table scan', async () => {
    const raw = new Database(path, { readonly: true });
    const plan = raw
      .prepare(
        `EXPLAIN QUERY PLAN SELECT condition, source, observed_at, price_minor FROM observations
         WHERE product_id = 1 AND condition IN ('ungraded', 'psa10') AND observed_at >= 0 AND observed_at < 10`,
      )
      .all() as { detail: string }[];
    raw.close();
    const details = plan.map((row) => row.detail).join('\n');
    expect(details).toMatch(
      /SEARCH observations USING (?:COVERING )?INDEX observations_pricing \(product_id=\? AND condition=\? AND observed_at>\? AND observed_at<\?\)/,
    );
    expect(details).not.toMatch(/SCAN observations/);
  });

  it('reads the search vocabulary a page at a time, pausing between pages, in word order', async () => {
    // About 2.5 pages of words: a product holds two of its own (its key and its name).
    const words = Math.round(VOCABULARY_PAGE * 1.25);
    await writeProducts(
      store,
      Array.from({ length: words }, (_, i) =>
        testProduct({
          productKey: `k${i}`,
          refsourceId: null,
          productName: `w${i.toString(36)}`,
          subtitle: '',
          setName: 'S',
        }),
      ),
    );
    let pauses = 0;
    const paged = await store.products.vocabulary(() => {
      pauses += 1;
      return Promise.resolve();
    });
    const whole = new Database(path, { readonly: true });
    whole.exec('CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, products_fts, row)');
    const expected = whole.prepare('SELECT term AS word, doc AS products FROM temp.v ORDER BY term').all();
    whole.close();
    expect(paged).toEqual(expected);
    expect(paged.length).toBeGreaterThan(words);
    // Every page but the last ends with a pause: no statement reads more than a page.
    expect(pauses).toBe(Math.floor(paged.length / VOCABULARY_PAGE));
  });

  it('ends a vocabulary page early once its words hold enough postings (issue 35)', async () => {
    // 40 products: each holds its own key word and the five words all 40 hold (40 postings each).
    await writeProducts(
      store,
      Array.from({ length: 40 }, (_, i) =>
        testProduct({
          productKey: `k${i}`,
          refsourceId: null,
          productName: 'alpha beta gamma delta',
          subtitle: '',
          setName: 'S',
        }),
      ),
    );
    const db = await openDatabase(path);
    let pauses = 0;
    const words = await createProductRepo(db).vocabulary(() => {
      pauses += 1;
      return Promise.resolve();
    }, 100);
    closeDatabase(db);
    expect(words).toEqual(await store.products.vocabulary());
    // A page ends at the word that brings it to 100 postings: far fewer words than VOCABULARY_PAGE.
    let ends = 0;
    let postings = 0;
    for (const w of words) {
      postings += w.products;
      if (postings >= 100) [ends, postings] = [ends + 1, 0];
    }
    expect(words.length).toBeLessThan(VOCABULARY_PAGE);
    expect(ends).toBeGreaterThanOrEqual(2);
    expect(pauses).toBe(ends);
  });

  it('holds every prefix a search asks for as a term of the index (issue 35)', () => {
    const raw = new Database(path, { readonly: true });
    const sql = raw.prepare("SELECT sql FROM sqlite_master WHERE name = 'products_fts'").pluck().get();
    raw.close();
    const sizes = /prefix='([\d ]+)'/.exec(String(sql))?.[1]?.split(' ').map(Number);
    expect(sizes).toEqual(Array.from({ length: MAX_PREFIX_CHARS }, (_, i) => i + 1));
  });

  it('keeps the FTS5 index in step with a product deleted past the store', async () => {
    await writeProducts(store, [
      testProduct({ productKey: 'charizard-4' }),
      testProduct({ productKey: 'blastoise-2', refsourceId: '2', productName: 'Blastoise' }),
    ]);
    const raw = new Database(path);
    raw.prepare('DELETE FROM products WHERE product_key = ?').run('blastoise-2');
    // The index's own integrity check compares it with the content table.
    expect(() =>
      raw.prepare("INSERT INTO products_fts(products_fts, rank) VALUES ('integrity-check', 1)").run(),
    ).not.toThrow();
    raw.close();
    expect(await store.products.catalog('blastoise')).toEqual([]);
  });

  it('leaves the FTS5 index alone when ingest bumps observation counts', async () => {
    await writeProducts(store, [
      testProduct({ productKey: 'blastoise-2', refsourceId: '2', productName: 'Blastoise' }),
    ]);
    const id = (await store.products.findByKey('blastoise-2'))!.id;
    const ftsRows = () => {
      const raw = new Database(path, { readonly: true });
      try {
        return raw.prepare('SELECT count(*) FROM products_fts_data').pluck().get();
      } finally {
        raw.close();
      }
    };
    const before = ftsRows();
    await writeObservations(store, [
      {
        productId: id,
        productKey: 'blastoise-2',
        source: 'ebay',
        observedAt: 1000,
        priceMinor: 5,
        grader: 'ungraded',
        grade: null,
        externalId: 'a',
      },
    ]);
    expect(ftsRows()).toBe(before);
  });

  describe('price point reads', () => {
    /** The SQL a read runs, traced, and the query plan of each statement. */
    async function plansOf(read: (traced: Database.Database) => unknown): Promise<string[][]> {
      const executed: string[] = [];
      const traced = new Database(path, { readonly: true, verbose: (sql) => executed.push(String(sql)) });
      try {
        await read(traced);
        return executed.map((sql) =>
          (traced.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map(
            (row) => row.detail,
          ),
        );
      } finally {
        traced.close();
      }
    }
    const INDEX_RANGE =
      /^SEARCH observations USING (?:COVERING )?INDEX observations_pricing \(product_id=\? AND condition=\? AND observed_at[<>]/;

    beforeEach(async () => {
      await writeProducts(store, [testProduct({ productKey: 'p' })]);
      const productId = (await store.products.findByKey('p'))!.id;
      const sale = {
        productId,
        productKey: 'p',
        source: 'ebay',
        priceMinor: 100,
        grader: 'ungraded',
        grade: null,
      };
      await writeObservations(store, [
        { ...sale, observedAt: 39.5 * DAY_MS, externalId: 'a' },
        { ...sale, observedAt: 12 * DAY_MS, grader: 'ANY', grade: 9, externalId: 'b' },
      ]);
    });

    it('takes two statements per read, each only covering-index range searches', async () => {
      const range = {
        windowStart: 39 * DAY_MS,
        asOf: 40 * DAY_MS,
        lookbackStart: 10 * DAY_MS,
        depthPerCondition: 2,
        priorPerCondition: 1,
      };
      const plans = await plansOf((traced) => createPricePointReader(traced).read(1, range));
      expect(plans).toHaveLength(2);
      const searches = plans.map((lines) => lines.filter((l) => l.includes('observations')));
      for (const line of searches.flat()) expect(line).toMatch(INDEX_RANGE);
      // 21 priced conditions: two backward scans each (lookback, older), one IN-list scan for the window.
      expect(searches.map((lines) => lines.length).sort((a, b) => a - b)).toEqual([1, 42]);
      expect(plans.flat().join('\n')).not.toMatch(/TEMP B-TREE|SCAN observations/);
    });

    it("reads the extra grades in one more statement, only when asked: one index search of the product (the table only for a quote's sales_volume), no sort", async () => {
      const range = {
        windowStart: 39 * DAY_MS,
        asOf: 40 * DAY_MS,
        lookbackStart: 10 * DAY_MS,
        depthPerCondition: 2,
        priorPerCondition: 1,
      };
      const plans = await plansOf((traced) => createPricePointReader(traced).readExtra(1, range));
      expect(plans).toHaveLength(1);
      const searches = plans[0]!.filter((l) => l.includes('observations'));
      expect(searches).toHaveLength(1);
      expect(searches[0]).toMatch(
        /^SEARCH observations USING (?:COVERING )?INDEX observations_pricing \(product_id=\?/,
      );
      expect(plans.flat().join('\n')).not.toMatch(/TEMP B-TREE|SCAN observations/);
    });

    it('reads a whole series in one statement for the older points and one per priced condition and page, each only covering-index range searches, without a sort', async () => {
      const ranges = Array.from({ length: 50 }, (_, i) =>
        pointsRequest({ windowHours: 24, outlierStddevs: 2, asOf: (30 + i) * DAY_MS }),
      );
      const plans = await plansOf((traced) => createPricePointSeriesReader(traced).readSeries(1, ranges));
      expect(plans).toHaveLength(1 + PRICED_CONDITIONS.length);
      for (const line of plans.flat().filter((l) => l.includes('observations')))
        expect(line).toMatch(INDEX_RANGE);
      expect(plans.flat().join('\n')).not.toMatch(/TEMP B-TREE|SCAN observations/);
    });

    it('reads a series a page at a time as in one go, pausing between pages: an instant is never split, one busier than a page is read whole', async () => {
      const productId = (await store.products.findByKey('p'))!.id;
      const sale = { productId, productKey: 'p', source: 'ebay', grader: 'PSA', grade: 10 };
      // Instants of 1, 3 and 5 sales around pages of 2 points, in two conditions.
      const counts = [1, 3, 1, 5, 2, 1, 3];
      await writeObservations(
        store,
        counts.flatMap((count, day) =>
          Array.from({ length: count }, (_, i) => [
            { ...sale, observedAt: (31 + day) * DAY_MS, priceMinor: 500 - i, externalId: `p${day}-${i}` },
            {
              ...sale,
              grader: 'ungraded',
              grade: null,
              source: i % 2 ? 'ebay' : 'tcgplayer',
              observedAt: (31 + day) * DAY_MS + i,
              priceMinor: 90,
              externalId: `u${day}-${i}`,
            },
          ]).flat(),
        ),
      );
      const ranges = Array.from({ length: 12 }, (_, i) =>
        pointsRequest({ windowHours: 24, outlierStddevs: 2, asOf: (32 + i) * DAY_MS }),
      );
      const raw = new Database(path, { readonly: true });
      try {
        let pauses = 0;
        const paged = await createPricePointSeriesReader(raw, 2).readSeries(productId, ranges, () =>
          Promise.resolve(void (pauses += 1)),
        );
        const whole = await createPricePointSeriesReader(raw).readSeries(productId, ranges);
        expect(paged).toEqual(whole);
        expect(whole.find((c) => c.condition === 'psa10')!.observedAt).toHaveLength(16);
        expect(pauses).toBeGreaterThan(PRICED_CONDITIONS.length + 8);
      } finally {
        raw.close();
      }
    });
  });
});
