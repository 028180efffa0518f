/** `oracle catalog` as an analyst runs it: the table, --search and --json. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runOracle } from '../_cli.js';
import { tempDir } from '../_setup.js';
import { newTestDatabase } from '../_pg.js';

const CATALOG = [
  'product_key,refsource_id,product_name,product_type,era,release_date',
  'pokemon-base-set-charizard-4-102,631245,Charizard,single_card,vintage,1999-01-09',
  'pokemon-evolving-skies-booster-box,2512345,Evolving Skies Booster Box,booster_box,modern,2021-08-27',
  'mtg-alpha-black-lotus,1000001,Black Lotus,single_card,vintage,1993-08-05',
].join('\n');
const OBSERVATIONS = [
  'product_key,source,observed_at,price_minor,grader,grade,external_id',
  'pokemon-base-set-charizard-4-102,ebay,2026-03-02T23:30:00-05:00,41000,,,e1',
  'pokemon-base-set-charizard-4-102,ebay,2026-05-01T10:00:00Z,1250000,PSA,9,e2',
  'pokemon-base-set-charizard-4-102,pricecharting,2026-05-02T00:00:00Z,900000,ANY,9,',
  'mtg-alpha-black-lotus,ebay,2026-06-01T10:00:00Z,2500000,,,e3',
].join('\n');

/** These products have no TCGplayer id, printing or language (test/cli/identity.test.ts has some). */
const NO_IDS = { tcgplayer_id: null, printing: null, language: null };

let db: string;
const cli = (...args: string[]) => runOracle(['--db', db, 'catalog', ...args]);

beforeAll(async () => {
  const dir = tempDir();
  db = await newTestDatabase(dir);
  writeFileSync(join(dir, 'catalog.csv'), CATALOG);
  writeFileSync(join(dir, 'obs.csv'), OBSERVATIONS);
  expect((await runOracle(['--db', db, 'ingest', join(dir, 'catalog.csv'), join(dir, 'obs.csv')])).code).toBe(
    0,
  );
});

describe.concurrent('oracle catalog', () => {
  it('lists every product with its name, set, refsource id and observation count, fitted to 80 columns', async () => {
    const result = await cli();
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    // No product has a variant or a TCGplayer id: those columns are left out.
    expect(lines[0]).toMatch(/^product key +name +set +ref id +obs$/);
    expect(lines.slice(1, -1)).toHaveLength(3);
    expect(result.stdout).toMatch(/^pokemon-base-set-charizard-4-102 +Charizard +631245 +3$/m);
    expect(result.stdout).toMatch(
      /^pokemon-evolving-skies-booster-box +Evolving Skies Booster B… +2512345 +0$/m,
    );
    expect(result.stdout).toContain('3 products');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('searches words in any order and by prefix with --search, case-insensitively', async () => {
    const result = await cli('--search', 'LOTUS');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('mtg-alpha-black-lotus');
    expect(result.stdout).not.toContain('charizard');
    expect(result.stdout).toContain('1 product\n');
    const reordered = await cli('--search', 'lot bla', '--json');
    expect(JSON.parse(reordered.stdout).products.map((p: { product_key: string }) => p.product_key)).toEqual([
      'mtg-alpha-black-lotus',
    ]);
  });

  it('takes FTS syntax in --search as text and rejects a blank one', async () => {
    for (const q of ['"', '*', 'AND', '-']) {
      const result = await cli('--search', q, '--json');
      expect(result.code, q).toBe(0);
      expect(JSON.parse(result.stdout), q).toEqual({ total: 0, products: [] });
    }
    const blank = await cli('--search', ' ');
    expect(blank.code).toBe(2);
    expect(blank.stderr).toMatch(/--search is required/);
  });

  it('names close keys when a product key is unknown', async () => {
    const result = await runOracle(['--db', db, 'price', 'pokemon-base-set-charzard-4-102']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /unknown product_key "pokemon-base-set-charzard-4-102" \(did you mean "pokemon-base-set-charizard-4-102"/,
    );
  });

  it('prints exactly the API body with --json: {total, products} with the fields of SPEC.md 2.6 and the identity additions', async () => {
    const result = await cli('--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      total: 3,
      products: [
        {
          product_key: 'mtg-alpha-black-lotus',
          refsource_id: '1000001',
          product_name: 'Black Lotus',
          product_type: 'single_card',
          era: 'vintage',
          earliest_observation: '2026-06-01',
          ...NO_IDS,
        },
        {
          product_key: 'pokemon-base-set-charizard-4-102',
          refsource_id: '631245',
          product_name: 'Charizard',
          product_type: 'single_card',
          era: 'vintage',
          earliest_observation: '2026-03-03',
          ...NO_IDS,
        },
        {
          product_key: 'pokemon-evolving-skies-booster-box',
          refsource_id: '2512345',
          product_name: 'Evolving Skies Booster Box',
          product_type: 'booster_box',
          era: 'modern',
          earliest_observation: null,
          ...NO_IDS,
        },
      ],
    });
  });

  it('gives an empty list, not an error, when nothing matches', async () => {
    const result = await cli('--search', 'no such card', '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ total: 0, products: [] });
  });
});
