// @module-tag sqlite-only: feed formats through the built CLI; the rows they make are written by the one IngestWriter whose PostgreSQL path test/ingest/pipeline.test.ts and test/cli/tcgcsv.test.ts run
/**
 * The real-world feeds end to end through the built CLI (`node bin/oracle.js`, run
 * `npm run build` first): a catalog bootstrapped from a PriceCharting download, price-guide
 * quotes of both headers, TCGplayer rows and sold listings, checked with `oracle price --json`.
 * Quotes of one feed are observed weeks apart, so each price checked has one point per cell.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newTestDatabase } from '../_pg.js';
import { runOracle } from '../_cli.js';
import { ROOT, tempDir, type CliResult } from '../_setup.js';

const FIXTURES = join(ROOT, 'test/fixtures');
const PC_NEW = join(FIXTURES, 'pricecharting/price-guide-new-header.csv');
const PC_OLD = join(FIXTURES, 'pricecharting/price-guide-old-header.csv');
const PC_RENAMED = join(FIXTURES, 'pricecharting/price-guide-renamed.csv');
const PC_UNDATED = join(FIXTURES, 'pricecharting/price-guide-undated.csv');
const PC_PRINTINGS = join(FIXTURES, 'pricecharting/price-guide-printings.csv');
const TCG = join(FIXTURES, 'tcgplayer/ProductsAndPrices.csv');
const TCG_PRINTINGS = join(FIXTURES, 'tcgplayer/ProductsAndPrices-printings.csv');
const TCG_CATALOG = join(FIXTURES, 'tcgplayer/catalog-printings.csv');
const SOLD_SEARCH = join(FIXTURES, 'sold-listings/item-sales-search.json');
const SOLD_LATER = join(FIXTURES, 'sold-listings/item-sales-search-later.json');
const SOLD_BROWSE = join(FIXTURES, 'sold-listings/browse-enriched.ndjson');

/** The listings of an item_sales/search response file. */
function soldListings(path: string): Record<string, unknown>[] {
  return (JSON.parse(readFileSync(path, 'utf8')) as { itemSales: Record<string, unknown>[] }).itemSales;
}

const CHARIZARD = 'pokemon-base-set-charizard-4';
const CHARIZARD_EX = 'pokemon-scarlet-and-violet-151-charizard-ex-199';
const ZAPDOS = 'pokemon-scarlet-and-violet-151-zapdos-145';

interface Slot {
  price_minor: number | null;
  included_points: number;
  meta: { source_counts?: Record<string, number> };
}

interface Bundle {
  product_key: string;
  ungraded: Slot;
  graded: Record<string, Record<string, Slot>>;
  metadata: Record<string, unknown>;
}

let db: string;

/** Runs the built CLI on this file's database; `input` is piped to stdin. */
function oracle(args: string[], input?: string): Promise<CliResult> {
  return runOracle(['--db', db, ...args], { input });
}

/** `oracle ingest ...`, which must succeed; returns its summary line. */
async function ingest(...args: string[]): Promise<string> {
  const run = await oracle(['ingest', ...args]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return run.stdout.trim();
}

async function price(productKey: string, at: string): Promise<Bundle> {
  const run = await oracle(['price', productKey, '--json', '--at', at]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Bundle;
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/cli/main.js')))
    throw new Error('run `npm run build` before the CLI tests');
  db = await newTestDatabase(tempDir('oracle-feeds-'));
});

// The steps build on each other's database, in order.
/**
 * A cell priced from its one quote: methodology v2 blends a thin cell with the card's other
 * conditions by precision (docs/methodology.md §6.4), so the price sits near the quote, not on
 * it (this card's ungraded is far below the usual ratio to its PSA 10, so it moves most);
 * 25 % still tells the right quote from a wrong column (Black Label, Pristine: 2x and more).
 */
function expectQuote(priceMinor: number | null | undefined, quote: number): void {
  expect(priceMinor).toBeTypeOf('number');
  expect(Math.abs(priceMinor! / quote - 1)).toBeLessThan(0.25);
}

describe('feeding the oracle from PriceCharting, TCGplayer and sold listings', () => {
  it('bootstraps a catalog from a PriceCharting download with --kind catalog', async () => {
    expect(await ingest('--kind', 'catalog', PC_NEW)).toMatch(
      /read 6, inserted 5, updated 0, duplicates 1, rejected 0/,
    );
    const catalog = JSON.parse((await oracle(['catalog', '--json'])).stdout) as {
      total: number;
      products: Record<string, unknown>[];
    };
    expect(catalog.total).toBe(5);
    expect(catalog.products).toEqual([
      expect.objectContaining({
        product_key: 'pokemon-base-set-booster-box',
        refsource_id: '630500',
        product_type: 'booster_box',
        era: 'vintage',
      }),
      expect.objectContaining({
        product_key: CHARIZARD,
        refsource_id: '630417',
        product_name: 'Charizard #4',
        product_type: 'single_card',
        era: 'vintage',
      }),
      expect.objectContaining({ product_key: CHARIZARD_EX, refsource_id: '5001234', era: 'modern' }),
      expect.objectContaining({
        product_key: 'pokemon-scarlet-and-violet-151-poke-ball-165',
        refsource_id: '5001400',
        product_name: 'Poké Ball #165',
      }),
      expect.objectContaining({ product_key: ZAPDOS, refsource_id: '5001301', earliest_observation: null }),
    ]);
  });

  it('updates nothing when the same catalog is ingested again', async () => {
    expect(await ingest('--kind', 'catalog', PC_NEW)).toMatch(
      /inserted 0, updated 0, duplicates 6, rejected 0/,
    );
  });

  it('keeps the product_key of a product PriceCharting renamed, updating its name', async () => {
    expect(await ingest('--kind', 'catalog', PC_RENAMED)).toMatch(
      /read 1, inserted 0, updated 1, duplicates 0, rejected 0/,
    );
    const catalog = JSON.parse(
      (await oracle(['catalog', '--json', '--search', 'Charizard [Holo]'])).stdout,
    ) as { products: unknown[] };
    expect(catalog.products).toEqual([
      expect.objectContaining({
        product_key: CHARIZARD,
        refsource_id: '630417',
        product_name: 'Charizard [Holo] #4',
      }),
    ]);
    expect(await ingest('--kind', 'catalog', PC_NEW)).toMatch(
      /inserted 0, updated 1, duplicates 5, rejected 0/,
    ); // and back
  });

  it('never guesses an era: an undated stored product keeps its era, an undated new one is rejected', async () => {
    const dir = tempDir('oracle-undated-');
    const run = await oracle([
      'ingest',
      '--kind',
      'catalog',
      '--max-rejects',
      '1',
      '--rejects',
      join(dir, 'rejects.ndjson'),
      PC_UNDATED,
    ]);
    expect(run.stdout).toMatch(/read 2, inserted 0, updated 1, duplicates 0, rejected 1/);
    const reject = JSON.parse(readFileSync(join(dir, 'rejects.ndjson'), 'utf8')) as {
      line: number;
      reason: string;
    };
    expect(reject).toMatchObject({
      line: 3,
      reason: expect.stringMatching(
        /^release-date is empty, so the era \(vintage before 2004, modern after\) cannot be told/,
      ),
    });
    const catalog = JSON.parse((await oracle(['catalog', '--json', '--search', 'Charizard #4'])).stdout) as {
      products: unknown[];
    };
    expect(catalog.products).toEqual([expect.objectContaining({ product_key: CHARIZARD, era: 'vintage' })]);
    expect(await ingest('--kind', 'catalog', PC_NEW)).toMatch(
      /inserted 0, updated 1, duplicates 5, rejected 0/,
    ); // its date back
  });

  it('ingests quotes of the older header, skipping blank prices and ids not in the catalog', async () => {
    const summary = await ingest('--observed-at', '2026-09-01T00:00:00Z', PC_OLD);
    // 9 + 3 quotes, the repeated row's 3 again, 1 quote of an unknown id, 20 blank cells.
    expect(summary).toMatch(
      /read 36, inserted 12, duplicates 3, rejected 0, skipped 21 \(blank price 20, unmapped 1\)/,
    );

    const bundle = await price(CHARIZARD, '2026-09-01T06:00:00Z');
    expectQuote(bundle.ungraded.price_minor, 29662);
    expect(bundle.ungraded.meta.source_counts).toEqual({ pricecharting: 1 });
    expectQuote(bundle.graded.PSA?.['10']?.price_minor, 2964313);
    expectQuote(bundle.graded.BGS?.['10']?.price_minor, 3853600);
    expectQuote(bundle.graded.CGC?.['10']?.price_minor, 718173);
    expectQuote(bundle.graded.SGC?.['10']?.price_minor, 1778600);
    expect(bundle.metadata).toMatchObject({
      set_name: 'Pokemon Base Set',
      era: 'vintage',
      release_date: '1999-01-09',
    });
  });

  it('ingests quotes of the newer header, keeping Pristine and Black Label out of the regular 10s', async () => {
    expect(
      await ingest('--format', 'pricecharting', '--observed-at', '2026-11-20T00:00:00Z', PC_NEW),
    ).toMatch(/inserted 26, duplicates 19, rejected 0, skipped 69 \(blank price 69\)/);
    const bundle = await price(CHARIZARD, '2026-11-20T06:00:00Z');
    expectQuote(bundle.ungraded.price_minor, 31000);
    expect(bundle.ungraded.included_points).toBe(1);
    expectQuote(bundle.graded.PSA?.['10']?.price_minor, 3010000);
    expectQuote(bundle.graded.BGS?.['10']?.price_minor, 3900000); // not the $88,000 Black Label
    expectQuote(bundle.graded.CGC?.['10']?.price_minor, 730000); // not the $52,000 Pristine
    expectQuote(bundle.graded.SGC?.['10']?.price_minor, 1800000);
    expectQuote((await price(CHARIZARD_EX, '2026-11-20T06:00:00Z')).graded.PSA?.['10']?.price_minor, 115000);
  });

  it('adds nothing when the same file is ingested again at the same --observed-at', async () => {
    expect(await ingest('--observed-at', '2026-11-20T00:00:00Z', PC_NEW)).toMatch(
      /read 114, inserted 0, duplicates 45, rejected 0/,
    );
  });

  it('sets printings from PriceCharting tags at catalog bootstrap, reading M/D/YYYY release dates', async () => {
    expect(await ingest('--kind', 'catalog', PC_PRINTINGS)).toMatch(
      /read 2, inserted 2, updated 0, duplicates 0, rejected 0/,
    );
    const catalog = JSON.parse((await oracle(['catalog', '--json', '--search', '[1st Edition]'])).stdout) as {
      products: unknown[];
    };
    expect(catalog.products).toEqual([
      expect.objectContaining({ product_key: 'pokemon-base-set-charizard-1st-edition-4', era: 'vintage' }),
    ]);
  });

  it('puts each TCGplayer printing on the product of that printing, the regular one on the product without a tag', async () => {
    const summary = await ingest('--observed-at', '2026-06-10T20:00:00Z', TCG);
    expect(summary).toMatch(
      /read 5, inserted 3, duplicates 0, rejected 0, skipped 2 \(no market price 1, unmapped 1\)/,
    );
    const zapdos = await price(ZAPDOS, '2026-06-10T21:00:00Z');
    expect(zapdos.ungraded.price_minor).toBe(145); // Holofoil, the regular printing of a holo rare
    expect(zapdos.ungraded.meta.source_counts).toEqual({ tcgplayer: 1 });
    expect(
      (await price('pokemon-scarlet-and-violet-151-zapdos-reverse-holo-145', '2026-06-10T21:00:00Z')).ungraded
        .price_minor,
    ).toBe(210);
    expect((await price(CHARIZARD_EX, '2026-06-10T21:00:00Z')).ungraded.price_minor).toBe(11837);
  });

  it('lands one productId with four printings on four products, and counts a printing without product by name', async () => {
    expect(await ingest(TCG_CATALOG)).toMatch(/read 4, inserted 4, updated 0, duplicates 0, rejected 0/);
    const summary = await ingest(
      '--format',
      'tcgplayer',
      '--observed-at',
      '2026-07-01T20:00:00Z',
      TCG_PRINTINGS,
    );
    expect(summary).toMatch(
      /read 5, inserted 4, duplicates 0, rejected 0, skipped 1 \(no Unlimited Holofoil product 1\)/,
    );
    const at = '2026-07-01T21:00:00Z';
    const prices = await Promise.all(
      ['', '-holo', '-reverse-holo', '-1st-edition'].map(
        async (tag) => (await price(`pokemon-team-rocket-dark-dragonite${tag}-5`, at)).ungraded.price_minor,
      ),
    );
    expect(prices).toEqual([1050, 2499, 3740, 7995]);
  });

  it('reads only the printing --subtype names, still each on its own product', async () => {
    const summary = await ingest(
      '--format',
      'tcgplayer',
      '--subtype',
      'reverse holofoil',
      '--observed-at',
      '2026-08-01T20:00:00Z',
      TCG,
    );
    expect(summary).toMatch(/inserted 1, duplicates 0, rejected 0, skipped 4 \(other printing 4\)/);
    expect(
      (await price('pokemon-scarlet-and-violet-151-zapdos-reverse-holo-145', '2026-08-01T21:00:00Z')).ungraded
        .price_minor,
    ).toBe(210);
  });

  it('prices raw sold listings: graded by the title where the condition says graded, N units for quantity N, lots rejected', async () => {
    const dir = tempDir('oracle-sold-');
    // The listings as the marketplace returned them, each with the product it is a sale of.
    const listings = soldListings(SOLD_SEARCH).map((listing) => ({ ...listing, product_key: CHARIZARD }));
    const file = join(dir, 'charizard-sold.ndjson');
    writeFileSync(file, listings.map((listing) => JSON.stringify(listing)).join('\n'));
    const rejects = join(dir, 'rejects.ndjson');
    const first = await oracle([
      'ingest',
      '--format',
      'sold-listings',
      '--max-rejects',
      '1',
      '--rejects',
      rejects,
      file,
    ]);
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(/read 8, inserted 7, duplicates 0, rejected 1/); // 3 units of the raw listing; the lot rejected
    expect(readFileSync(rejects, 'utf8')).toContain(
      'the title says \\"Lot\\": a lot, not a sale of one card',
    );

    // The day's price-guide quotes (00:00) are in the window too: one point each.
    const bundle = await price(CHARIZARD, '2026-11-20T14:00:00Z');
    expect(bundle.graded.PSA?.['10']?.included_points).toBe(2); // the guide's PSA 10 and the "PSA 10 GEM MINT" sale
    expect(bundle.graded.BGS?.['9']?.included_points).toBe(1); // "Beckett 9" (the guide has no BGS 9)
    // 3 units at $305 and the "PSA 10 READY" raw card, beside the guide's $310; TAG 10 is stored, not priced.
    expect(bundle.ungraded.meta.source_counts).toEqual({ ebay: 4, pricecharting: 1 });

    // Ingesting the same listings again adds nothing.
    expect(
      (await oracle(['ingest', '--format', 'sold-listings', '--max-rejects', '1', file])).stdout,
    ).toMatch(/read 8, inserted 0, duplicates 7, rejected 1/);
  });

  it('stores played raw cards and other graders apart from the near-mint ungraded price, and rejects a lot of slabs', async () => {
    const dir = tempDir('oracle-sold-played-');
    const at = '2026-11-20T14:30:00Z';
    const before = (await price(CHARIZARD, at)).ungraded.meta.source_counts ?? {};
    const sale = (id: string, title: string, value: string, conditionId?: string) => ({
      product_key: CHARIZARD,
      itemId: `v1|2045999${id}|0`,
      title,
      lastSoldDate: '2026-11-20T14:10:00.000Z', // after the 14:00 the next step prices at
      lastSoldPrice: { value, currency: 'USD' },
      ...(conditionId === undefined ? {} : { conditionId }),
    });
    const file = join(dir, 'played.ndjson');
    const listings = [
      sale('01', 'Charizard 4/102 Base Set Holo Unlimited NM', '300.00', '4000'),
      sale('02', 'Charizard 4/102 Base Set Holo Unlimited - LP', '190.00', '4000'),
      sale('03', 'Charizard 4/102 Base Set Holo creased', '45.00'),
      sale('04', 'Charizard Holo Base Set ARS 10 GEM MINT', '5999.00'),
      sale('05', '8x 1996 Pokemon Japanese Charizard No Rarity PSA 1-8', '48913.20'),
    ];
    writeFileSync(file, listings.map((listing) => JSON.stringify(listing)).join('\n'));
    expect(
      (await oracle(['ingest', '--format', 'sold-listings', '--max-rejects', '1', file])).stdout,
    ).toMatch(/read 5, inserted 4, duplicates 0, rejected 1/);
    // Only the near-mint sale joins the ungraded cell; LP, creased and the ARS slab are stored apart.
    const after = (await price(CHARIZARD, at)).ungraded.meta.source_counts ?? {};
    expect(after).toEqual({ ...before, ebay: (before.ebay ?? 0) + 1 });
  });

  it('adds only the units sold since when a listing is read again with a later last sale, from a JSON array', async () => {
    const dir = tempDir('oracle-sold-later-');
    const file = join(dir, 'charizard-sold-later.json');
    writeFileSync(
      file,
      JSON.stringify(soldListings(SOLD_LATER).map((listing) => ({ ...listing, product_key: CHARIZARD }))),
    );
    expect(await ingest('--format', 'sold-listings', file)).toMatch(
      /read 6, inserted 2, duplicates 4, rejected 0/,
    );
    const bundle = await price(CHARIZARD, '2026-11-20T14:00:00Z');
    expect(bundle.ungraded.meta.source_counts).toEqual({ ebay: 6, pricecharting: 1 }); // units 4 and 5 at the later $310
    expect(await ingest('--format', 'sold-listings', file)).toMatch(
      /read 6, inserted 0, duplicates 6, rejected 0/,
    );
  });

  it('takes grader and grade from condition descriptors when a listing carries them, and rejects a price in another currency', async () => {
    const dir = tempDir('oracle-sold-browse-');
    const rejects = join(dir, 'rejects.ndjson');
    const run = await oracle([
      'ingest',
      '--format',
      'sold-listings',
      '--max-rejects',
      '1',
      '--rejects',
      rejects,
      SOLD_BROWSE,
    ]);
    expect(run.stdout).toMatch(/read 5, inserted 4, duplicates 0, rejected 1/);
    expect(readFileSync(rejects, 'utf8')).toContain(
      'no reference rate for GBP on 2026-11-20 or the 7 days before: ingest the ECB rates first',
    );
    const bundle = await price(CHARIZARD_EX, '2026-11-20T12:00:00Z');
    expect(bundle.graded.PSA?.['10']?.included_points).toBe(2); // the guide's $1,150 and the $1,090 sale the descriptors grade PSA 10
    expect(bundle.graded.BGS?.['10']?.included_points ?? 0).toBe(0); // BGS 9.5 is stored, not priced
    expect(bundle.ungraded.meta.source_counts).toEqual({ ebay: 2, pricecharting: 1 }); // conditionId 4000: ungraded, whatever the title hopes
  });

  it('refuses a whole item_sales/search response with the jq line that unwraps it', async () => {
    const run = await oracle(['ingest', '--format', 'sold-listings', SOLD_SEARCH]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^oracle: .*item-sales-search\.json:1: not valid JSON: .* \(is this NDJSON\? a whole item_sales\/search response is not read: give its listings, one per line \(jq -c '\.itemSales\[\]'/,
    );
  });

  it('rejects an --observed-at without a time zone as a usage error', async () => {
    const run = await oracle(['ingest', '--observed-at', '2026-11-20 00:00', PC_NEW]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^oracle: --observed-at "2026-11-20 00:00" has no time zone: add Z or an offset/,
    );
  });
});

describe('identity conflicts in a catalog ingest', () => {
  let conflictsDb: string;
  let rejects: string;
  const run = (args: string[], input?: string) => runOracle(['--db', conflictsDb, ...args], { input });
  const catalog = async () =>
    (
      JSON.parse((await run(['catalog', '--json'])).stdout) as {
        products: { product_key: string; product_name: string; refsource_id: string | null }[];
      }
    ).products;

  beforeAll(async () => {
    const dir = tempDir('oracle-identity-');
    conflictsDb = await newTestDatabase(dir);
    rejects = join(dir, 'rejects.ndjson');
    const seed = [
      'product_key,product_name,refsource_id,tcgplayer_id,printing',
      'zapdos-145,Zapdos #145,5001301,517096,',
      'zapdos-145-reverse,Zapdos [Reverse Holo] #145,5001302,517096,Reverse Holofoil',
    ].join('\n');
    expect((await run(['ingest', '--kind', 'catalog', '-'], seed)).code).toBe(0);
  });
  // --rejects appends: each test reads only its own run's rejects.
  beforeEach(() => rmSync(rejects, { force: true }));

  it('rejects two new products claiming one refsource_id, naming both keys, and adds neither', async () => {
    const file = [
      'product_key,product_name,refsource_id',
      'mew-a,Mew A,777',
      'mew-b,Mew B,777',
      'pikachu,Pikachu,778',
    ].join('\n');
    const result = await run(
      ['ingest', '--kind', 'catalog', '--max-rejects', '5', '--rejects', rejects, '-'],
      file,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/read 3, inserted 1, updated 0, duplicates 0, rejected 2/);
    const reasons = readFileSync(rejects, 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { reason: string }).reason);
    expect(reasons).toEqual([
      'refsource_id 777 is claimed by product_key "mew-a" and product_key "mew-b": neither is changed',
      'refsource_id 777 is claimed by product_key "mew-a" and product_key "mew-b": neither is changed',
    ]);
    expect((await catalog()).map((p) => p.product_key)).toEqual([
      'pikachu',
      'zapdos-145',
      'zapdos-145-reverse',
    ]);
  });

  it('rejects a product claiming the refsource_id of a stored one, which stays as it was', async () => {
    const file = ['product_key,product_name,refsource_id', 'zapdos-copy,Zapdos copy,5001301'].join('\n');
    const result = await run(
      ['ingest', '--kind', 'catalog', '--max-rejects', '5', '--rejects', rejects, '-'],
      file,
    );
    expect(result.stdout).toMatch(/inserted 0, updated 0, duplicates 0, rejected 1/);
    expect(readFileSync(rejects, 'utf8')).toContain(
      'refsource_id 5001301 is claimed by product_key \\"zapdos-145\\" and product_key \\"zapdos-copy\\"',
    );
    expect((await catalog()).find((p) => p.refsource_id === '5001301')?.product_key).toBe('zapdos-145');
  });

  it('rejects two products claiming one (tcgplayer_id, printing), stored or new, and changes neither', async () => {
    const file = [
      'product_key,product_name,refsource_id,tcgplayer_id,printing',
      'zapdos-145,Zapdos renamed,5001301,517096,reverse holofoil',
      'zapdos-145-alt,Zapdos alt,5001303,517096,',
      'zapdos-145-alt2,Zapdos alt 2,5001304,517096,',
    ].join('\n');
    const result = await run(
      ['ingest', '--kind', 'catalog', '--max-rejects', '5', '--rejects', rejects, '-'],
      file,
    );
    expect(result.stdout).toMatch(/read 3, inserted 0, updated 0, duplicates 0, rejected 3/);
    const reasons = readFileSync(rejects, 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { reason: string }).reason);
    expect(reasons).toEqual([
      'tcgplayer_id 517096 with printing "Reverse Holofoil" is claimed by product_key "zapdos-145" and product_key "zapdos-145-reverse": neither is changed',
      'tcgplayer_id 517096 with no printing is claimed by product_key "zapdos-145-alt" and product_key "zapdos-145-alt2": neither is changed',
      'tcgplayer_id 517096 with no printing is claimed by product_key "zapdos-145-alt" and product_key "zapdos-145-alt2": neither is changed',
    ]);
    expect((await catalog()).find((p) => p.product_key === 'zapdos-145')?.product_name).toBe('Zapdos #145');
  });

  it('lets a stored product move to another printing when another takes its old one in the same file', async () => {
    const file = [
      'product_key,product_name,tcgplayer_id,printing',
      'zapdos-145,Zapdos #145,517096,Holofoil',
      'zapdos-145-plain,Zapdos plain #145,517096,Normal',
    ].join('\n');
    expect((await run(['ingest', '--kind', 'catalog', '-'], file)).stdout).toMatch(
      /read 2, inserted 1, updated 1, duplicates 0, rejected 0/,
    );
  });
});
