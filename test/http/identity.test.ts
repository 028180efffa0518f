/**
 * Identity shown over the API (issue 21, 6): the bundle's metadata and the catalog and search
 * bodies carry tcgplayer_id, printing and language as additions beside SPEC.md's fields, and
 * catalog search finds a product by an id typed alone; every response is checked against the
 * served OpenAPI document (startServer). Real rows: test/fixtures/README.md, "Identity".
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOracle } from '../_cli.js';
import { newTestDatabase } from '../_pg.js';
import { tempDir } from '../_setup.js';
import { catalogResponse, pricingBundle, searchResponse } from '../../src/http/schemas.js';
import { ENV_KEY, getJson, startServer, type TestServer } from './_helpers.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/identity');
const KEY = { 'x-api-key': ENV_KEY };
let server: TestServer;
const get = (path: string) => getJson(`${server.url}/api/v1/developer${path}`, KEY);

beforeAll(async () => {
  const db = await newTestDatabase(tempDir('oracle-identity-http-'));
  expect((await runOracle(['--db', db, 'ingest', join(FIXTURES, 'catalog.csv')])).code).toBe(0);
  const prices = [
    '--db',
    db,
    'ingest',
    '--format',
    'tcgplayer',
    '--observed-at',
    '2025-10-20T20:00:00Z',
    join(FIXTURES, 'base-set-604.ProductsAndPrices.csv'),
  ];
  expect((await runOracle(prices)).code).toBe(0);
  server = await startServer({ dbPath: db });
});
afterAll(async () => {
  await server?.close();
});

describe('identity in the API', () => {
  it("adds the product's TCGplayer id, printing and language to the bundle's metadata, SPEC.md's fields unchanged", async () => {
    const bundle = await get('/pricing/pokemon-base-set-1st-edition-alakazam-1?at=2025-10-21T00:00:00Z');
    expect(pricingBundle.parse(bundle).metadata).toEqual({
      product_name: 'Alakazam',
      subtitle: '001/102 Holo Rare',
      set_name: 'Base Set',
      image_url: 'https://tcgplayer-cdn.tcgplayer.com/product/42346_200w.jpg',
      product_type: 'single_card',
      era: 'vintage',
      release_date: '1999-01-09',
      tcgplayer_id: '42346',
      printing: '1st Edition Holofoil',
      language: null,
    });
    const byRefsource = await get('/refsource/630414?at=2025-10-21T00:00:00Z');
    expect(byRefsource).toMatchObject({
      id: '630414',
      product_key: 'pokemon-base-set-alakazam-1',
      metadata: { tcgplayer_id: '42346', printing: null, language: null },
    });
    expect(byRefsource.ungraded.price_minor).toBe(5474);
    expect((await get('/pricing/japanese-sv2a-565243')).metadata).toMatchObject({
      tcgplayer_id: '565243',
      printing: 'Normal',
      language: 'Japanese',
    });
  });

  it('lists the catalog with the additions and finds a product by an id typed alone', async () => {
    const catalog = catalogResponse.parse(await get('/catalog'));
    expect(catalog.products.find((p) => p.product_key === 'japanese-sv2a-565243')).toMatchObject({
      refsource_id: null,
      tcgplayer_id: '565243',
      printing: 'Normal',
      language: 'Japanese',
    });
    const search = searchResponse.parse(await get('/catalog/search?q=42346'));
    expect(search.products.map((p) => [p.product_key, p.printing, p.refsource_id])).toEqual([
      ['pokemon-base-set-1st-edition-alakazam-1', '1st Edition Holofoil', null],
      ['pokemon-base-set-alakazam-1', null, '630414'],
    ]);
    expect(
      (await get('/catalog/search?q=630417')).products.map((p: { product_key: string }) => p.product_key),
    ).toEqual(['pokemon-base-set-charizard-4']);
  });
});
