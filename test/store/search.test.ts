/** Catalog full-text search over a real SQLite file: the FTS5 index, its triggers, quoting and ranking. */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../_setup.js';
import type { Product } from '../../src/domain/product.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { writeObservations, writeProducts } from '../_store.js';

const card = (productKey: string, productName: string, subtitle: string, setName: string): Product => ({
  productKey,
  refsourceId: null,
  productName,
  subtitle,
  setName,
  imageUrl: '',
  productType: 'single_card',
  era: 'vintage',
  releaseDate: null,
  tcgplayerId: null,
});

const CATALOG = [
  card('pokemon-base-set-charizard-4-102', 'Charizard', '4/102 Holo', 'Base Set'),
  card('pokemon-base-set-1st-edition-charizard-4-102', 'Charizard', '4/102 1st Edition Holo', 'Base Set'),
  card('pokemon-base-set-blastoise-2-102', 'Blastoise', '2/102 Holo', 'Base Set'),
  card('pokemon-team-rocket-dark-charizard-4-82', 'Dark Charizard', '4/82 Holo', 'Team Rocket'),
  card('pokemon-151-charizard-ex-199-165', 'Charizard ex', '199/165 Special Illustration Rare', 'Scarlet & Violet 151'),
  card('mtg-arabian-nights-juzam-djinn', 'Juzám Djinn', '', 'Arabian Nights'),
];

describe('catalog search (FTS5)', () => {
  let store: Store;
  let path: string;
  const keys = async (q: string) => (await store.products.catalog(q)).map((e) => e.product_key);

  beforeEach(async () => {
    path = join(tempDir('oracle-search-'), 'oracle.db');
    store = await openStore(path, { create: true });
    await writeProducts(store, CATALOG);
  });
  afterEach(async () => {
    await store.close();
  });

  it('finds words in any order, as prefixes, across name, set, number, subtitle and key', async () => {
    expect(await keys('base charizard 4/102')).toEqual(['pokemon-base-set-charizard-4-102', 'pokemon-base-set-1st-edition-charizard-4-102']);
    expect((await keys('4/102 charizard base')).sort()).toEqual((await keys('base charizard 4/102')).sort());
    expect(await keys('char 4/102')).toHaveLength(2);
    expect(await keys('rocket dark')).toEqual(['pokemon-team-rocket-dark-charizard-4-82']);
    expect(await keys('scarlet 151 ex')).toEqual(['pokemon-151-charizard-ex-199-165']);
    expect(await keys('1st-edition')).toEqual(['pokemon-base-set-1st-edition-charizard-4-102']);
    // Case and diacritics fold: "juzam" finds "Juzám".
    expect(await keys('JUZAM')).toEqual(['mtg-arabian-nights-juzam-djinn']);
  });

  it('ranks by bm25: a name match comes before a key-only match', async () => {
    await writeProducts(store, [card('charizard-tin-2020', 'Collector Tin', 'Promo', 'Tins')]);
    const ranked = await keys('charizard');
    expect(ranked).toHaveLength(5);
    expect(ranked.at(-1)).toBe('charizard-tin-2020');
  });

  it('takes FTS5 syntax as data: quotes, stars, operators and dashes never raise', async () => {
    for (const q of ['"', '*', 'AND', 'OR', 'NOT', '-', '4/102', 'NEAR(a b)', '"unterminated', 'a:b', '^x', '(', ')', "'", '\\', '+']) {
      await expect(store.products.catalog(q), q).resolves.toBeDefined();
      await expect(store.products.keysLike(q, 3), q).resolves.toBeDefined();
    }
    expect(await keys('"')).toEqual([]);
    // "AND" is a word here, and no product has it.
    expect(await keys('AND')).toEqual([]);
    expect(await keys('charizard AND')).toEqual([]);
    expect((await keys('"charizard"')).length).toBe(4);
  });

  it('keeps the index in step with inserts, renames and deletes', async () => {
    await writeProducts(store, [card('pokemon-base-set-charizard-4-102', 'Glurak', '4/102 Holo', 'Grundset')]);
    expect(await keys('glurak grundset')).toEqual(['pokemon-base-set-charizard-4-102']);
    await writeProducts(store, [card('tin-a', 'Collector Tin', '', 'Tins')]);
    await writeProducts(store, [card('tin-a', 'Renamed Box', '', 'Boxes')]);
    expect(await keys('collector')).toEqual([]);
    expect(await keys('renamed box')).toEqual(['tin-a']);
    const raw = new Database(path);
    raw.prepare('DELETE FROM products WHERE product_key = ?').run('pokemon-base-set-blastoise-2-102');
    // The index's own integrity check compares it with the content table.
    expect(() => raw.prepare("INSERT INTO products_fts(products_fts, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
    raw.close();
    expect(await keys('blastoise')).toEqual([]);
  });

  it('leaves the index alone when ingest bumps observation counts', async () => {
    const id = (await store.products.findByKey('pokemon-base-set-blastoise-2-102'))!.id;
    const raw = new Database(path);
    const before = raw.prepare('SELECT count(*) FROM products_fts_data').pluck().get();
    raw.close();
    await writeObservations(store, [
      { productId: id, productKey: 'pokemon-base-set-blastoise-2-102', source: 'ebay', observedAt: 1000, priceMinor: 5, grader: 'ungraded', grade: null, externalId: 'a' },
    ]);
    const after = new Database(path);
    expect(after.prepare('SELECT count(*) FROM products_fts_data').pluck().get()).toBe(before);
    after.close();
  });

  it('limits the results', async () => {
    expect(await store.products.catalog('charizard', 2)).toHaveLength(2);
  });
});
