// @module-tag sqlite-only: the CLI's identity columns; the same identities read from PostgreSQL are test/http/identity.test.ts's
/**
 * Identity shown (issue 21, 6): `oracle catalog` (table, --json, --search by id) and `oracle
 * price` name each product's printing, language, TCGplayer id and refsource id, on real rows:
 * tcgcsv's Base Set file (Alakazam 42346 in its Holofoil and 1st Edition Holofoil printings,
 * Mewtwo 42347), PriceCharting's ids of the same cards, and a Pokemon Japan product
 * (test/fixtures/README.md, "Identity").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CsvParser } from '../../src/domain/csv.js';
import { runOracle } from '../_cli.js';
import { newTestDatabase } from '../_pg.js';
import { tempDir } from '../_setup.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/identity');
const CATALOG = join(FIXTURES, 'catalog.csv');
const PRICES = join(FIXTURES, 'base-set-604.ProductsAndPrices.csv');
/** The file's quotes are as of its archive day, 20:00 UTC (docs/feeds.md). */
const OBSERVED_AT = '2025-10-20T20:00:00Z';

let db: string;
const oracle = (...args: string[]) => runOracle(['--db', db, ...args]);

/** The price file's market price of a productId in a printing, in cents. */
function marketCents(productId: string, printing: string): number {
  const records: string[][] = [];
  const parser = new CsvParser(PRICES, (fields) => records.push(fields));
  parser.push(readFileSync(PRICES, 'utf8'));
  parser.end();
  const [header, ...rows] = records;
  const at = (name: string) => header!.indexOf(name);
  const row = rows.find((r) => r[at('productId')] === productId && r[at('subTypeName')] === printing)!;
  return Math.round(Number(row[at('marketPrice')]) * 100);
}

beforeAll(async () => {
  db = await newTestDatabase(tempDir('oracle-identity-'));
  expect((await oracle('ingest', CATALOG)).code).toBe(0);
  const prices = await oracle('ingest', '--format', 'tcgplayer', '--observed-at', OBSERVED_AT, PRICES);
  expect(prices.code, prices.stderr).toBe(0);
});

describe.concurrent('identity in oracle catalog', () => {
  it("shows each product's variant, TCGplayer id and refsource id in 80 columns, the key whole", async () => {
    const { code, stdout } = await oracle('catalog');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^product key +variant +tcg id +ref id +obs$/);
    expect(stdout).toMatch(/^japanese-sv2a-565243 +Normal JP +565243 +- +0$/m);
    expect(stdout).toMatch(/^pokemon-base-set-1st-edition-alakazam-1 +1st Ed Holo +42346 +- +0$/m);
    expect(stdout).toMatch(/^pokemon-base-set-alakazam-1 +42346 +630414 +1$/m);
    expect(stdout).toMatch(/^pokemon-base-set-charizard-4 +- +630417 +0$/m);
    expect(stdout).toContain('5 products');
  });

  it('prints SPEC.md 2.6 entries plus tcgplayer_id, printing and language with --json', async () => {
    const { code, stdout } = await oracle('catalog', '--json');
    expect(code).toBe(0);
    const body = JSON.parse(stdout);
    expect(body.total).toBe(5);
    expect(body.products).toContainEqual({
      product_key: 'pokemon-base-set-1st-edition-alakazam-1',
      refsource_id: null,
      product_name: 'Alakazam',
      product_type: 'single_card',
      era: 'vintage',
      earliest_observation: null,
      tcgplayer_id: '42346',
      printing: '1st Edition Holofoil',
      language: null,
    });
    expect(body.products).toContainEqual(
      expect.objectContaining({
        product_key: 'pokemon-base-set-alakazam-1',
        refsource_id: '630414',
        tcgplayer_id: '42346',
        printing: null,
        language: null,
        earliest_observation: '2025-10-20',
      }),
    );
    expect(body.products).toContainEqual(
      expect.objectContaining({
        product_key: 'japanese-sv2a-565243',
        tcgplayer_id: '565243',
        printing: 'Normal',
        language: 'Japanese',
      }),
    );
  });

  it('finds products by a TCGplayer id, a refsource id or a key typed alone', async () => {
    const keys = async (q: string) =>
      JSON.parse((await oracle('catalog', '--search', q, '--json')).stdout).products.map(
        (p: { product_key: string }) => p.product_key,
      );
    expect(await keys('42346')).toEqual([
      'pokemon-base-set-1st-edition-alakazam-1',
      'pokemon-base-set-alakazam-1',
    ]);
    expect(await keys('630423')).toEqual(['pokemon-base-set-mewtwo-10']);
    expect(await keys('565243')).toEqual(['japanese-sv2a-565243']);
    expect(await keys('pokemon-base-set-charizard-4')).toEqual(['pokemon-base-set-charizard-4']);
    const table = await oracle('catalog', '--search', '42346');
    expect(table.stdout).toMatch(
      /^pokemon-base-set-1st-edition-alakazam-1 +1st Ed Holo +42346 +- +0\npokemon-base-set-alakazam-1 +42346 +630414 +1\n2 products\n$/m,
    );
  });
});

describe.concurrent('identity in oracle price', () => {
  it('names the printing and language in the header and prices each printing from its own row', async () => {
    // --wide: the identity line whole (80 columns wrap it between its parts).
    const regular = await oracle(
      'price',
      'pokemon-base-set-alakazam-1',
      '--at',
      '2025-10-21T00:00:00Z',
      '--wide',
    );
    expect(regular.code, regular.stderr).toBe(0);
    const [title, ids] = regular.stdout.split('\n');
    expect(title).toBe('Alakazam - 001/102 Holo Rare | regular printing | English');
    expect(ids).toBe(
      'pokemon-base-set-alakazam-1 | Base Set | single_card | vintage | released 1999-01-09 | tcgplayer 42346',
    );
    expect(regular.stdout).toContain(`Ungraded: $${(marketCents('42346', 'Holofoil') / 100).toFixed(2)}`);
    const first = await oracle(
      'price',
      'pokemon-base-set-1st-edition-alakazam-1',
      '--at',
      '2025-10-21T00:00:00Z',
    );
    expect(first.stdout.split('\n')[0]).toBe('Alakazam - 001/102 Holo Rare | 1st Edition Holofoil | English');
    // Its row has no market price (a lowPrice alone): skipped, so this printing has no price.
    expect(first.stdout).toContain('Ungraded: no_observations');
    const japanese = await oracle('price', 'japanese-sv2a-565243', '--json');
    expect(JSON.parse(japanese.stdout).metadata).toMatchObject({
      tcgplayer_id: '565243',
      printing: 'Normal',
      language: 'Japanese',
      set_name: 'SV2a: Pokemon Card 151',
    });
  });

  it('names the variant in oracle history too', async () => {
    const history = await oracle(
      'history',
      'japanese-sv2a-565243',
      '--from',
      '2025-10-01T00:00:00Z',
      '--to',
      '2025-10-21T00:00:00Z',
    );
    expect(history.code, history.stderr).toBe(0);
    expect(history.stdout.split('\n')[0]).toBe('Product 565243 | SV2a: Pokemon Card 151 | Normal | Japanese');
  });

  it('answers an id typed as a key with the keys of its products, never a guess', async () => {
    const result = await oracle('price', '42346');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'unknown product_key "42346" (did you mean "pokemon-base-set-alakazam-1", "pokemon-base-set-1st-edition-alakazam-1"',
    );
    expect((await oracle('price', '630423')).stderr).toContain('(did you mean "pokemon-base-set-mewtwo-10"');
  });
});
