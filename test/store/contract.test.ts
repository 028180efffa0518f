/**
 * The store contract: what every store (src/store/store.ts `Store`) answers alike, run
 * unchanged on each (as hono runs one router suite over every router). The vitest project
 * `sqlite` runs it on a SQLite file, `postgres` on a fresh PostgreSQL database
 * (newTestDatabase). How each store does it (migrations, WAL, query plans, FTS5 tables, COPY)
 * is tested apart: sqlite-store.test.ts, connection.test.ts, pg-store.test.ts. The price point
 * readers' contract is price-points.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Product } from '../../src/domain/product.js';
import { catalogBody } from '../../src/service/catalog.js';
import { searchCatalog } from '../../src/service/search.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { newTestDatabase, TEST_STORE } from '../_pg.js';
import { tempDir, testProduct } from '../_setup.js';
import { ungradedRow, writeObservations, writeProducts } from '../_store.js';

const product = (key: string, refsourceId: string | null = null): Product =>
  testProduct({ productKey: key, refsourceId, productName: `Name of ${key}`, subtitle: '' });

const card = (productKey: string, productName: string, subtitle: string, setName: string): Product =>
  testProduct({
    productKey,
    refsourceId: null,
    productName,
    subtitle,
    setName,
    imageUrl: '',
    releaseDate: null,
  });

const DAY = 86_400_000;

describe(`the store contract (${TEST_STORE})`, () => {
  let store: Store;

  beforeEach(async () => {
    store = await openStore(await newTestDatabase(tempDir('oracle-contract-')), { create: true });
  });
  afterEach(async () => {
    await store.close();
  });

  describe('observations', () => {
    it('inserts observations idempotently and keeps the product count and earliest time current', async () => {
      await writeProducts(store, [product('base-charizard', '1001')]);
      const p = (await store.products.findByKey('base-charizard'))!;
      const rows = [
        {
          productId: p.id,
          productKey: p.productKey,
          source: 'ebay',
          observedAt: 5 * DAY,
          priceMinor: 40_000,
          grader: 'PSA',
          grade: 9,
          externalId: 'e1',
        },
        {
          productId: p.id,
          productKey: p.productKey,
          source: 'ebay',
          observedAt: 3 * DAY,
          priceMinor: 30_000,
          grader: 'ungraded',
          grade: null,
          externalId: null,
        },
      ];
      expect(await writeObservations(store, rows)).toEqual({ inserted: 2, duplicates: 0 });
      // Same external id with another price is the same sale: a duplicate, not an update.
      expect(await writeObservations(store, [{ ...rows[0]!, priceMinor: 1 }, rows[1]!])).toEqual({
        inserted: 0,
        duplicates: 2,
      });
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
          tcgplayer_id: null,
          printing: null,
          language: null,
          observation_count: 2,
        },
      ]);
      expect(await store.inventory()).toEqual({ products: 1, observations: 2, activeKeys: 0 });
    });

    it('tells a dry run which records an insert would add, without writing, a repeated record once', async () => {
      await writeProducts(store, [product('p')]);
      const productId = (await store.products.findByKey('p'))!.id;
      /** What a dry run's batch of these records would insert. */
      const dryRun = async (records: [source: string, externalId: string][]) => {
        const writer = await store.openIngest({ dryRun: true });
        try {
          for (const [source, externalId] of records)
            writer.insert(ungradedRow({ productId, observedAt: DAY, priceMinor: 100, source, externalId }));
          return await writer.commit();
        } finally {
          await writer.close();
        }
      };
      expect(
        await dryRun([
          ['ebay', 'x'],
          ['ebay', 'x'],
          ['pricecharting', ''],
          ['pricecharting', ''],
        ]),
      ).toEqual({ inserted: 2, duplicates: 2 });
      expect((await store.products.catalog())[0]!.observation_count).toBe(0);
      expect(
        await dryRun([
          ['ebay', 'x'],
          ['pricecharting', ''],
        ]),
      ).toEqual({ inserted: 2, duplicates: 0 });
      // What is already stored is not new either, for both kinds of identity.
      const o = {
        productId,
        productKey: 'p',
        source: 'ebay',
        observedAt: DAY,
        priceMinor: 100,
        grader: 'ungraded',
        grade: null,
        externalId: 'y',
      };
      await writeObservations(store, [o, { ...o, source: 'tcgplayer', externalId: null }]);
      expect(
        await dryRun([
          ['ebay', 'y'],
          ['tcgplayer', ''],
        ]),
      ).toEqual({ inserted: 0, duplicates: 2 });
    });

    it('tells records apart by (source, external id) when they have one and by all fields when not', async () => {
      await writeProducts(store, [product('p')]);
      const productId = (await store.products.findByKey('p'))!.id;
      const sale = {
        productId,
        productKey: 'p',
        source: 'ebay',
        observedAt: DAY,
        priceMinor: 100,
        grader: 'PSA',
        grade: 10,
        externalId: 'a',
      };
      // Two sales alike in every field but their ids are two sales.
      expect(await writeObservations(store, [sale, { ...sale, externalId: 'b' }])).toEqual({
        inserted: 2,
        duplicates: 0,
      });
      // The same id from another source is another sale.
      expect(await writeObservations(store, [{ ...sale, source: 'tcgplayer' }])).toEqual({
        inserted: 1,
        duplicates: 0,
      });
      // A quote without an id is new when any field differs, a duplicate when none does.
      const quote = { ...sale, source: 'pricecharting', externalId: null };
      expect(
        await writeObservations(store, [quote, quote, { ...quote, grade: 9 }, { ...quote, priceMinor: 101 }]),
      ).toEqual({
        inserted: 3,
        duplicates: 1,
      });
    });

    it('resolves the products a batch upserts before it commits, and commits them with it', async () => {
      const writer = await store.openIngest({ dryRun: false });
      writer.upsertProducts([
        testProduct({ productKey: 'new-card', refsourceId: '999999', tcgplayerId: '77' }),
      ]);
      const provisional = writer.products.findByKey('new-card')!;
      expect(writer.products.findByRefsourceId('999999')).toEqual(provisional);
      expect(writer.products.findByTcgplayerId('77')).toEqual([provisional]);
      writer.insert(
        ungradedRow({ productId: provisional.id, observedAt: 1_000, priceMinor: 5, source: 'shop' }),
      );
      expect(await writer.commit()).toEqual({ inserted: 1, duplicates: 0 });
      const stored = (await store.products.findByKey('new-card'))!;
      expect(writer.products.findByKey('new-card')!.id).toBe(stored.id);
      // A row handed in with the id the resolver kept from before the commit still lands on the product.
      writer.insert(
        ungradedRow({ productId: provisional.id, observedAt: 2_000, priceMinor: 5, source: 'shop' }),
      );
      expect(await writer.commit()).toEqual({ inserted: 1, duplicates: 0 });
      await writer.close();
      expect((await store.products.catalog('new card'))[0]).toMatchObject({
        product_key: 'new-card',
        observation_count: 2,
      });
    });
  });

  describe('products', () => {
    it('updates an existing product on upsert and keeps its tcgplayer id when the update has none', async () => {
      await writeProducts(store, [{ ...product('p', '7'), tcgplayerId: '555' }]);
      await writeProducts(store, [{ ...product('p', '7'), productName: 'Renamed' }]);
      const [p] = await store.products.findByTcgplayerId('555');
      if (p === undefined) throw new Error('no product of tcgplayer id 555');
      expect(p.productName).toBe('Renamed');
      expect(p.tcgplayerId).toBe('555');
      expect((await store.products.findByRefsourceId('7'))?.productKey).toBe('p');
    });

    it('pages through the catalog by id after a cursor', async () => {
      await writeProducts(
        store,
        ['a', 'b', 'c', 'd', 'e'].map((key) => product(key)),
      );
      expect(await store.products.count()).toBe(5);
      const first = await store.products.pageAfter(0, 2);
      const rest = await store.products.pageAfter(first.at(-1)!.id, 10);
      expect([...first, ...rest].map((p) => p.productKey)).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect((await store.products.all()).map((p) => p.productKey)).toEqual(['a', 'b', 'c', 'd', 'e']);
    });

    it('builds the catalog JSON byte for byte as the API serialises catalogBody', async () => {
      await writeProducts(store, [
        product('zeta "quoted" é', '3'),
        product('alpha_1', null),
        { ...product('mid%', '9'), tcgplayerId: '565243', printing: 'Normal', language: 'Japanese' },
      ]);
      const p = (await store.products.findByKey('alpha_1'))!;
      await writeObservations(store, [
        {
          productId: p.id,
          productKey: 'alpha_1',
          source: 'ebay',
          observedAt: Date.parse('2025-12-31T23:59:59Z'),
          priceMinor: 5,
          grader: 'ungraded',
          grade: null,
          externalId: 'x',
        },
      ]);
      expect(await store.products.catalogJson()).toBe(
        JSON.stringify(catalogBody(await store.products.catalog())),
      );
      expect(JSON.parse(await store.products.catalogJson()).products[0].earliest_observation).toBe(
        '2025-12-31',
      );
    });
  });

  describe('products active in a range (oracle movers)', () => {
    it("counts each product's observations of one condition in [from, to) and keeps those with enough, by id", async () => {
      await writeProducts(store, [product('a'), product('b'), product('c')]);
      const [a, b, c] = await Promise.all(
        ['a', 'b', 'c'].map(async (k) => (await store.products.findByKey(k))!),
      );
      const rows = [];
      // a: 3 ungraded in [10, 13) days; b: 2 ungraded inside, one at `to` itself (outside), 3 PSA 10; c: nothing in range.
      for (let i = 0; i < 3; i++)
        rows.push({
          productId: a!.id,
          productKey: 'a',
          source: 'ebay',
          observedAt: (10 + i) * DAY,
          priceMinor: 100,
          grader: 'ungraded',
          grade: null,
          externalId: `a${i}`,
        });
      for (let i = 0; i < 2; i++)
        rows.push({
          productId: b!.id,
          productKey: 'b',
          source: 'ebay',
          observedAt: (11 + i) * DAY,
          priceMinor: 100,
          grader: 'ungraded',
          grade: null,
          externalId: `b${i}`,
        });
      rows.push({
        productId: b!.id,
        productKey: 'b',
        source: 'ebay',
        observedAt: 13 * DAY,
        priceMinor: 100,
        grader: 'ungraded',
        grade: null,
        externalId: 'b-end',
      });
      for (let i = 0; i < 3; i++)
        rows.push({
          productId: b!.id,
          productKey: 'b',
          source: 'ebay',
          observedAt: (10 + i) * DAY,
          priceMinor: 900,
          grader: 'PSA',
          grade: 10,
          externalId: `bp${i}`,
        });
      for (let i = 0; i < 5; i++)
        rows.push({
          productId: c!.id,
          productKey: 'c',
          source: 'ebay',
          observedAt: i * DAY,
          priceMinor: 100,
          grader: 'ungraded',
          grade: null,
          externalId: `c${i}`,
        });
      await writeObservations(store, rows);
      const active = async (condition: string, min: number) =>
        (await store.products.activeIn(condition, 10 * DAY, 13 * DAY, min)).map((p) => [
          p.productKey,
          p.observations,
        ]);
      expect(await active('ungraded', 1)).toEqual([
        ['a', 3],
        ['b', 2],
      ]);
      expect(await active('ungraded', 3)).toEqual([['a', 3]]);
      expect(await active('psa10', 3)).toEqual([['b', 3]]);
      expect(await active('bgs9', 1)).toEqual([]);
      expect((await store.products.activeIn('ungraded', 10 * DAY, 13 * DAY, 3))[0]).toMatchObject({
        id: a!.id,
        productName: 'Name of a',
      });
    });
  });

  describe('product identity', () => {
    // Real rows: tcgcsv's Base Set file (productId 42346 in two printings, 42347), PriceCharting's
    // ids of the same cards (630414, 630423; Charizard 630417 with no TCGplayer id), and a
    // Pokemon Japan product of SV2a (test/fixtures/README.md, "Identity").
    const IDENTITY: Product[] = [
      {
        ...card('pokemon-base-set-alakazam-1', 'Alakazam', '001/102 Holo Rare', 'Base Set'),
        refsourceId: '630414',
        tcgplayerId: '42346',
      },
      {
        ...card('pokemon-base-set-1st-edition-alakazam-1', 'Alakazam', '001/102 Holo Rare', 'Base Set'),
        tcgplayerId: '42346',
        printing: '1st Edition Holofoil',
      },
      {
        ...card('pokemon-base-set-mewtwo-10', 'Mewtwo', '010/102 Holo Rare', 'Base Set'),
        refsourceId: '630423',
        tcgplayerId: '42347',
      },
      { ...card('pokemon-base-set-charizard-4', 'Charizard', '4/102', 'Base Set'), refsourceId: '630417' },
      {
        ...card('japanese-sv2a-565243', 'Product 565243', '', 'SV2a: Pokemon Card 151'),
        era: 'modern',
        tcgplayerId: '565243',
        printing: 'Normal',
        language: 'Japanese',
      },
    ];
    const keys = async (q: string, limit?: number) =>
      (await store.products.catalog(q, limit)).map((e) => e.product_key);

    beforeEach(async () => {
      await writeProducts(store, IDENTITY);
    });

    it('reads every product with its TCGplayer id, printing and language (null: English, regular printing)', async () => {
      const identity = (await store.products.catalog()).map(
        ({ product_key, refsource_id, tcgplayer_id, printing, language }) => ({
          product_key,
          refsource_id,
          tcgplayer_id,
          printing,
          language,
        }),
      );
      expect(identity).toEqual([
        {
          product_key: 'japanese-sv2a-565243',
          refsource_id: null,
          tcgplayer_id: '565243',
          printing: 'Normal',
          language: 'Japanese',
        },
        {
          product_key: 'pokemon-base-set-1st-edition-alakazam-1',
          refsource_id: null,
          tcgplayer_id: '42346',
          printing: '1st Edition Holofoil',
          language: null,
        },
        {
          product_key: 'pokemon-base-set-alakazam-1',
          refsource_id: '630414',
          tcgplayer_id: '42346',
          printing: null,
          language: null,
        },
        {
          product_key: 'pokemon-base-set-charizard-4',
          refsource_id: '630417',
          tcgplayer_id: null,
          printing: null,
          language: null,
        },
        {
          product_key: 'pokemon-base-set-mewtwo-10',
          refsource_id: '630423',
          tcgplayer_id: '42347',
          printing: null,
          language: null,
        },
      ]);
      expect(await store.products.findByKey('japanese-sv2a-565243')).toMatchObject({
        tcgplayerId: '565243',
        printing: 'Normal',
        language: 'Japanese',
      });
      expect(await store.products.catalogJson()).toBe(
        JSON.stringify(catalogBody(await store.products.catalog())),
      );
    });

    it('finds a product by its TCGplayer id, its refsource id or its key, exactly, before the text matches', async () => {
      // A TCGplayer id names every printing of the card.
      expect(await keys('42346')).toEqual([
        'pokemon-base-set-1st-edition-alakazam-1',
        'pokemon-base-set-alakazam-1',
      ]);
      expect(await keys(' 630414 ')).toEqual(['pokemon-base-set-alakazam-1']);
      expect(await keys('630417')).toEqual(['pokemon-base-set-charizard-4']);
      expect(await keys('565243')).toEqual(['japanese-sv2a-565243']);
      // An id is matched whole, never as a prefix.
      expect(await keys('4234')).toEqual([]);
      expect(await keys('42346 alakazam')).toEqual([]);
      // The key itself first, then what its words match.
      expect(await keys('pokemon-base-set-alakazam-1')).toEqual(['pokemon-base-set-alakazam-1']);
      expect(await keys('alakazam')).toHaveLength(2);
      expect(await keys('42346', 1)).toEqual(['pokemon-base-set-1st-edition-alakazam-1']);
    });

    it('keeps the language a record states and takes a record without one as English', async () => {
      await writeProducts(store, [{ ...IDENTITY[4]!, productName: 'Renamed' }]);
      expect((await store.products.findByKey('japanese-sv2a-565243'))?.language).toBe('Japanese');
      await writeProducts(store, [{ ...IDENTITY[4]!, language: null }]);
      expect((await store.products.findByKey('japanese-sv2a-565243'))?.language).toBeNull();
    });
  });

  describe('catalog search', () => {
    const CATALOG = [
      card('pokemon-base-set-charizard-4-102', 'Charizard', '4/102 Holo', 'Base Set'),
      card('pokemon-base-set-1st-edition-charizard-4-102', 'Charizard', '4/102 1st Edition Holo', 'Base Set'),
      card('pokemon-base-set-blastoise-2-102', 'Blastoise', '2/102 Holo', 'Base Set'),
      card('pokemon-team-rocket-dark-charizard-4-82', 'Dark Charizard', '4/82 Holo', 'Team Rocket'),
      card(
        'pokemon-151-charizard-ex-199-165',
        'Charizard ex',
        '199/165 Special Illustration Rare',
        'Scarlet & Violet 151',
      ),
      card('mtg-arabian-nights-juzam-djinn', 'Juzám Djinn', '', 'Arabian Nights'),
    ];
    const keys = async (q: string) => (await store.products.catalog(q)).map((e) => e.product_key);

    beforeEach(async () => {
      await writeProducts(store, CATALOG);
    });

    it('finds words in any order, as prefixes, across name, set, number, subtitle and key', async () => {
      expect(await keys('base charizard 4/102')).toEqual([
        'pokemon-base-set-charizard-4-102',
        'pokemon-base-set-1st-edition-charizard-4-102',
      ]);
      expect((await keys('4/102 charizard base')).sort()).toEqual(
        (await keys('base charizard 4/102')).sort(),
      );
      expect(await keys('char 4/102')).toHaveLength(2);
      expect(await keys('rocket dark')).toEqual(['pokemon-team-rocket-dark-charizard-4-82']);
      expect(await keys('scarlet 151 ex')).toEqual(['pokemon-151-charizard-ex-199-165']);
      expect(await keys('1st-edition')).toEqual(['pokemon-base-set-1st-edition-charizard-4-102']);
      // Case and diacritics fold: "juzam" finds "Juzám".
      expect(await keys('JUZAM')).toEqual(['mtg-arabian-nights-juzam-djinn']);
      expect(await keys('BLAST')).toEqual(['pokemon-base-set-blastoise-2-102']);
    });

    it('matches a word longer than 8 characters as its first 8, the longest prefix the index holds', async () => {
      // "charizards" searches as "charizar": the plural finds the card, with no correction needed.
      expect(await searchCatalog(store, 'charizards 4/102')).toMatchObject({ didYouMean: null });
      expect(await keys('charizards 4/102')).toEqual(await keys('charizard 4/102'));
      expect(await keys('blastoisexyz')).toEqual(['pokemon-base-set-blastoise-2-102']);
      // One letter is a prefix too: "d" finds "Dark" and "Djinn".
      expect((await keys('d')).sort()).toEqual([
        'mtg-arabian-nights-juzam-djinn',
        'pokemon-team-rocket-dark-charizard-4-82',
      ]);
    });

    it('matches nothing for punctuation alone', async () => {
      expect(await keys('_')).toEqual([]);
      expect(await keys('"')).toEqual([]);
    });

    it('ranks a name match before a key-only match', async () => {
      await writeProducts(store, [card('charizard-tin-2020', 'Collector Tin', 'Promo', 'Tins')]);
      const ranked = await keys('charizard');
      expect(ranked).toHaveLength(5);
      expect(ranked.at(-1)).toBe('charizard-tin-2020');
    });

    it('takes search syntax as data: quotes, stars, operators and dashes never raise', async () => {
      for (const q of [
        '"',
        '*',
        'AND',
        'OR',
        'NOT',
        '-',
        '4/102',
        'NEAR(a b)',
        '"unterminated',
        'a:b',
        '^x',
        '(',
        ')',
        "'",
        '\\',
        '+',
        '&',
        '|',
        '!',
      ]) {
        await expect(store.products.catalog(q), q).resolves.toBeDefined();
        await expect(store.products.keysLike(q, 3), q).resolves.toBeDefined();
      }
      // "AND" is a word here, and no product has it.
      expect(await keys('AND')).toEqual([]);
      expect(await keys('charizard AND')).toEqual([]);
      expect((await keys('"charizard"')).length).toBe(4);
    });

    it('follows inserts and renames', async () => {
      await writeProducts(store, [
        card('pokemon-base-set-charizard-4-102', 'Glurak', '4/102 Holo', 'Grundset'),
      ]);
      expect(await keys('glurak grundset')).toEqual(['pokemon-base-set-charizard-4-102']);
      await writeProducts(store, [card('tin-a', 'Collector Tin', '', 'Tins')]);
      await writeProducts(store, [card('tin-a', 'Renamed Box', '', 'Boxes')]);
      expect(await keys('collector')).toEqual([]);
      expect(await keys('renamed box')).toEqual(['tin-a']);
    });

    it('limits the results', async () => {
      expect(await store.products.catalog('charizard', 2)).toHaveLength(2);
    });

    it('names close keys for a mistyped one, best first', async () => {
      expect((await store.products.keysLike('pokemon-base-set-charzard-4-102', 2))[0]).toBe(
        'pokemon-base-set-charizard-4-102',
      );
    });

    it('lists the words of the index with how many products hold each, folded as search folds them', async () => {
      const words = await store.products.vocabulary();
      expect(words.map((w) => w.word)).toEqual([...words.map((w) => w.word)].sort());
      expect(words).toContainEqual({ word: 'charizard', products: 4 });
      expect(words).toContainEqual({ word: 'juzam', products: 1 });
      expect(words).toContainEqual({ word: '102', products: 3 });
      expect(words.some((w) => w.word !== w.word.toLowerCase())).toBe(false);
    });

    it('forgives typos: a search that finds nothing answers with its correction', async () => {
      expect(await searchCatalog(store, 'charizard base')).toMatchObject({ didYouMean: null });
      const typo = await searchCatalog(store, 'charzard base');
      expect(typo.didYouMean).toBe('charizard base');
      expect(typo.entries.map((e) => e.product_key).sort()).toEqual([
        'pokemon-base-set-1st-edition-charizard-4-102',
        'pokemon-base-set-charizard-4-102',
      ]);
      expect((await searchCatalog(store, 'blastiose')).entries.map((e) => e.product_key)).toEqual([
        'pokemon-base-set-blastoise-2-102',
      ]);
      expect(await searchCatalog(store, 'zzzzzz')).toEqual({ entries: [], didYouMean: null });
    });
  });

  describe('API keys', () => {
    it('creates, finds by hash, lists oldest first, touches and revokes once', async () => {
      await store.apiKeys.create('key_b', 'second', 'hash-b', 2_000);
      await store.apiKeys.create('key_a', 'first', 'hash-a', 1_000);
      expect(await store.apiKeys.findByHash('hash-a')).toEqual({
        id: 'key_a',
        label: 'first',
        createdAt: 1_000,
        lastUsedAt: null,
        revokedAt: null,
      });
      expect(await store.apiKeys.findByHash('nope')).toBeUndefined();
      await store.apiKeys.touch([
        ['key_a', 5_000],
        ['key_b', 6_000],
      ]);
      expect(await store.inventory()).toMatchObject({ activeKeys: 2 });
      expect(await store.apiKeys.revoke('key_b', 7_000)).toBe(true);
      expect(await store.apiKeys.revoke('key_b', 8_000)).toBe(false);
      expect(await store.apiKeys.revoke('key_none', 8_000)).toBe(false);
      expect(await store.apiKeys.list()).toEqual([
        { id: 'key_a', label: 'first', createdAt: 1_000, lastUsedAt: 5_000, revokedAt: null },
        { id: 'key_b', label: 'second', createdAt: 2_000, lastUsedAt: 6_000, revokedAt: 7_000 },
      ]);
      expect(await store.inventory()).toMatchObject({ activeKeys: 1 });
    });
  });

  describe('reference rates', () => {
    it('adds rates once per currency and day, and reads them back by currency, then day', async () => {
      const rates = [
        { day: '2026-01-05', currency: 'USD', perEuro: 1.1664, source: 'ecb' },
        { day: '2026-01-02', currency: 'USD', perEuro: 1.1721, source: 'ecb' },
        { day: '2026-01-02', currency: 'JPY', perEuro: 183.94, source: 'ecb' },
      ];
      expect(await store.rates.add(rates)).toEqual({ inserted: 3, duplicates: 0 });
      // A corrected value for a stored day is a duplicate: the first rate stored stays.
      expect(await store.rates.add([{ ...rates[0]!, perEuro: 2 }])).toEqual({ inserted: 0, duplicates: 1 });
      expect(await store.rates.all()).toEqual([rates[2], rates[1], rates[0]]);
    });
  });

  describe('calibrations', () => {
    it('gives the newest fit as of an instant (ties: the latest written), and lists them oldest first', async () => {
      expect(await store.calibrations.usableAt(10 * DAY)).toBeNull();
      const early = await store.calibrations.insert(2 * DAY, 100, '{"n":1}');
      const late = await store.calibrations.insert(5 * DAY, 200, '{"n":2}');
      const tie = await store.calibrations.insert(5 * DAY, 300, '{"n":3}');
      expect(await store.calibrations.usableAt(DAY)).toBeNull();
      expect(await store.calibrations.usableAt(3 * DAY)).toEqual({
        id: early,
        asOf: 2 * DAY,
        createdAt: 100,
        body: '{"n":1}',
      });
      expect(await store.calibrations.usableAt(5 * DAY)).toMatchObject({ id: tie, body: '{"n":3}' });
      expect((await store.calibrations.all()).map((c) => c.id)).toEqual([early, late, tie]);
    });
  });

  describe('watch rules and their outbox', () => {
    const definition = {
      label: 'l',
      productKey: 'p',
      slot: 'psa10',
      kind: 'move' as const,
      amountMinor: null,
      percent: 12.5,
      direction: 'down' as const,
      spanMs: 7 * DAY,
      webhookUrl: 'http://127.0.0.1:9/hook',
    };
    const event = (id: string, createdAt: number, webhookUrl: string | null = 'http://127.0.0.1:9/hook') => ({
      id,
      createdAt,
      body: `{"id":"${id}"}`,
      webhookUrl,
    });

    it('records a state change with its event only while the rule is as read, and keeps events by time and rule', async () => {
      const first = await store.watches.add(definition, DAY);
      const second = await store.watches.add({ ...definition, webhookUrl: null }, DAY);
      expect(first).toEqual({
        ...definition,
        id: first.id,
        createdAt: DAY,
        firing: false,
        lastValue: null,
        changedAt: null,
      });
      const fire = (ruleId: number, id: string, webhookUrl?: string | null) => ({
        ruleId,
        wasFiring: false,
        firing: true,
        lastValue: -13.25,
        changedAt: 2 * DAY,
        event: event(id, 2 * DAY, webhookUrl),
      });
      expect(await store.watches.record([fire(second.id, 'evt_b', null), fire(first.id, 'evt_a')])).toEqual([
        'evt_b',
        'evt_a',
      ]);
      // A second check that read the rules before the first committed: nothing applies, nothing is recorded.
      expect(await store.watches.record([fire(first.id, 'evt_c')])).toEqual([]);
      expect((await store.watches.rules()).map((r) => [r.id, r.firing, r.lastValue, r.changedAt])).toEqual([
        [first.id, true, -13.25, 2 * DAY],
        [second.id, true, -13.25, 2 * DAY],
      ]);
      expect((await store.watches.pending()).map((e) => e.id)).toEqual(['evt_a']);
      expect((await store.watches.events(10)).map((e) => [e.id, e.status])).toEqual([
        ['evt_b', 'unsent'],
        ['evt_a', 'pending'],
      ]);

      await store.watches.delivery('evt_a', { attempts: 3, at: 3 * DAY, error: 'HTTP 500' });
      await store.watches.delivery('evt_a', { attempts: 1, at: 4 * DAY, error: null });
      expect(await store.watches.events(1, 'delivered')).toEqual([
        {
          id: 'evt_a',
          ruleId: first.id,
          createdAt: 2 * DAY,
          body: '{"id":"evt_a"}',
          webhookUrl: definition.webhookUrl,
          status: 'delivered',
          attempts: 4,
          lastAttemptAt: 4 * DAY,
          lastError: null,
          deliveredAt: 4 * DAY,
        },
      ]);
      expect(await store.watches.pending()).toEqual([]);
      expect(await store.watches.remove(first.id)).toBe(true);
      expect(await store.watches.remove(first.id)).toBe(false);
      expect((await store.watches.events(10)).length).toBe(2);
    });
  });

  describe('market index definitions', () => {
    const definition = {
      name: 'vintage-psa10',
      label: 'Vintage PSA 10',
      selector: 'era' as const,
      selectorValue: 'vintage',
      slot: 'psa10',
      method: 'chained-jevons' as const,
      baseDate: '2026-01-01',
    };

    it('stores a definition once per name and lists them by name', async () => {
      const stored = await store.indexes.add(definition, DAY);
      expect(stored).toEqual({ ...definition, id: stored!.id, createdAt: DAY });
      expect(await store.indexes.add({ ...definition, label: 'again' }, 2 * DAY)).toBeNull();
      await store.indexes.add(
        { ...definition, name: 'a-sealed', selector: 'product_type', selectorValue: 'booster_box' },
        3 * DAY,
      );
      await store.indexes.add({ ...definition, name: 'a1' }, 3 * DAY);
      expect((await store.indexes.list()).map((i) => i.name)).toEqual(['a-sealed', 'a1', 'vintage-psa10']);
      expect(await store.indexes.byName('vintage-psa10')).toEqual(stored);
      expect(await store.indexes.byName('nope')).toBeUndefined();
    });

    it('keeps every published version of a value and reads the latest, or the latest up to a version', async () => {
      const index = (await store.indexes.add({ ...definition, name: 'versions' }, DAY))!;
      const other = (await store.indexes.add({ ...definition, name: 'versions-other' }, DAY))!;
      const value = (at: number, version: number, v: number) => ({
        at,
        version,
        value: v,
        low: v - 10.25,
        high: v + 10.5,
        priced: 3,
        linked: 2,
        publishedAt: 5 * DAY + version,
      });
      expect(await store.indexes.lastVersion(index.id)).toBe(0);
      expect(await store.indexes.values(index.id, 0, 10 * DAY)).toEqual([]);
      await store.indexes.publish(index.id, [
        value(DAY, 1, 1000),
        value(2 * DAY, 1, 1012.34),
        value(3 * DAY, 1, 999.99),
      ]);
      await store.indexes.publish(index.id, [value(2 * DAY, 2, 1013.01)]);
      await store.indexes.publish(other.id, [value(2 * DAY, 1, 5)]);
      expect(await store.indexes.lastVersion(index.id)).toBe(2);
      expect(await store.indexes.values(index.id, 0, 10 * DAY)).toEqual([
        value(DAY, 1, 1000),
        value(2 * DAY, 2, 1013.01),
        value(3 * DAY, 1, 999.99),
      ]);
      expect(await store.indexes.values(index.id, 2 * DAY, 3 * DAY, 1)).toEqual([
        value(2 * DAY, 1, 1012.34),
        value(3 * DAY, 1, 999.99),
      ]);
      // A version is written once: a second writer of it fails and stores none of its values.
      await expect(
        store.indexes.publish(index.id, [value(4 * DAY, 1, 1), value(2 * DAY, 2, 1)]),
      ).rejects.toThrow();
      expect(await store.indexes.values(index.id, 0, 10 * DAY)).toHaveLength(3);
    });
  });
});
