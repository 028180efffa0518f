import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from '../../src/domain/errors.js';
import type { Product } from '../../src/domain/product.js';
import { catalogBody } from '../../src/service/catalog.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { testProduct } from '../_setup.js';
import { writeObservations, writeProducts } from '../_store.js';

const product = (key: string, refsourceId: string | null = null): Product =>
  testProduct({ productKey: key, refsourceId, productName: `Name of ${key}`, subtitle: '' });

const DAY = 86_400_000;

describe('store', () => {
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
    expect(details).toMatch(/SEARCH observations USING (?:COVERING )?INDEX observations_pricing \(product_id=\? AND condition=\? AND observed_at>\? AND observed_at<\?\)/);
    expect(details).not.toMatch(/SCAN observations/);
  });

  it('inserts observations idempotently and keeps the product count and earliest time current', async () => {
    await writeProducts(store, [product('base-charizard', '1001')]);
    const p = (await store.products.findByKey('base-charizard'))!;
    const rows = [
      { productId: p.id, productKey: p.productKey, source: 'ebay', observedAt: 5 * DAY, priceMinor: 40_000, grader: 'PSA', grade: 9, externalId: 'e1' },
      { productId: p.id, productKey: p.productKey, source: 'ebay', observedAt: 3 * DAY, priceMinor: 30_000, grader: 'ungraded', grade: null, externalId: null },
    ];
    expect(await writeObservations(store, rows)).toEqual({ inserted: 2, duplicates: 0 });
    // Same external id with another price is the same sale: a duplicate, not an update.
    expect(await writeObservations(store, [{ ...rows[0]!, priceMinor: 1 }, rows[1]!])).toEqual({ inserted: 0, duplicates: 2 });
    expect(await store.products.catalog()).toEqual([
      {
        product_key: 'base-charizard',
        refsource_id: '1001',
        product_name: 'Name of base-charizard',
        subtitle: '',
        set_name: 'Base Set',
        product_type: 'single_card',
        era: 'vintage',
        earliest_observation: '1970-01-04',
        observation_count: 2,
      },
    ]);
  });

  it('tells a dry run which records an insert would add, without writing, a repeated record once', async () => {
    await writeProducts(store, [product('p')]);
    const productId = (await store.products.findByKey('p'))!.id;
    /** What a dry run's batch of these records would insert. */
    const dryRun = async (records: [source: string, externalId: string][]) => {
      const writer = await store.openIngest({ dryRun: true });
      try {
        for (const [source, externalId] of records) writer.insert(productId, 'ungraded', DAY, 100, source, 'ungraded', null, externalId);
        return await writer.commit();
      } finally {
        await writer.close();
      }
    };
    expect(await dryRun([['ebay', 'x'], ['ebay', 'x'], ['pricecharting', ''], ['pricecharting', '']])).toEqual({ inserted: 2, duplicates: 2 });
    expect((await store.products.catalog())[0]!.observation_count).toBe(0);
    expect(await dryRun([['ebay', 'x'], ['pricecharting', '']])).toEqual({ inserted: 2, duplicates: 0 });
    // What is already stored is not new either, for both kinds of identity.
    const o = { productId, productKey: 'p', source: 'ebay', observedAt: DAY, priceMinor: 100, grader: 'ungraded', grade: null, externalId: 'y' };
    await writeObservations(store, [o, { ...o, source: 'tcgplayer', externalId: null }]);
    expect(await dryRun([['ebay', 'y'], ['tcgplayer', '']])).toEqual({ inserted: 0, duplicates: 2 });
  });

  it('tells records apart by (source, external id) when they have one and by all fields when not', async () => {
    await writeProducts(store, [product('p')]);
    const productId = (await store.products.findByKey('p'))!.id;
    const sale = { productId, productKey: 'p', source: 'ebay', observedAt: DAY, priceMinor: 100, grader: 'PSA', grade: 10, externalId: 'a' };
    // Two sales alike in every field but their ids are two sales.
    expect(await writeObservations(store, [sale, { ...sale, externalId: 'b' }])).toEqual({ inserted: 2, duplicates: 0 });
    // The same id from another source is another sale.
    expect(await writeObservations(store, [{ ...sale, source: 'tcgplayer' }])).toEqual({ inserted: 1, duplicates: 0 });
    // A quote without an id is new when any field differs, a duplicate when none does.
    const quote = { ...sale, source: 'pricecharting', externalId: null };
    expect(await writeObservations(store, [quote, quote, { ...quote, grade: 9 }, { ...quote, priceMinor: 101 }])).toEqual({
      inserted: 3,
      duplicates: 1,
    });
  });

  it('updates an existing product on upsert and keeps its tcgplayer id when the update has none', async () => {
    await writeProducts(store, [{ ...product('p', '7'), tcgplayerId: '555' }]);
    await writeProducts(store, [{ ...product('p', '7'), productName: 'Renamed' }]);
    const [p] = await store.products.findByTcgplayerId('555');
    if (p === undefined) throw new Error('no product of tcgplayer id 555');
    expect(p.productName).toBe('Renamed');
    expect(p.tcgplayerId).toBe('555');
  });

  it('searches the catalog by word prefixes of key or name, case-insensitively; punctuation alone matches nothing', async () => {
    await writeProducts(store, [product('charizard-base'), product('blastoise_base'), product('pikachu')]);
    expect((await store.products.catalog('CHARIZ')).map((e) => e.product_key)).toEqual(['charizard-base']);
    expect(await store.products.catalog('_')).toEqual([]);
    expect((await store.products.catalog('name of p')).map((e) => e.product_key)).toEqual(['pikachu']);
  });

  it('builds the catalog JSON in SQLite byte for byte as the API serialises catalogBody', async () => {
    await writeProducts(store, [product('zeta "quoted" é', '3'), product('alpha_1', null), product('mid%', '9')]);
    const p = (await store.products.findByKey('alpha_1'))!;
    await writeObservations(store, [
      { productId: p.id, productKey: 'alpha_1', source: 'ebay', observedAt: Date.parse('2025-12-31T23:59:59Z'), priceMinor: 5, grader: 'ungraded', grade: null, externalId: 'x' },
    ]);
    expect(await store.products.catalogJson()).toBe(JSON.stringify(catalogBody(await store.products.catalog())));
    expect(JSON.parse(await store.products.catalogJson()).products[0].earliest_observation).toBe('2025-12-31');
  });
});
