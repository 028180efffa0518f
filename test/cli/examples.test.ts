// @module-tag sqlite-only: the cron scripts of examples/ (sh, curl and jq around oracle ingest): what they
// ingest runs on both stores in feeds.test.ts and tcgcsv.test.ts
/**
 * The cron scripts of examples/ run as they are (real sh, curl, jq and the built CLI), against
 * a loopback server that serves the fixtures in place of PriceCharting, tcgcsv and eBay.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTestDatabase } from '../_pg.js';
import { runOracle } from '../_cli.js';
import { BIN, ROOT, runCommand, tempDir } from '../_setup.js';

const FIXTURES = join(ROOT, 'test/fixtures');
const EXAMPLES = join(ROOT, 'examples');
const CHARIZARD = 'pokemon-base-set-charizard-4';

let server: Server;
let base: string;
let dir: string;
let db: string;
/** The eBay response file the server answers item_sales/search with. */
let itemSales = 'sold-listings/item-sales-search.json';
const requests: IncomingMessage[] = [];

/** The environment of a script: the oracle shim first on PATH, this file's database, local logs. */
function scriptEnv(extra: Record<string, string>): Record<string, string> {
  return {
    PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`,
    ORACLE_DB: db,
    REJECTS: join(dir, 'rejects.ndjson'),
    ...extra,
  };
}

beforeAll(async () => {
  dir = tempDir('oracle-examples-');
  db = await newTestDatabase(dir);
  const bin = join(dir, 'bin');
  await runCommand('mkdir', [bin]);
  writeFileSync(join(bin, 'oracle'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'oracle'), 0o755);
  server = createServer((request, response) => {
    requests.push(request);
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const file =
      path === '/price-guide.csv'
        ? 'pricecharting/price-guide-new-header.csv'
        : path === '/tcgplayer/3/23237/ProductsAndPrices.csv'
          ? 'tcgplayer/ProductsAndPrices.csv'
          : path === '/tcgplayer/3/604/ProductsAndPrices.csv'
            ? 'tcgcsv/pokemon-base-set-604.ProductsAndPrices.csv'
            : path === '/tcgplayer/3/Groups.csv'
              ? 'tcgcsv/pokemon-Groups.csv'
              : path === '/buy/marketplace_insights/v1_beta/item_sales/search'
                ? itemSales
                : null;
    if (file === null) {
      response.writeHead(404).end();
      return;
    }
    response
      .writeHead(200, { 'content-type': file.endsWith('.json') ? 'application/json' : 'text/csv' })
      .end(readFileSync(join(FIXTURES, file)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the cron scripts of examples/', () => {
  it("pricecharting-nightly.sh updates the catalog and ingests the day's quotes", async () => {
    const run = await runCommand('sh', [join(EXAMPLES, 'pricecharting-nightly.sh')], {
      env: scriptEnv({ PRICECHARTING_CSV_URL: `${base}/price-guide.csv` }),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [catalog, quotes] = run.stdout.trim().split('\n');
    expect(catalog).toMatch(/read 6, inserted 5, updated 0, duplicates 1, rejected 0/);
    expect(quotes).toMatch(/read 114, inserted 26, duplicates 19, rejected 0, skipped 69 \(blank price 69\)/); // the file repeats a row
  });

  it('tcgcsv-daily.sh puts each printing on its product and counts the printing the catalog lacks', async () => {
    const run = await runCommand('sh', [join(EXAMPLES, 'tcgcsv-daily.sh')], {
      env: scriptEnv({ TCGCSV_URL: `${base}/tcgplayer`, TCGCSV_GROUPS: '23237' }),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /read 5, inserted 2, duplicates 0, rejected 0, skipped 3 \(no Reverse Holofoil product 1, no market price 1, unmapped 1\)/,
    );
  });

  it('tcgcsv-daily.sh with TCGCSV_CATALOG=1 builds the catalog from the set files and Groups.csv first (free data only)', async () => {
    // The same set twice: one command, two sources, one fetch of Groups.csv.
    const env = scriptEnv({ TCGCSV_URL: `${base}/tcgplayer`, TCGCSV_GROUPS: '604 604', TCGCSV_CATALOG: '1' });
    const fetched = () => requests.filter((r) => r.url === '/tcgplayer/3/Groups.csv').length;
    const before = fetched();
    const run = await runCommand('sh', [join(EXAMPLES, 'tcgcsv-daily.sh')], { env });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(fetched() - before).toBe(1);
    const [catalog, catalogAgain, quotes, quotesAgain] = run.stdout.trim().split('\n');
    expect(catalog).toMatch(/read 38, inserted 38, updated 0, duplicates 0, rejected 0/);
    expect(catalogAgain).toMatch(/read 38, inserted 0, updated 0, duplicates 38, rejected 0/);
    expect(quotes).toMatch(/read 38, inserted 32, duplicates 0, rejected 0, skipped 6 \(no market price 6\)/);
    expect(quotesAgain).toMatch(
      /read 38, inserted 0, duplicates 32, rejected 0, skipped 6 \(no market price 6\)/,
    );
  });

  it('sold-listings.sh hands the item_sales/search listings to --format sold-listings, adding only new sales on the next run', async () => {
    const watchlist = join(dir, 'watchlist.tsv');
    writeFileSync(
      watchlist,
      `# product_key\tsearch words\n${CHARIZARD}\tcharizard 4/102 base set holo -proxy\n`,
    );
    const env = scriptEnv({ EBAY_API_URL: base, EBAY_TOKEN: 'test-token', WATCHLIST: watchlist });
    const first = await runCommand('sh', [join(EXAMPLES, 'sold-listings.sh')], { env });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/read 8, inserted 7, duplicates 0, rejected 1/);
    const search = requests.find((r) => r.url?.startsWith('/buy/marketplace_insights/'));
    expect(search?.headers.authorization).toBe('Bearer test-token');
    expect(new URL(search?.url ?? '', base).searchParams.get('q')).toBe(
      'charizard 4/102 base set holo -proxy',
    );
    expect(readFileSync(join(dir, 'rejects.ndjson'), 'utf8')).toContain('a lot, not a sale of one card');

    itemSales = 'sold-listings/item-sales-search-later.json';
    const later = await runCommand('sh', [join(EXAMPLES, 'sold-listings.sh')], { env });
    expect(later.code).toBe(0);
    expect(later.stdout).toMatch(/read 6, inserted 2, duplicates 4, rejected 0/);

    const priced = await runOracle([
      '--db',
      db,
      'price',
      CHARIZARD,
      '--json',
      '--at',
      '2026-11-20T14:00:00Z',
    ]);
    const bundle = JSON.parse(priced.stdout) as {
      ungraded: { meta: { source_counts: Record<string, number> } };
      graded: Record<string, Record<string, { included_points: number }>>;
    };
    expect(bundle.graded.PSA?.['10']?.included_points).toBe(1);
    expect(bundle.graded.BGS?.['9']?.included_points).toBe(1);
    expect(bundle.ungraded.meta.source_counts).toEqual({ ebay: 6 });
  });
});
