/**
 * tcgcsv's real files end to end through the CLI, in process (runOracle; one run of the built
 * CLI, reading stdin): a catalog
 * from ProductsAndPrices.csv and its Groups file, then the same CSV and the raw `prices` JSON
 * of the daily archive as observations, checked against the files' market prices with
 * `oracle price --json`. Fixtures: test/fixtures/tcgcsv (README.md there says where each was cut).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { newTestDatabase, TEST_STORE } from '../_pg.js';
import { runOracle, type OracleRunOptions } from '../_cli.js';
import { ROOT, runCli, tempDir, type CliResult } from '../_setup.js';

const FIXTURES = join(ROOT, 'test/fixtures/tcgcsv');
const BASE_SET_CSV = join(FIXTURES, 'pokemon-base-set-604.ProductsAndPrices.csv');
const GROUPS_CSV = join(FIXTURES, 'pokemon-Groups.csv');
const GROUPS_JSON = join(FIXTURES, 'pokemon-groups.first-63.json');
const ARCHIVE = join(FIXTURES, 'archive');
const prices = (date: string, category: number, group: number) =>
  join(ARCHIVE, date, String(category), String(group), 'prices');

interface PriceResult {
  productId: number;
  marketPrice: number | null;
  subTypeName: string;
}

/** The results of a prices file. */
function results(path: string): PriceResult[] {
  return (JSON.parse(readFileSync(path, 'utf8')) as { results: PriceResult[] }).results;
}

/** Dollars as JSON gives them (`119.17`) in cents, exactly. */
const cents = (dollars: number) => Math.round(dollars * 100);

let db: string;

function oracle(args: string[], options: OracleRunOptions = {}): Promise<CliResult> {
  return runOracle(['--db', db, ...args], options);
}

/** `oracle ingest ...`, which must exit 0; returns its summary line. */
async function ingest(...args: string[]): Promise<string> {
  return ingestAt(undefined, ...args);
}

/** `oracle ingest ...` on a clock of the test's (the real one when undefined), which must exit 0; returns its summary line. */
async function ingestAt(now: number | undefined, ...args: string[]): Promise<string> {
  const run = await oracle(['ingest', ...args], now === undefined ? {} : { now });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return run.stdout.trim();
}

/** The ungraded price of `key` as of `at`: the price and how many points it rests on. */
async function ungraded(
  key: string,
  at: string,
): Promise<{ price_minor: number | null; included_points: number }> {
  const run = await oracle(['price', key, '--json', '--at', at]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return (JSON.parse(run.stdout) as { ungraded: { price_minor: number | null; included_points: number } })
    .ungraded;
}

async function storedProduct(key: string) {
  const store = await openStore(db);
  try {
    return await store.products.findByKey(key);
  } finally {
    await store.close();
  }
}

beforeEach(async () => {
  db = await newTestDatabase(tempDir('oracle-tcgcsv-'));
});

describe('a catalog from ProductsAndPrices.csv and Groups.csv', () => {
  it('makes one product per row (per printing), with set name, date, subtitle, era and printing, and adds nothing the second time', async () => {
    const first = await ingest('--kind', 'catalog', '--groups', GROUPS_CSV, BASE_SET_CSV);
    expect(first).toMatch(/: read 38, inserted 38, updated 0, duplicates 0, rejected 0 in /);
    const again = await ingest('--kind', 'catalog', '--groups', GROUPS_CSV, BASE_SET_CSV);
    expect(again).toMatch(/: read 38, inserted 0, updated 0, duplicates 38, rejected 0 in /);

    expect(await storedProduct('base-set-alakazam-001-102')).toMatchObject({
      productName: 'Alakazam',
      subtitle: '001/102 Holo Rare',
      setName: 'Base Set',
      imageUrl: 'https://tcgplayer-cdn.tcgplayer.com/product/42346_200w.jpg',
      productType: 'single_card',
      era: 'vintage',
      releaseDate: '1999-01-09',
      tcgplayerId: '42346',
      printing: 'Holofoil',
      language: null,
    });
    // The other printing of productId 42346: its own product, its printing in the key.
    expect(await storedProduct('base-set-alakazam-001-102-1st-edition-holofoil')).toMatchObject({
      tcgplayerId: '42346',
      printing: '1st Edition Holofoil',
    });
    expect(await storedProduct('base-set-farfetchd-027-102')).toMatchObject({
      productName: "Farfetch'd",
      printing: 'Normal',
    });
    // Sealed rows (no number, no rarity) are SPEC's sealed type, their kind in the subtitle;
    // one with an empty subTypeName has no printing.
    expect(await storedProduct('base-set-booster-box-revised-unlimited-edition')).toMatchObject({
      productType: 'booster_box',
      subtitle: 'Booster Box',
      tcgplayerId: '185731',
      printing: null,
    });
    expect(await storedProduct('base-set-theme-deck-zap-revised-base-set-reprint-run')).toMatchObject({
      productType: 'booster_box',
      subtitle: 'Theme Deck',
    });
    expect(await storedProduct('base-set-booster-pack-revised-unlimited-edition')).toMatchObject({
      productType: 'booster_box',
      subtitle: 'Booster Pack',
    });
    expect(await storedProduct('base-set-charizard-black-dot-error-004-102')).toMatchObject({
      productType: 'single_card',
      printing: null,
    });
  });

  // Refused before anything is read: the same on either store.
  it.skipIf(TEST_STORE === 'postgres')(
    'exits 2 naming --groups when the groups file is missing',
    async () => {
      const run = await oracle(['ingest', '--kind', 'catalog', BASE_SET_CSV]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/needs its category's groups .*--groups Groups\.csv/);
    },
  );

  it('reads the groups JSON too, and rejects a row whose group it lacks, naming the group', async () => {
    const run = await oracle(['ingest', '--kind', 'catalog', '--groups', GROUPS_JSON, BASE_SET_CSV]);
    expect(run.code).toBe(3); // the first 63 groups of the JSON are recent sets, without Base Set (604)
    expect(run.stderr).toMatch(/groupId "604" is not in the groups file \(--groups\)/);
  });
});

// Groups files refused before anything is written: the same on either store.
describe.skipIf(TEST_STORE === 'postgres')('the groups file', () => {
  it('refuses a ProductsAndPrices.csv given as --groups, saying it is no groups file (exit 2)', async () => {
    const run = await oracle(['ingest', '--kind', 'catalog', '--groups', BASE_SET_CSV, BASE_SET_CSV]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /pokemon-base-set-604\.ProductsAndPrices\.csv:1: not a tcgcsv groups file: it has productId/,
    );
    expect(run.stderr).not.toMatch(/publishedOn date/);
  });

  it('requires publishedOn', async () => {
    const file = join(tempDir('oracle-tcgcsv-groups-'), 'groups.csv');
    (await import('node:fs')).writeFileSync(file, 'groupId,name\n604,Base Set\n');
    const run = await oracle(['ingest', '--kind', 'catalog', '--groups', file, BASE_SET_CSV]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/groups\.csv:1: not a tcgcsv groups file: the header lacks publishedOn/);
  });

  it('exits 2 naming --groups when it is given to an observation ingest, reading nothing', async () => {
    const run = await oracle(['ingest', '--groups', GROUPS_CSV, BASE_SET_CSV]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/--groups is read only by a catalog ingest: add --kind catalog/);
  });
});

describe("the README's two commands", () => {
  /** The two `oracle ingest` lines of README.md's "Where the data comes from", on the fixtures instead of tcgcsv.com. */
  function readmeCommands(): string[][] {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const lines = readme
      .split('\n')
      .filter((line) => line.startsWith('oracle ingest') && line.includes('tcgcsv.com/tcgplayer/3/'));
    expect(lines).toHaveLength(2);
    return lines.map((line) =>
      line
        .replace(/#.*$/, '')
        .trim()
        .split(/\s+/)
        .slice(2)
        .map((word) =>
          word
            .replace('https://tcgcsv.com/tcgplayer/3/Groups.csv', GROUPS_CSV)
            .replace('https://tcgcsv.com/tcgplayer/3/604/ProductsAndPrices.csv', BASE_SET_CSV),
        ),
    );
  }

  it('are idempotent: run twice the same day, the second run inserts nothing', async () => {
    const [catalog, quotes] = readmeCommands() as [string[], string[]];
    // Two days after the file's newest modifiedOn (2025-10-10T23:57): a fresh download, no warning.
    const morning = Date.parse('2025-10-12T09:00:00Z');
    expect(await ingestAt(morning, ...catalog)).toMatch(
      /: read 38, inserted 38, updated 0, duplicates 0, rejected 0 in /,
    );
    expect(await ingestAt(morning, ...quotes)).toMatch(
      /: read 38, inserted 32, duplicates 0, rejected 0, skipped 6 \(no market price 6\) in /,
    );
    const later = Date.parse('2025-10-12T19:30:00Z');
    expect(await ingestAt(later, ...catalog)).toMatch(
      /: read 38, inserted 0, updated 0, duplicates 38, rejected 0 in /,
    );
    expect(await ingestAt(later, ...quotes)).toMatch(
      /: read 38, inserted 0, duplicates 32, rejected 0, skipped 6 /,
    );
    // The quotes are those of the last refresh, 20:00Z the day before, and the price rests on one point.
    const alakazam = await ungraded('base-set-alakazam-001-102', '2025-10-12T19:30:00Z');
    expect(alakazam.included_points).toBe(1);
    expect((await ungraded('base-set-alakazam-001-102', '2025-10-11T19:59:00Z')).included_points).toBe(0);
    // After the next refresh (20:00Z), the same command stores that day's quotes.
    expect(await ingestAt(Date.parse('2025-10-12T20:40:00Z'), ...quotes)).toMatch(
      /: read 38, inserted 32, duplicates 0/,
    );
  });

  it('warns, naming --observed-at, when the file is more than a week older than the day its prices are given', async () => {
    const [catalog, quotes] = readmeCommands() as [string[], string[]];
    const later = Date.parse('2025-11-02T09:00:00Z');
    await ingestAt(later, ...catalog);
    const run = await oracle(['ingest', ...quotes], { now: later });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/inserted 32/);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^oracle: warning: .*ProductsAndPrices\.csv: its newest modifiedOn is 2025-10-10T23:57:08(\.173)?Z, 21 days before 2025-11-01T20:00:00(\.000)?Z, .* --observed-at /,
      ),
    ]);
    // Dated by the user, the file is what they say it is.
    const dated = await oracle(['ingest', '--observed-at', '2025-10-11T20:00:00Z', ...quotes], {
      now: later,
    });
    expect(dated.stderr).toBe('');
    expect(dated.stdout).toMatch(/inserted 32/);
  });
});

describe('tcgcsv prices as observations', () => {
  beforeEach(async () => {
    await ingest('--kind', 'catalog', '--groups', GROUPS_CSV, BASE_SET_CSV);
  });

  it('reads the CSV: rows without a market price (sealed rows with an empty subTypeName) are skipped and counted, the file exits 0', async () => {
    const line = await ingest('--observed-at', '2025-10-20T20:00:00Z', BASE_SET_CSV);
    expect(line).toMatch(
      /: read 38, inserted 32, duplicates 0, rejected 0, skipped 6 \(no market price 6\) in /,
    );
    // Venusaur 015/102, Holofoil: marketPrice 117.69 in the CSV.
    expect(await ungraded('base-set-venusaur-015-102', '2025-10-20T21:00:00Z')).toMatchObject({
      price_minor: 11769,
      included_points: 1,
    });
  });

  it('reads the archive prices JSON, dated 20:00Z of its date directory, each printing on its own product, once', async () => {
    const file = prices('2025-10-20', 3, 604);
    const line = await ingest(file);
    expect(line).toMatch(
      /: read 35, inserted 32, duplicates 0, rejected 0, skipped 3 \(no market price 3\) in /,
    );
    expect(await ingest(file)).toMatch(/: read 35, inserted 0, duplicates 32, rejected 0, skipped 3 /);
    // Every priced result is the ungraded price of its product, in cents.
    const alakazam = results(file).find(
      (r) => r.productId === 42346 && r.subTypeName === 'Holofoil',
    ) as PriceResult;
    expect(await ungraded('base-set-alakazam-001-102', '2025-10-20T20:30:00Z')).toMatchObject({
      price_minor: cents(alakazam.marketPrice as number),
      included_points: 1,
    });
    const venusaur = results(file).find((r) => r.productId === 42355) as PriceResult;
    expect(await ungraded('base-set-venusaur-015-102', '2025-10-20T20:30:00Z')).toMatchObject({
      price_minor: cents(venusaur.marketPrice as number),
    });
    // Before 20:00Z of that day there is nothing.
    expect((await ungraded('base-set-venusaur-015-102', '2025-10-20T19:00:00Z')).included_points).toBe(0);
    // The 1st Edition printing has no market price that day: nothing lands on it.
    expect(
      (await ungraded('base-set-alakazam-001-102-1st-edition-holofoil', '2025-10-20T20:30:00Z')).price_minor,
    ).toBeNull();
  });

  it('takes --observed-at over the date in the path', async () => {
    await ingest('--observed-at', '2025-11-01T08:00:00Z', prices('2025-10-20', 3, 604));
    expect((await ungraded('base-set-venusaur-015-102', '2025-10-20T21:00:00Z')).included_points).toBe(0);
    expect(await ungraded('base-set-venusaur-015-102', '2025-11-01T09:00:00Z')).toMatchObject({
      price_minor: 11917,
    });
  });

  // Reading stdin is the reader's; the same file read twice stores its quotes once on either store (above).
  it.skipIf(TEST_STORE === 'postgres')(
    'reads the prices JSON from stdin with --format tcgplayer-prices, at --observed-at',
    async () => {
      const run = await runCli(
        ['--db', db, 'ingest', '--format', 'tcgplayer-prices', '--observed-at', '2025-10-20T20:00:00Z', '-'],
        {
          input: readFileSync(prices('2025-10-20', 3, 604)),
        },
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(
        /^ingested stdin: read 35, inserted 32, duplicates 0, rejected 0, skipped 3 \(no market price 3\)/,
      );
      // The same file by its path, dated 20:00Z of its directory: the same quotes.
      expect(await ingest(prices('2025-10-20', 3, 604))).toMatch(/inserted 0, duplicates 32/);
    },
  );

  it("stops once (exit 2) on today's archive file read before 20:00 UTC, naming the path's date and --observed-at", async () => {
    const run = await oracle(['ingest', prices('2025-10-20', 3, 604)], {
      now: Date.parse('2025-10-20T10:00:00Z'),
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/^failed .*prices: read 0, inserted 0/);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /the date 2025-10-20 in the path dates these prices 2025-10-20T20:00:00Z, which is in the future .*give --observed-at/,
    );
    // With --observed-at, the same file on the same clock is read.
    expect(
      await ingestAt(
        Date.parse('2025-10-20T10:00:00Z'),
        '--observed-at',
        '2025-10-20T09:55:00Z',
        prices('2025-10-20', 3, 604),
      ),
    ).toMatch(/inserted 32/);
  });

  it("judges a future observation by the program's clock, as --observed-at is", async () => {
    // Years after the real clock: --observed-at passes the check against the run's clock, and so must each quote.
    const now = Date.parse('2031-05-01T12:00:00Z');
    expect(await ingestAt(now, '--observed-at', '2031-05-01T11:00:00Z', BASE_SET_CSV)).toMatch(
      /: read 38, inserted 32, duplicates 0, rejected 0/,
    );
    // A quote dated after the run's clock is still refused (here the CLI's check of --observed-at).
    const run = await oracle(['ingest', '--observed-at', '2031-05-01T13:00:00Z', BASE_SET_CSV], { now });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--observed-at .*is in the future/);
  });

  it('counts products no catalog product has as unmapped, never rejects them; none known at all fails naming --kind catalog', async () => {
    // Magic (category 1) prices with a Pokemon-only catalog: 37 priced results, 3 without a price.
    const run = await oracle(['ingest', prices('2025-10-20', 1, 1)]);
    expect(run.stdout).toMatch(
      /: read 40, inserted 0, duplicates 0, rejected 0, skipped 40 \(unmapped 37, no market price 3\) in /,
    );
    // Nothing stored while the run looks healthy is what a cron job must not see: exit 2, saying what to load.
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /none of its 37 prices names a product of the catalog .*oracle ingest --kind catalog/,
    );
    // One known product among unknown ones is an ordinary run: a download covers more than a catalog tracks.
    const mixed = join(tempDir('oracle-tcgcsv-mixed-'), '2025-10-20', 'prices');
    const magic = JSON.parse(readFileSync(prices('2025-10-20', 1, 1), 'utf8')) as { results: unknown[] };
    const [alakazam] = results(prices('2025-10-20', 3, 604));
    mkdirSync(dirname(mixed));
    writeFileSync(mixed, JSON.stringify({ ...magic, results: [...magic.results, alakazam] }));
    expect(await ingest(mixed)).toMatch(/: read 41, inserted 1, .*unmapped 37/);
  });
});

describe('prices of other sets and categories, on a catalog given as canonical records', () => {
  /** Catalog records for products of the SV151, SV2a (Japanese) and Magic group 1 price files. */
  const CATALOG = [
    'product_key,product_name,set_name,era,release_date,tcgplayer_id,printing,language',
    'sv151-501999,Product 501999,SV: Scarlet & Violet 151,modern,2023-09-22,501999,Normal,',
    'sv151-502548,Product 502548,SV: Scarlet & Violet 151,modern,2023-09-22,502548,Normal,',
    'sv151-502003,Product 502003,SV: Scarlet & Violet 151,modern,2023-09-22,502003,Normal,',
    'japanese-sv2a-565243,Product 565243,SV2a: Pokemon Card 151,modern,2023-06-16,565243,Normal,Japanese',
    'magic-15023,Product 15023,10th Edition,modern,2007-07-13,15023,Normal,',
    'magic-15023-foil,Product 15023,10th Edition,modern,2007-07-13,15023,Foil,',
  ].join('\n');

  beforeEach(async () => {
    const file = join(tempDir('oracle-tcgcsv-catalog-'), 'catalog.csv');
    (await import('node:fs')).writeFileSync(file, `${CATALOG}\n`);
    await ingest(file);
  });

  it("gives SV151 a price per archive day, each equal to that day's market price", async () => {
    const september = prices('2025-09-21', 3, 23237);
    const october = prices('2025-10-20', 3, 23237);
    // 502548's Reverse Holofoil has no product here: counted by printing, never put on the Normal one.
    expect(await ingest(september)).toMatch(
      /inserted 2, duplicates 0, rejected 0, skipped 38 \(unmapped 36, no market price 1, no Reverse Holofoil product 1\)/,
    );
    expect(await ingest(october)).toMatch(
      /inserted 3, duplicates 0, rejected 0, skipped 38 \(unmapped 37, no Reverse Holofoil product 1\)/,
    );
    const day = (file: string, id: number) =>
      cents(results(file).find((r) => r.productId === id)?.marketPrice as number);
    expect(await ungraded('sv151-501999', '2025-09-21T21:00:00Z')).toMatchObject({
      price_minor: day(september, 501999),
      included_points: 1,
    });
    // 501999 has a quote on each day: October's price follows the latest (methodology §4.2),
    // September's counted as excluded, not averaged in.
    expect(await ungraded('sv151-501999', '2025-10-20T21:00:00Z')).toMatchObject({
      price_minor: day(october, 501999),
      included_points: 1,
      excluded_points: 1,
    });
    // 502003 (sealed) had no market price in September: October's one quote is its price.
    expect(await ungraded('sv151-502003', '2025-10-20T21:00:00Z')).toMatchObject({
      price_minor: day(october, 502003),
      included_points: 1,
    });
  });

  it('stores the language of a Japanese product and prices it from the Pokemon Japan file', async () => {
    const file = prices('2025-10-20', 85, 23599);
    expect(await ingest(file)).toMatch(/rejected 0, skipped/);
    expect(await storedProduct('japanese-sv2a-565243')).toMatchObject({ language: 'Japanese' });
    const market = results(file).find((r) => r.productId === 565243)?.marketPrice as number;
    expect(await ungraded('japanese-sv2a-565243', '2025-10-20T21:00:00Z')).toMatchObject({
      price_minor: cents(market),
      included_points: 1,
    });
  });

  it("puts Magic's Normal and Foil prices of one productId on their own products", async () => {
    const file = prices('2025-10-20', 1, 1);
    expect(await ingest(file)).toMatch(
      /inserted 2, duplicates 0, rejected 0, skipped 38 \(unmapped 35, no market price 3\)/,
    );
    const of = (subType: string) =>
      cents(
        results(file).find((r) => r.productId === 15023 && r.subTypeName === subType)?.marketPrice as number,
      );
    expect(await ungraded('magic-15023', '2025-10-20T21:00:00Z')).toMatchObject({
      price_minor: of('Normal'),
    });
    expect(await ungraded('magic-15023-foil', '2025-10-20T21:00:00Z')).toMatchObject({
      price_minor: of('Foil'),
    });
  });
});
