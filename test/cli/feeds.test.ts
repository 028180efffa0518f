/**
 * The real-world feeds end to end through the built CLI (`node bin/oracle.js`, run
 * `npm run build` first): a catalog bootstrapped from a PriceCharting download, price-guide
 * quotes of both headers, TCGplayer rows and sold listings, checked with `oracle price --json`.
 * Quotes of one feed are observed weeks apart, so each price checked has one point per cell.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir, type CliResult } from '../_setup.js';

const FIXTURES = join(ROOT, 'test/fixtures');
const PC_NEW = join(FIXTURES, 'pricecharting/price-guide-new-header.csv');
const PC_OLD = join(FIXTURES, 'pricecharting/price-guide-old-header.csv');
const PC_RENAMED = join(FIXTURES, 'pricecharting/price-guide-renamed.csv');
const TCG = join(FIXTURES, 'tcgplayer/ProductsAndPrices.csv');
const SOLD = join(FIXTURES, 'sold-listings/ebay-sold.ndjson');

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
  return runCli(['--db', db, ...args], { input });
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

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/cli/main.js'))) throw new Error('run `npm run build` before the CLI tests');
  db = join(tempDir('oracle-feeds-'), 'oracle.db');
});

// The steps build on each other's database, in order.
describe('feeding the oracle from PriceCharting, TCGplayer and sold listings', () => {
  it('bootstraps a catalog from a PriceCharting download with --kind catalog', async () => {
    expect(await ingest('--kind', 'catalog', PC_NEW)).toMatch(/read 6, inserted 5, updated 0, duplicates 1, rejected 0/);
    const catalog = JSON.parse((await oracle(['catalog', '--json'])).stdout) as { total: number; products: Record<string, unknown>[] };
    expect(catalog.total).toBe(5);
    expect(catalog.products).toEqual([
      expect.objectContaining({ product_key: 'pokemon-base-set-booster-box', refsource_id: '630500', product_type: 'booster_box', era: 'vintage' }),
      expect.objectContaining({ product_key: CHARIZARD, refsource_id: '630417', product_name: 'Charizard #4', product_type: 'single_card', era: 'vintage' }),
      expect.objectContaining({ product_key: CHARIZARD_EX, refsource_id: '5001234', era: 'modern' }),
      expect.objectContaining({ product_key: 'pokemon-scarlet-and-violet-151-poke-ball-165', refsource_id: '5001400', product_name: 'Poké Ball #165' }),
      expect.objectContaining({ product_key: ZAPDOS, refsource_id: '5001301', earliest_observation: null }),
    ]);
  });

  it('updates nothing when the same catalog is ingested again', async () => {
    expect(await ingest('--kind', 'catalog', PC_NEW)).toMatch(/inserted 0, updated 0, duplicates 6, rejected 0/);
  });

  it('keeps the product_key of a product PriceCharting renamed, updating its name', async () => {
    expect(await ingest('--kind', 'catalog', PC_RENAMED)).toMatch(/read 1, inserted 0, updated 1, duplicates 0, rejected 0/);
    const catalog = JSON.parse((await oracle(['catalog', '--json', '--search', 'Charizard [Holo]'])).stdout) as { products: unknown[] };
    expect(catalog.products).toEqual([expect.objectContaining({ product_key: CHARIZARD, refsource_id: '630417', product_name: 'Charizard [Holo] #4' })]);
    expect(await ingest('--kind', 'catalog', PC_NEW)).toMatch(/inserted 0, updated 1, duplicates 5, rejected 0/); // and back
  });

  it('ingests quotes of the older header, skipping blank prices and ids not in the catalog', async () => {
    const summary = await ingest('--observed-at', '2026-09-01T00:00:00Z', PC_OLD);
    // 9 + 3 quotes, the repeated row's 3 again, 1 quote of an unknown id, 20 blank cells.
    expect(summary).toMatch(/read 36, inserted 12, duplicates 3, rejected 0, skipped 21 \(blank price 20, unmapped 1\)/);

    const bundle = await price(CHARIZARD, '2026-09-01T06:00:00Z');
    expect(bundle.ungraded.price_minor).toBe(29662);
    expect(bundle.ungraded.meta.source_counts).toEqual({ pricecharting: 1 });
    expect(bundle.graded.PSA?.['10']?.price_minor).toBe(2964313);
    expect(bundle.graded.BGS?.['10']?.price_minor).toBe(3853600);
    expect(bundle.graded.CGC?.['10']?.price_minor).toBe(718173);
    expect(bundle.graded.SGC?.['10']?.price_minor).toBe(1778600);
    expect(bundle.metadata).toMatchObject({ set_name: 'Pokemon Base Set', era: 'vintage', release_date: '1999-01-09' });
  });

  it('ingests quotes of the newer header, keeping Pristine and Black Label out of the regular 10s', async () => {
    expect(await ingest('--format', 'pricecharting', '--observed-at', '2026-11-20T00:00:00Z', PC_NEW)).toMatch(
      /inserted 26, duplicates 19, rejected 0, skipped 69 \(blank price 69\)/,
    );
    const bundle = await price(CHARIZARD, '2026-11-20T06:00:00Z');
    expect(bundle.ungraded.price_minor).toBe(31000);
    expect(bundle.ungraded.included_points).toBe(1);
    expect(bundle.graded.PSA?.['10']?.price_minor).toBe(3010000);
    expect(bundle.graded.BGS?.['10']?.price_minor).toBe(3900000); // not the $88,000 Black Label
    expect(bundle.graded.CGC?.['10']?.price_minor).toBe(730000); // not the $52,000 Pristine
    expect(bundle.graded.SGC?.['10']?.price_minor).toBe(1800000);
    expect((await price(CHARIZARD_EX, '2026-11-20T06:00:00Z')).graded.PSA?.['10']?.price_minor).toBe(115000);
  });

  it('adds nothing when the same file is ingested again at the same --observed-at', async () => {
    expect(await ingest('--observed-at', '2026-11-20T00:00:00Z', PC_NEW)).toMatch(/read 114, inserted 0, duplicates 45, rejected 0/);
  });

  it('maps TCGplayer market prices by TCGplayer id, taking the first printing listed', async () => {
    const summary = await ingest('--observed-at', '2026-06-10T20:00:00Z', TCG);
    expect(summary).toMatch(/read 5, inserted 2, duplicates 0, rejected 0, skipped 3 \(other printing 1, no market price 1, unmapped 1\)/);
    const zapdos = await price(ZAPDOS, '2026-06-10T21:00:00Z');
    expect(zapdos.ungraded.price_minor).toBe(145); // Holofoil, listed before Reverse Holofoil
    expect(zapdos.ungraded.meta.source_counts).toEqual({ tcgplayer: 1 });
    expect((await price(CHARIZARD_EX, '2026-06-10T21:00:00Z')).ungraded.price_minor).toBe(11837);
  });

  it('takes the printing named by --subtype', async () => {
    const summary = await ingest('--format', 'tcgplayer', '--subtype', 'reverse holofoil', '--observed-at', '2026-08-01T20:00:00Z', TCG);
    expect(summary).toMatch(/inserted 1, duplicates 0, rejected 0, skipped 4 \(other printing 4\)/);
    expect((await price(ZAPDOS, '2026-08-01T21:00:00Z')).ungraded.price_minor).toBe(210);
  });

  it('ingests sold listings from stdin, once per item id, with the grader of the structured fields', async () => {
    const listings = readFileSync(SOLD, 'utf8');
    const first = await oracle(['ingest', '-'], listings);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/read 6, inserted 5, duplicates 1, rejected 0/);
    expect((await oracle(['ingest', '-'], listings)).stdout).toMatch(/read 6, inserted 0, duplicates 6, rejected 0/);

    const bundle = await price(CHARIZARD, '2026-11-20T14:00:00Z');
    expect(bundle.ungraded.meta.source_counts).toEqual({ ebay: 1, pricecharting: 1 });
    expect(bundle.graded.PSA?.['10']?.included_points).toBe(2); // the guide's PSA 10 and one sale; TAG 10 is not PSA
    expect(bundle.graded.BGS?.['9']?.included_points).toBeGreaterThanOrEqual(1);
  });

  it('rejects an --observed-at without a time zone as a usage error', async () => {
    const run = await oracle(['ingest', '--observed-at', '2026-11-20 00:00', PC_NEW]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^oracle: --observed-at "2026-11-20 00:00" has no time zone: add Z or an offset/);
  });
});
