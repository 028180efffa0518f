// @module-tag sqlite-only: names and typos through the CLI: the store's part, the search vocabulary, is in
// the store contract, which runs on both
/**
 * Search that forgives typos, and products named by their name where a key goes, on real card
 * names: the tcgcsv Base Set extract and the pokemontcg.io catalog cut (test/fixtures/README.md),
 * ingested through `oracle ingest` into the run's store (SQLite, or PostgreSQL in the
 * `postgres` project), then searched and priced in process.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { newTestDatabase } from '../_pg.js';
import { runOracle } from '../_cli.js';
import { tempDir } from '../_setup.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
let db: string;
let dir: string;
const cli = (...args: string[]) => runOracle(['--db', db, ...args]);

beforeAll(async () => {
  dir = tempDir();
  db = await newTestDatabase(dir);
  for (const args of [
    [
      '--kind',
      'catalog',
      '--groups',
      join(FIXTURES, 'tcgcsv', 'pokemon-Groups.csv'),
      join(FIXTURES, 'tcgcsv', 'pokemon-base-set-604.ProductsAndPrices.csv'),
    ],
    ['--kind', 'catalog', join(FIXTURES, 'sold-listings', 'catalog.ndjson')],
  ]) {
    const run = await cli('ingest', ...args);
    expect(run.code, run.stderr).toBe(0);
  }
});

/** The product keys of a `catalog --search --json`, best first, and its stderr. */
async function search(q: string): Promise<{ keys: string[]; stderr: string }> {
  const run = await cli('catalog', '--search', q, '--json');
  expect(run.code, run.stderr).toBe(0);
  return {
    keys: (JSON.parse(run.stdout) as { products: { product_key: string }[] }).products.map(
      (p) => p.product_key,
    ),
    stderr: run.stderr,
  };
}

describe.concurrent('catalog --search forgives typos and word order', () => {
  it.each([
    ['charzard', 'charizard', 'ptcg-base1-4'],
    ['pickachu', 'pikachu', 'ptcg-base1-58'],
    ['pikchu', 'pikachu', 'ptcg-base1-58'],
    ['pikahcu', 'pikachu', 'ptcg-base1-58'],
    ['pikachuu', 'pikachu', 'ptcg-base1-58'],
    ['blastiose base', 'blastoise base', 'base-set-blastoise-002-102'],
    ['charzard jungel', 'charizard jungle', null],
  ])('%s: did you mean %s', async (typo, corrected, first) => {
    const exact = await search(corrected);
    const found = await search(typo);
    if (first === null) {
      // The corrected words match no product together: nothing to suggest.
      expect(found).toEqual({ keys: [], stderr: '' });
      return;
    }
    expect(found.stderr).toBe(
      `oracle: no product matches ${JSON.stringify(typo)}; did you mean ${JSON.stringify(corrected)}? Its matches:\n`,
    );
    expect(found.keys).toEqual(exact.keys);
    expect(found.keys).toContain(first);
  });

  it('finds the words in any order and says nothing when they match', async () => {
    const a = await search('base charizard holo');
    const b = await search('holo charizard base');
    expect(a.stderr).toBe('');
    expect(a.keys[0]).toBe('ptcg-base1-4');
    expect([...b.keys].sort()).toEqual([...a.keys].sort());
  });

  it('lists nothing and suggests nothing when no word is close to a catalog word', async () => {
    const run = await cli('catalog', '--search', 'xyzzyq');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^0 products$/m);
  });
});

describe.concurrent('price, history, explain and value take a name that matches one product', () => {
  it('prices the one product a phrase matches', async () => {
    const byName = await cli('price', 'pikachu jungle 1st', '--json');
    expect(byName.code, byName.stderr).toBe(0);
    expect(JSON.parse(byName.stdout).product_key).toBe('ptcg-base2-60-1st-edition');
    const history = await cli('history', 'blastoise 002/102', '--json', '--from', '2d');
    expect(history.code, history.stderr).toBe(0);
    expect(JSON.parse(history.stdout).product_key).toBe('base-set-blastoise-002-102');
    const explain = await cli('explain', 'blastoise 002/102', '--slot', 'PSA 10', '--json');
    expect(explain.code, explain.stderr).toBe(0);
    expect(JSON.parse(explain.stdout)).toMatchObject({
      product_key: 'base-set-blastoise-002-102',
      slot: 'psa10',
    });
  });

  it('lists the candidates, key and name, when a phrase matches several, and exits 2', async () => {
    const run = await cli('price', 'pikachu jungle');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'oracle: "pikachu jungle" names 2 products, not one: give one of their keys\n' +
        '  product key                name\n' +
        '  ptcg-base2-60              Pikachu #60 \u00b7 Common | Jungle\n' +
        '  ptcg-base2-60-1st-edition  Pikachu #60 \u00b7 Common | Jungle | 1st Edition\n',
    );
    const many = await cli('history', 'charizard');
    expect(many.code).toBe(2);
    expect(many.stderr).toMatch(
      /^oracle: "charizard" names \d+ products, not one: give one of their keys\n {2}product key +name\n/,
    );
    // The first 10, then where the rest are; every line within the 80 columns of a pipe.
    const lines = many.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(13);
    expect(lines.at(-1)).toMatch(/^ {2}\.\.\. and \d+ more: oracle catalog --search charizard$/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('suggests the keys of the corrected search for a misspelled name, and exits 2', async () => {
    const run = await cli('explain', 'pickachu jungle', '--slot', 'ungraded');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'oracle: unknown product_key "pickachu jungle" (did you mean "ptcg-base2-60", "ptcg-base2-60-1st-edition"?)\n',
    );
  });

  it('values a collection line named by a phrase, and names the candidates of an ambiguous one', async () => {
    const file = join(dir, 'cards.csv');
    writeFileSync(file, 'product_key,condition,quantity\nblastoise 002/102,PSA 10,1\npikachu jungle,raw,2\n');
    const run = await cli('value', file, '--json');
    expect(run.code).toBe(3);
    const valuation = JSON.parse(run.stdout);
    expect(
      valuation.lines.map((l: { product_key: string; condition: string }) => [l.product_key, l.condition]),
    ).toEqual([['base-set-blastoise-002-102', 'psa10']]);
    expect(valuation.problems).toEqual([
      {
        line: 3,
        reason: expect.stringMatching(
          /^"pikachu jungle" is no product_key and names 2 products, not one: give one of their keys \(ptcg-base2-60, ptcg-base2-60-1st-edition;/,
        ),
      },
    ]);
  });
});
