// @module-tag sqlite-only: a real file's TAG grades through oracle price: extra grades run on both stores in
// extra-grades.test.ts
/**
 * Real TAG slab sales end to end (test/fixtures/README.md, "TAG best offers as sold listings"):
 * file -> catalog -> observations -> `oracle price --extra-grades`. Every TAG grade the file
 * holds within the 30 days before --at is priced at the file's amount (one sale each); older
 * ones are absent, and SPEC's matrix stays empty: nothing is invented.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runOracle } from '../_cli.js';
import { tempDir } from '../_setup.js';
import { newTestDatabase } from '../_pg.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'sold-listings');
const AT = '2025-06-08T00:00:00Z';
const LOOKBACK_START = Date.parse(AT) - 30 * 86_400_000;

/** The grade each title states, labelled by hand (as test/fixtures/sold-listings/title-grades.csv). */
const GRADE_OF: Record<string, number> = {
  'magikarp-triple-beat-ar': 10,
  'leafeon-ex-sar-200': 10,
  'glaceon-vstar-217': 10,
  'umbreon-vmax-215': 8,
  'darkrai-vstar-gg50': 10,
  'kingdra-chr-170': 10,
  'scarlet-ex-082': 10,
  'charmander-ar-168': 10,
  'wailord-ar-103': 10,
  'muk-alolan-muk-gx-61': 9,
  'lapras-holo-008': 9,
};

interface Listing {
  product_key: string;
  title: string;
  lastSoldDate: string;
  lastSoldPrice: { value: string };
}
const listings: Listing[] = readFileSync(join(FIXTURES, 'tag-best-offers.sold-listings.ndjson'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));

let db: string;
const cli = (...args: string[]) => runOracle(['--db', db, ...args]);

beforeAll(async () => {
  db = await newTestDatabase(tempDir());
  const catalog = await cli('ingest', join(FIXTURES, 'tag-best-offers.catalog.csv'));
  expect(catalog.code, catalog.stderr).toBe(0);
  const sales = await cli(
    'ingest',
    '--format',
    'sold-listings',
    join(FIXTURES, 'tag-best-offers.sold-listings.ndjson'),
  );
  expect(sales.code, sales.stderr).toBe(0);
  expect(sales.stdout).toMatch(/read 11, inserted 11, duplicates 0, rejected 0/);
});

describe('real TAG sales priced as extra grades', () => {
  it.each(listings.map((l) => [l.product_key, l] as const))('%s', async (key, listing) => {
    const bundle = JSON.parse((await cli('price', key, '--at', AT, '--json', '--extra-grades')).stdout);
    const grade = String(GRADE_OF[key]);
    const cents = Math.round(Number(listing.lastSoldPrice.value) * 100);
    if (Date.parse(listing.lastSoldDate) >= LOOKBACK_START) {
      expect(Object.keys(bundle.extra_grades)).toEqual(['TAG']);
      expect(Object.keys(bundle.extra_grades.TAG)).toEqual([grade]);
      expect(bundle.extra_grades.TAG[grade]).toMatchObject({
        price_minor: cents,
        included_points: 1,
        company: 'TAG',
        grade: Number(grade),
      });
      const table = (await cli('price', key, '--at', AT, '--extra-grades')).stdout;
      // The price, `!` when stale (the sale is older than 7 days), then its interval.
      const dollars = (cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 }).replace('.', '\\.');
      expect(table).toMatch(new RegExp(`  TAG ${grade}  \\$${dollars}!? ±`));
    } else {
      expect(bundle.extra_grades).toEqual({});
    }
    // SPEC's matrix and the ungraded price: no data of theirs, so no price.
    expect(bundle.ungraded.price_minor).toBeNull();
    for (const column of Object.values(bundle.graded) as any[])
      for (const slot of Object.values(column) as any[]) expect(slot.price_minor).toBeNull();
  });

  it('covers both cases: priced within the 30 days, absent before them', () => {
    const inside = listings.filter((l) => Date.parse(l.lastSoldDate) >= LOOKBACK_START).length;
    expect([inside, listings.length - inside]).toEqual([8, 3]);
  });
});
