/**
 * The identity crosswalk (domain/identity.ts) as catalog ingest maintains it: identities stored
 * and found for every scheme, a conflict rejected naming both keys with neither product changed,
 * a value moved by its own product, and a re-run that changes nothing.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { newTestDatabase } from '../_pg.js';
import { runOracle } from '../_cli.js';
import { tempDir } from '../_setup.js';

describe('the identity crosswalk in a catalog ingest', () => {
  let db: string;
  let rejects: string;
  const run = (args: string[], input?: string) => runOracle(['--db', db, ...args], { input });
  const ingest = (csv: string[]) =>
    run(['ingest', '--kind', 'catalog', '--max-rejects', '5', '--rejects', rejects, '-'], csv.join('\n'));
  const owner = async (scheme: Parameters<typeof find>[0], value: string) => find(scheme, value);
  async function find(
    scheme: 'tcgplayer' | 'cardmarket' | 'pricecharting' | 'scryfall' | 'psa_spec',
    value: string,
  ): Promise<string | undefined> {
    const store = await openStore(db);
    try {
      return (await store.products.findByIdentity(scheme, value))?.productKey;
    } finally {
      await store.close();
    }
  }
  const reasons = () =>
    readFileSync(rejects, 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { reason: string }).reason);

  beforeAll(async () => {
    const dir = tempDir('oracle-crosswalk-');
    db = await newTestDatabase(dir);
    rejects = join(dir, 'rejects.ndjson');
    const seed = await ingest([
      'product_key,product_name,tcgplayer_id,printing,cardmarket_id,pricecharting_id,scryfall_id,psa_spec',
      'charity-gym-heroes,Charity,106999,,274235,5123,,',
      'charity-gym-heroes-1st,Charity [1st Edition],106999,1st Edition,274235:foil,,,',
      'black-lotus,Black Lotus,,,,,bd8fa327-dd41-4737-8f19-2cf5eb1f7cdd,12345',
    ]);
    expect(seed.code).toBe(0);
    expect(seed.stdout).toMatch(/inserted 3/);
  });
  beforeEach(() => rmSync(rejects, { force: true }));

  it('finds the product of every scheme, tcgplayer from its tcgplayer_id and printing', async () => {
    expect(await owner('cardmarket', '274235')).toBe('charity-gym-heroes');
    expect(await owner('cardmarket', '274235:foil')).toBe('charity-gym-heroes-1st');
    expect(await owner('pricecharting', '5123')).toBe('charity-gym-heroes');
    expect(await owner('scryfall', 'bd8fa327-dd41-4737-8f19-2cf5eb1f7cdd')).toBe('black-lotus');
    expect(await owner('psa_spec', '12345')).toBe('black-lotus');
    expect(await owner('tcgplayer', '106999')).toBe('charity-gym-heroes');
    expect(await owner('tcgplayer', '106999:1st Edition')).toBe('charity-gym-heroes-1st');
    expect(await owner('cardmarket', '999')).toBeUndefined();
  });

  it('rejects a product claiming a stored identity, naming both keys, and changes neither', async () => {
    const result = await ingest([
      'product_key,product_name,cardmarket_id',
      'charity-copy,Charity copy,274235',
    ]);
    expect(result.stdout).toMatch(/inserted 0, updated 0, duplicates 0, rejected 1/);
    expect(reasons()).toEqual([
      'cardmarket_id 274235 is claimed by product_key "charity-gym-heroes" and product_key "charity-copy": neither is changed',
    ]);
    expect(await owner('cardmarket', '274235')).toBe('charity-gym-heroes');
  });

  it('rejects two new products claiming one identity in one file, and adds neither', async () => {
    const result = await ingest([
      'product_key,product_name,scryfall_id',
      'mox-a,Mox A,0000579f-7b35-4ed3-b44c-db2a538066fe',
      'mox-b,Mox B,0000579f-7b35-4ed3-b44c-db2a538066fe',
    ]);
    expect(result.stdout).toMatch(/read 2, inserted 0, updated 0, duplicates 0, rejected 2/);
    expect(reasons()[0]).toBe(
      'scryfall_id 0000579f-7b35-4ed3-b44c-db2a538066fe is claimed by product_key "mox-a" and product_key "mox-b": neither is changed',
    );
    expect(await owner('scryfall', '0000579f-7b35-4ed3-b44c-db2a538066fe')).toBeUndefined();
  });

  it('counts a re-run as duplicates and lets a product move to another value of a scheme', async () => {
    const again = await ingest(['product_key,product_name,psa_spec', 'black-lotus,Black Lotus,12345']);
    expect(again.stdout).toMatch(/inserted 0, updated 0, duplicates 1, rejected 0/);
    const moved = await ingest(['product_key,product_name,psa_spec', 'black-lotus,Black Lotus,54321']);
    expect(moved.stdout).toMatch(/inserted 0, updated 1, duplicates 0, rejected 0/);
    expect(await owner('psa_spec', '54321')).toBe('black-lotus');
    expect(await owner('psa_spec', '12345')).toBeUndefined();
    expect(await owner('scryfall', 'bd8fa327-dd41-4737-8f19-2cf5eb1f7cdd')).toBe('black-lotus');
  });

  it('refuses an identity that is not an id, saying what it must be', async () => {
    const result = await ingest(['product_key,product_name,cardmarket_id', 'bad,Bad,12 34']);
    expect(result.code).toBe(0);
    expect(reasons()[0]).toMatch(/^cardmarket_id must be an id of letters, digits/);
  });
});
