// @module-tag sqlite-only: opens a SQLite file and a PostgreSQL database itself
/**
 * The PostgreSQL store against a real server, held to the SQLite store's answers: the same
 * catalog searched and ranked the same, the same observations stored once however often they
 * are ingested, the same points read for pricing.
 */
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Product } from '../../src/domain/product.js';
import { openStore } from '../../src/store/open-store.js';
import { createPool } from '../../src/store/pg/connection.js';
import { createPointCache, TAIL_SLACK_MS } from '../../src/store/pg/point-cache.js';
import { readProductTail } from '../../src/store/pg/price-points.js';
import { createSession } from '../../src/store/pg/session.js';
import type { IngestWriter, Store } from '../../src/store/store.js';
import { describeWithPg, emptyPgDatabase, freshPgDatabase } from '../_pg.js';
import { tempDir, testProduct } from '../_setup.js';
import { selectRows, ungradedRow, writeObservations, writeProducts } from '../_store.js';

/** A small deterministic generator, so a failure repeats. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const WORDS = [
  'charizard',
  'char',
  'charmander',
  'blastoise',
  'base',
  'set',
  'holo',
  'Juzám',
  'djinn',
  'dark',
  'team',
  'rocket',
  '1st',
  'edition',
  '4/102',
  '151',
  'ex',
  'Pokémon',
  'promo',
  'tin',
];

function catalog(n: number): Product[] {
  const next = random(42);
  const pick = (k: number) =>
    Array.from({ length: k }, () => WORDS[Math.floor(next() * WORDS.length)]!).join(' ');
  return Array.from({ length: n }, (_, i) =>
    testProduct({
      productKey: `p-${i}-${pick(2).replace(/\W+/g, '-').toLowerCase()}`,
      refsourceId: String(1000 + i),
      productName: pick(1 + Math.floor(next() * 3)),
      subtitle: pick(Math.floor(next() * 3)),
      setName: pick(1 + Math.floor(next() * 2)),
    }),
  );
}

/** Resolves once `store`'s data version differs from `seen`; rejects after a second (the store's contract). */
async function versionMoves(store: Store, seen: number): Promise<void> {
  const deadline = performance.now() + 1_000;
  while (store.dataVersion() === seen) {
    if (performance.now() > deadline) throw new Error(`the data version stayed ${seen} for a second`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describeWithPg('PostgreSQL store', () => {
  let sqlite: Store;
  let store: Store;
  let storeUrl: string;
  const products = catalog(300);

  beforeAll(async () => {
    sqlite = await openStore(join(tempDir(), 'oracle.db'), { create: true });
    storeUrl = await freshPgDatabase();
    store = await openStore(storeUrl, { create: true });
    expect(store.dialect).toBe('postgres');
    await writeProducts(sqlite, products);
    await writeProducts(store, products);
    expect(await store.inventory()).toEqual({ products: 300, observations: 0, activeKeys: 0 });
  });
  afterAll(async () => {
    await sqlite.close();
    await store.close();
  });

  it('searches and ranks the catalog as SQLite FTS5 with bm25 does', async () => {
    const queries = [
      'charizard',
      'char',
      'base charizard 4/102',
      '4/102',
      'juzam',
      'POKEMON ex',
      'c',
      'ro',
      'team rocket dark',
      'zzz',
      '"*',
      'tin promo',
    ];
    let found = 0;
    for (const q of queries) {
      const expected = (await sqlite.products.catalog(q)).map((e) => e.product_key);
      found += expected.length;
      expect(await store.products.catalog(q).then((r) => r.map((e) => e.product_key)), q).toEqual(expected);
      expect(await store.products.keysLike(q, 5), q).toEqual(await sqlite.products.keysLike(q, 5));
    }
    expect(found).toBeGreaterThan(300);
    expect(await store.products.catalog()).toEqual(await sqlite.products.catalog());
    expect(await store.products.catalogJson()).toBe(await sqlite.products.catalogJson());
    expect(await store.products.vocabulary()).toEqual(await sqlite.products.vocabulary());
  });

  it('ingests with COPY once: duplicates in a batch, across batches and across runs are skipped', async () => {
    const a = (await store.products.findByKey(products[0]!.productKey))!;
    const b = (await store.products.findByKey(products[1]!.productKey))!;
    const rows = [
      // Values that need escaping in COPY's text format.
      {
        productId: a.id,
        source: 'ebay\tuk',
        externalId: 'x\\1\n',
        observedAt: 2_000,
        priceMinor: 100,
        grader: 'ungraded',
        grade: null,
      },
      {
        productId: a.id,
        source: 'ebay\tuk',
        externalId: 'x\\1\n',
        observedAt: 2_000,
        priceMinor: 100,
        grader: 'ungraded',
        grade: null,
      },
      {
        productId: a.id,
        source: 'shop',
        externalId: '',
        observedAt: 1_000,
        priceMinor: 90,
        grader: 'PSA',
        grade: 9.5,
      },
      {
        productId: b.id,
        source: 'shop',
        externalId: '',
        observedAt: 3_000,
        priceMinor: 50,
        grader: 'ungraded',
        grade: null,
      },
    ].map((o) => ({ ...o, productKey: '' }));
    expect(await writeObservations(store, rows)).toEqual({ inserted: 3, duplicates: 1 });
    expect(await writeObservations(store, rows)).toEqual({ inserted: 0, duplicates: 4 });

    const bulk = (writer: IngestWriter, productId: number, step: number) => {
      for (let i = 0; i < 20_000; i += step)
        writer.insert(
          ungradedRow({
            productId,
            observedAt: 10_000 + i,
            priceMinor: 7,
            source: 'bulk',
            externalId: i % 2 === 0 ? '' : `id-${i}`,
          }),
        );
    };
    const writer = await store.openIngest({ dryRun: false });
    bulk(writer, b.id, 1);
    const first = writer.commit();
    // Rows handed in while a commit runs belong to the next batch.
    bulk(writer, b.id, 1000);
    const second = writer.commit();
    expect(await first).toEqual({ inserted: 20_000, duplicates: 0 });
    expect(await second).toEqual({ inserted: 0, duplicates: 20 });
    await writer.close();

    const dry = await store.openIngest({ dryRun: true });
    dry.insert(ungradedRow({ productId: b.id, observedAt: 10_000, priceMinor: 7, source: 'bulk' }));
    dry.insert(ungradedRow({ productId: b.id, observedAt: 5, priceMinor: 7, source: 'new' }));
    dry.insert(ungradedRow({ productId: b.id, observedAt: 5, priceMinor: 7, source: 'new' }));
    expect(await dry.commit()).toEqual({ inserted: 1, duplicates: 2 });
    dry.insert(ungradedRow({ productId: b.id, observedAt: 5, priceMinor: 7, source: 'new' }));
    expect(await dry.commit()).toEqual({ inserted: 0, duplicates: 1 });
    await dry.close();

    const entry = (await store.products.catalog()).find((e) => e.product_key === a.productKey)!;
    expect(entry).toMatchObject({ observation_count: 2, earliest_observation: '1970-01-01' });
    expect(await store.inventory()).toMatchObject({ products: 300, observations: 20_003 });

    const sqliteA = (await sqlite.products.findByKey(a.productKey))!.id;
    const sqliteB = (await sqlite.products.findByKey(b.productKey))!.id;
    await writeObservations(
      sqlite,
      rows.map((r) => ({ ...r, productId: r.productId === a.id ? sqliteA : sqliteB })),
    );
    const sqliteWriter = await sqlite.openIngest({ dryRun: false });
    bulk(sqliteWriter, sqliteB, 1);
    await sqliteWriter.commit();
    await sqliteWriter.close();
    const range = {
      windowStart: 1_500,
      asOf: 50_000,
      lookbackStart: 500,
      depthPerCondition: 3,
      priorPerCondition: 2,
    };
    expect(await store.pricePoints.read(b.id, range)).toEqual(await sqlite.pricePoints.read(sqliteB, range));
    const ranges = [range, { ...range, windowStart: 20_000, asOf: 25_000, lookbackStart: 15_000 }];
    expect(await store.pricePointSeries.readSeries(b.id, ranges)).toEqual(
      await sqlite.pricePointSeries.readSeries(sqliteB, ranges),
    );
  });

  it('runs a rollback in turn: rows handed in while it runs wait for its ROLLBACK and commit with the next batch', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const c = (await store.products.findByKey(products[2]!.productKey))!;
      // Enough rows that the COPY is open (its text is sent in chunks) when the rollback comes.
      const rows = (writer: IngestWriter, from: number) => {
        for (let i = from; i < from + 5_000; i += 1)
          writer.insert(
            ungradedRow({
              productId: c.id,
              observedAt: 100_000 + i,
              priceMinor: 3,
              source: 'late',
              externalId: `r-${i}`,
            }),
          );
      };
      const writer = await store.openIngest({ dryRun: false });
      rows(writer, 0);
      const rolledBack = writer.rollback();
      // A parse worker's last messages, arriving after the failure that asked for the rollback.
      rows(writer, 5_000);
      await rolledBack;
      expect(await writer.commit()).toEqual({ inserted: 5_000, duplicates: 0 });
      await writer.close();
      const stored = await selectRows<{ n: number; low: number }>(
        storeUrl,
        `SELECT count(*) AS n, min(observed_at) AS low FROM observations WHERE source = 'late'`,
      );
      expect(stored).toEqual([{ n: 5_000, low: 105_000 }]);
      // node-postgres warns when a query is asked for while another is still queued on the client.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it("keeps a product's points in the server's store until the data version moves: on a write by any tool, or a lost listening connection", async () => {
    const d = (await store.products.findByKey(products[3]!.productKey))!;
    const server = await openStore(storeUrl, { readonly: true });
    const raw = new pg.Client({ connectionString: storeUrl });
    await raw.connect();
    try {
      const version = async () =>
        Number((await raw.query('SELECT version FROM data_version')).rows[0].version);
      const range = {
        windowStart: 0,
        asOf: 10_000,
        lookbackStart: 0,
        depthPerCondition: 5,
        priorPerCondition: 5,
      };
      const prices = async () => (await server.pricePoints.read(d.id, range)).map((x) => x.priceMinor);
      /** An insert as psql makes it; `setting`: a statement before it in its transaction. */
      const insert = (price: number, setting = '') =>
        raw.query(`BEGIN; ${setting} INSERT INTO observations (product_id, condition, observed_at, price_minor, source, grader)
          VALUES (${d.id}, 'ungraded', ${price}, ${price}, 'psql', 'ungraded'); COMMIT`);
      expect(await prices()).toEqual([]);
      // An ingest's batch bumps the version once (the trigger stands aside), a batch of duplicates not at all.
      const before = await version();
      let seen = server.dataVersion();
      const sale = {
        productId: d.id,
        productKey: d.productKey,
        source: 'shop',
        observedAt: 500,
        priceMinor: 500,
        grader: 'ungraded',
        grade: null,
        externalId: 's1',
      };
      await writeObservations(store, [sale]);
      expect(await version()).toBe(before + 1);
      await writeObservations(store, [sale]);
      expect(await version()).toBe(before + 1);
      await versionMoves(server, seen);
      expect(await prices()).toEqual([500]);
      // psql's insert: the trigger bumps the version and notifies; the server reads the product again.
      seen = server.dataVersion();
      await insert(1_000);
      expect(await version()).toBe(before + 2);
      await versionMoves(server, seen);
      expect(await prices()).toEqual([500, 1_000]);
      // A commit whose notification never comes (as while the listening connection is down):
      // the kept points are still served, until the connection is lost and the product read again.
      seen = server.dataVersion();
      await insert(2_000, "SET LOCAL oracle.bumps_version = 'on';");
      expect(await prices()).toEqual([500, 1_000]);
      const cut = await raw.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'oracle listen' AND datname = current_database()",
      );
      expect(cut.rowCount).toBe(1);
      await versionMoves(server, seen);
      expect(await prices()).toEqual([500, 1_000, 2_000]);
    } finally {
      await raw.end();
      await server.close();
    }
  });

  it("keeps a product's tail: answers the ranges it holds every point of, no other, nor a tail over its limit; reads again when the version moves", async () => {
    const e = (await store.products.findByKey(products[4]!.productKey))!;
    const sale = (t: number) => ({
      productId: e.id,
      productKey: e.productKey,
      source: 'shop',
      observedAt: t,
      priceMinor: t,
      grader: 'ungraded',
      grade: null,
      externalId: `e${t}`,
    });
    await writeObservations(store, [sale(100), sale(200), sale(300)]);
    const pool = createPool(storeUrl);
    let version = 0;
    let reads = 0;
    const readTail = readProductTail(createSession(pool, storeUrl));
    const cache = (maxPointsPerProduct: number) =>
      createPointCache(
        (...args) => ((reads += 1), readTail(...args)),
        () => version,
        { maxPointsPerProduct, maxPoints: 100 },
      );
    const prices = (points: { priceMinor: number }[] | undefined) => points?.map((x) => x.priceMinor);
    try {
      // The tail from 250 on (300), and the latest point before it (200).
      const range = {
        lookbackStart: 250 + TAIL_SLACK_MS,
        windowStart: 250 + TAIL_SLACK_MS,
        asOf: 400 + TAIL_SLACK_MS,
        depthPerCondition: 1,
        priorPerCondition: 1,
      };
      expect(await cache(0).read(e.id, range)).toBeUndefined();
      const tail = cache(1);
      reads = 0;
      for (const answered of [
        range,
        { ...range, priorPerCondition: 2 },
        { ...range, lookbackStart: range.lookbackStart + 1 },
      ]) {
        expect(await tail.read(e.id, answered)).toEqual(await store.pricePoints.read(e.id, answered));
      }
      expect(prices(await tail.read(e.id, { ...range, priorPerCondition: 2 }))).toEqual([200, 300]);
      expect(reads).toBe(1);
      // A third point before the lookback, a lookback before the tail: not kept, so the database's to answer.
      expect(await tail.read(e.id, { ...range, priorPerCondition: 3 })).toBeUndefined();
      expect(await tail.read(e.id, { ...range, lookbackStart: 200 })).toBeUndefined();
      version += 1;
      expect(prices(await tail.read(e.id, range))).toEqual([300]);
      expect(reads).toBe(2);
    } finally {
      await pool.end();
    }
  });

  it('refuses a database a newer oracle migrated further, also when asked to create', async () => {
    const url = await freshPgDatabase();
    await (await openStore(url, { create: true })).close();
    const known = (
      await selectRows<{ known: number }>(url, 'SELECT count(*) AS known FROM drizzle.__drizzle_migrations')
    )[0]!.known;
    await selectRows(
      url,
      "INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('from a newer oracle', 0) RETURNING id",
    );
    const reason = `the database was made by a newer oracle (schema version ${known + 1}, this one knows ${known})`;
    for (const options of [{}, { create: true }]) {
      await expect(openStore(url, options)).rejects.toMatchObject({ reason, remedy: 'upgrade oracle' });
    }
  });

  it('refuses a database without oracle schema unless asked to create it', async () => {
    const url = await emptyPgDatabase();
    await expect(openStore(url)).rejects.toThrow(
      /has no oracle schema: load data with 'oracle ingest' first/,
    );
    const created = await openStore(url, { create: true });
    expect(await created.inventory()).toEqual({ products: 0, observations: 0, activeKeys: 0 });
    await created.close();
  });
});
