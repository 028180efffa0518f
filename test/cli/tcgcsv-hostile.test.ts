// @module-tag sqlite-only: hostile files refused before anything is stored; what a good file stores runs on both stores in tcgcsv.test.ts
/**
 * tcgcsv files a careless mirror or a hostile one could serve (issue 35 item 8): a prices
 * response that says it failed, a groups file naming one groupId twice, a productId beyond
 * 2^53, a duplicate "results" key. Each is cut from the real Base Set file of the archive
 * (test/fixtures/tcgcsv) and ingested through the CLI in process.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { newTestDatabase } from '../_pg.js';
import { runOracle } from '../_cli.js';
import { ROOT, tempDir, type CliResult } from '../_setup.js';

const FIXTURES = join(ROOT, 'test/fixtures/tcgcsv');
const BASE_SET_CSV = join(FIXTURES, 'pokemon-base-set-604.ProductsAndPrices.csv');
const GROUPS_CSV = join(FIXTURES, 'pokemon-Groups.csv');
const PRICES = readFileSync(join(FIXTURES, 'archive/2025-10-20/3/604/prices'), 'utf8');
const AT = ['--observed-at', '2025-10-20T20:00:00Z'];

let dir: string;
let db: string;

const oracle = (...args: string[]): Promise<CliResult> => runOracle(['--db', db, ...args]);

/** Writes `text` to a file of the test's directory and returns its path. */
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The Base Set response with its envelope's `success` and `errors` placed after its results. */
function withTrailer(trailer: string): string {
  const { results } = JSON.parse(PRICES) as { results: unknown[] };
  return `{"results": ${JSON.stringify(results)}, ${trailer}}`;
}

/** How many quotes the store holds: the same file read again, with --dry-run, counts them as duplicates. */
async function storedQuotes(): Promise<string> {
  const run = await oracle('ingest', '--dry-run', ...AT, file('good.json', PRICES));
  expect(run.code).toBe(0);
  return /would insert (\d+), duplicates (\d+)/.exec(run.stdout)?.slice(1).join('/') ?? run.stdout;
}

beforeEach(async () => {
  dir = tempDir('oracle-tcgcsv-hostile-');
  db = await newTestDatabase(dir);
  const catalog = await oracle('ingest', '--kind', 'catalog', '--groups', GROUPS_CSV, BASE_SET_CSV);
  expect(catalog.code).toBe(0);
});

describe('a prices response that says it failed', () => {
  it.each([
    [
      '"success": false after its results',
      '"success": false, "errors": []',
      /"success": false.*none of its results is stored/,
    ],
    [
      'errors after its results',
      '"success": true, "errors": ["rate limited"]',
      /lists errors, so none of its results is stored: \["rate limited"\]/,
    ],
  ])('commits nothing and says why (%s)', async (_, trailer, reason) => {
    const run = await oracle('ingest', ...AT, file('failed.json', withTrailer(trailer)));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(reason);
    expect(run.stdout).toMatch(/inserted 0,/);
    // All 32 priced results are still new: nothing of the failed response was kept.
    expect(await storedQuotes()).toBe('32/0');
  });

  it('still stores a whole response whose envelope comes after its results', async () => {
    const run = await oracle('ingest', ...AT, file('ok.json', withTrailer('"success": true, "errors": []')));
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/inserted 32, duplicates 0/);
    expect(await storedQuotes()).toBe('0/32');
  });
});

it('refuses a duplicate "results" key, storing nothing of either', async () => {
  const { results } = JSON.parse(PRICES) as { results: { productId: number }[] };
  const later = results.map((r) => ({ ...r, marketPrice: 1 }));
  const text = `{"success": true, "errors": [], "results": ${JSON.stringify(results)}, "results": ${JSON.stringify(later)}}`;
  const run = await oracle('ingest', ...AT, file('twice.json', text));
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/the key "results" is given twice/);
  expect(await storedQuotes()).toBe('32/0');
});

it('rejects a productId beyond 2^53 instead of storing it on the rounded id', async () => {
  // 42346 + 2^53 rounds to 2^53 + 42346 exactly, but 2^53 + 42347 (odd) rounds to a neighbour: never exact.
  const text = PRICES.replace('"productId": 42347,', '"productId": 9007199254782339,');
  expect(text).not.toBe(PRICES);
  const run = await oracle('ingest', ...AT, file('huge.json', text));
  expect(run.code).toBe(3); // more rejects than --max-rejects 0
  expect(run.stdout).toMatch(/inserted 31,/);
  expect(run.stdout).toMatch(/rejected 1,/);
  expect(run.stderr).toMatch(/productId 9007199254782340 is beyond 2\^53/);
});

it('refuses a groups file that lists one groupId twice, naming both groups', async () => {
  const groups = readFileSync(GROUPS_CSV, 'utf8').replace(
    /^604,Base Set,/m,
    '604,Jungle,JU,False,1999-06-16T00:00:00,2025-10-31T18:16:33.227,3\n604,Base Set,',
  );
  const run = await oracle(
    'ingest',
    '--kind',
    'catalog',
    '--groups',
    file('Groups.csv', groups),
    BASE_SET_CSV,
  );
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/groupId 604 is listed twice, as "Jungle" \(line \d+\) and "Base Set"/);
});
