// @module-tag sqlite-only: a download's format read through the CLI; the writer's PostgreSQL path is test/ingest/pipeline.test.ts's
/**
 * A real SportsCardsPro price-guide download (baseball, `genre` empty in every row) end to end
 * through the CLI, in process (runOracle; one run of the built CLI): catalog, observations with their sales-volume, prices checked against
 * the file's values; a video-game row is still refused by name. Fixtures: test/fixtures/README.md.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { newTestDatabase } from '../_pg.js';
import { runOracle } from '../_cli.js';
import { ROOT, runCli, tempDir, type CliResult } from '../_setup.js';

const FIXTURES = join(ROOT, 'test/fixtures/pricecharting');
const SPORTS = join(FIXTURES, 'sportscardspro-baseball-2025-topps-chrome.csv');
const VIDEO_GAME = join(FIXTURES, 'video-game-row.csv');
const AT = '2026-01-16T00:00:00Z';
const SET = 'Baseball Cards 2025 Topps Chrome';

let db: string;

function oracle(args: string[]): Promise<CliResult> {
  return runOracle(['--db', db, ...args]);
}

interface Slot {
  price_minor: number | null;
  meta: { source_counts?: Record<string, number> };
}
interface Bundle {
  ungraded: Slot;
  graded: Record<string, Record<string, Slot>>;
  metadata: {
    product_name: string;
    set_name: string;
    product_type: string;
    era: string;
    release_date: string;
  };
}

async function price(key: string): Promise<Bundle> {
  const run = await oracle(['price', key, '--json', '--at', AT]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Bundle;
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/cli/main.js')))
    throw new Error('run `npm run build` before the CLI tests');
  db = await newTestDatabase(tempDir('oracle-sports-'));
});

describe('a SportsCardsPro download (Baseball Cards 2025 Topps Chrome)', () => {
  it('ingests as a catalog: every row a product, sealed boxes as booster_box', async () => {
    const run = await oracle(['ingest', '--kind', 'catalog', SPORTS]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/read 40, inserted 40, updated 0, duplicates 0, rejected 0/);
    const judge = await price('baseball-cards-2025-topps-chrome-aaron-judge-99');
    expect(judge.metadata).toMatchObject({
      product_name: 'Aaron Judge #99',
      set_name: SET,
      product_type: 'single_card',
      era: 'modern',
      release_date: '2025-07-23',
    });
    const sapphire = await price('baseball-cards-2025-topps-chrome-hobby-box-sapphire');
    expect(sapphire.metadata).toMatchObject({
      product_name: 'Hobby Box [Sapphire]',
      product_type: 'booster_box',
      release_date: '2025-08-27',
    });
  });

  it("ingests its prices as observations, blank cells skipped, and keeps each row's sales-volume", async () => {
    const run = await oracle(['ingest', '--observed-at', '2026-01-15T00:00:00Z', SPORTS]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // 40 rows x 9 price columns of the older header; 232 cells hold a price, 7 of them graded
    // columns of the Jumbo Box row, which a sealed box never has: only its loose price is read.
    expect(run.stdout).toMatch(
      /read 360, inserted 225, duplicates 0, rejected 0, skipped 135 \(blank price 128, sealed product: graded column 7\)/,
    );
    const store = await openStore(db);
    try {
      if (store.dialect !== 'sqlite') return; // the volume's read-back is checked through the engine below on every store
      const { default: Database } = await import('better-sqlite3');
      const raw = new Database(db, { readonly: true });
      try {
        const rows = raw
          .prepare(
            `SELECT o.condition, o.price_minor, o.sales_volume FROM observations o JOIN products p ON p.id = o.product_id
             WHERE p.refsource_id = '10004515' ORDER BY o.condition`,
          )
          .all() as { condition: string; price_minor: number; sales_volume: number }[];
        expect(rows.map((r) => [r.condition, r.price_minor, r.sales_volume])).toEqual([
          ['any8', 1200, 1299],
          ['any9', 2150, 1299],
          ['any9.5', 5062, 1299], // box-only-price: grade 9.5, any grader
          ['bgs10', 10700, 1299],
          ['cgc10', 6600, 1299],
          ['psa10', 8225, 1299],
          ['sgc10', 6500, 1299],
          ['ungraded', 1352, 1299],
        ]);
      } finally {
        raw.close();
      }
    } finally {
      await store.close();
    }
  });

  it.each([
    ['baseball-cards-2025-topps-chrome-aaron-judge-black-raywave-99', 33600], // loose-price $336.00, no other price
    ['baseball-cards-2025-topps-chrome-shohei-ohtani-red-lava-1', 749995], // $7499.95
    ['baseball-cards-2025-topps-chrome-hobby-box', 21625], // $216.25, a sealed box
  ])('prices %s ungraded at its loose-price in cents', async (key, cents) => {
    const bundle = await price(key);
    expect(bundle.ungraded.price_minor).toBe(cents);
    expect(bundle.ungraded.meta.source_counts).toEqual({ pricecharting: 1 });
  });

  it('prices a card with every grade near its own columns, a sealed box with no graded price', async () => {
    const judge = await price('baseball-cards-2025-topps-chrome-aaron-judge-99');
    expect(Math.abs(judge.ungraded.price_minor! / 1352 - 1)).toBeLessThan(0.05);
    expect(Math.abs(judge.graded.PSA!['10']!.price_minor! / 8225 - 1)).toBeLessThan(0.05);
    const box = await price('baseball-cards-2025-topps-chrome-hobby-box');
    expect(box.graded.PSA!['10']!.price_minor).toBeNull();
  });

  it('prices the Jumbo Box, whose row fills graded columns, at its loose price only', async () => {
    const key = 'baseball-cards-2025-topps-chrome-jumbo-box';
    const box = await price(key);
    expect(box.metadata.product_type).toBe('booster_box');
    expect(box.ungraded.price_minor).toBe(41625); // loose-price $416.25
    // manual-only-price $1870.69 is no PSA 10 of a sealed box: nothing is stored or priced there.
    expect(box.graded.PSA!['10']!.price_minor).toBeNull();
    const run = await oracle(['explain', key, '--slot', 'psa10', '--at', AT, '--json']);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/187069/);
    const ev = JSON.parse(run.stdout) as { points: { condition: string }[] };
    expect(ev.points.filter((p) => p.condition !== 'ungraded')).toEqual([]);
  });

  it("prices a history with the quotes' volumes as a single bundle does", async () => {
    const key = 'baseball-cards-2025-topps-chrome-aaron-judge-99';
    const run = await oracle([
      'history',
      key,
      '--from',
      '2026-01-15T12:00:00Z',
      '--to',
      AT,
      '--every',
      '12h',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const history = JSON.parse(run.stdout) as {
      points: { at: string; ungraded: { price_minor: number }; psa10: { price_minor: number } }[];
    };
    const last = history.points.at(-1)!;
    const single = await price(key);
    expect([last.at, last.ungraded.price_minor, last.psa10.price_minor]).toEqual([
      AT,
      single.ungraded.price_minor,
      single.graded.PSA!['10']!.price_minor,
    ]);
  });

  it("shows a quote's sales volume in oracle explain", async () => {
    const run = await oracle([
      'explain',
      'baseball-cards-2025-topps-chrome-aaron-judge-99',
      '--slot',
      'ungraded',
      '--at',
      AT,
      '--json',
    ]);
    expect(run.code).toBe(0);
    const ev = JSON.parse(run.stdout) as {
      points: { condition: string; source: string; sales_volume?: number; kept: boolean }[];
    };
    const own = ev.points.find((p) => p.condition === 'ungraded');
    expect(own).toMatchObject({ source: 'pricecharting', sales_volume: 1299, kept: true });
    const table = await oracle([
      'explain',
      'baseball-cards-2025-topps-chrome-aaron-judge-99',
      '--slot',
      'ungraded',
      '--at',
      AT,
    ]);
    expect(table.stdout).toMatch(/volume/);
    expect(table.stdout).toMatch(/1299/);
  });

  it('still refuses a video-game row by name, reading nothing (once through the built CLI)', async () => {
    for (const [kind, run$] of [
      [[], (args: string[]) => runCli(['--db', db, ...args])],
      [['--kind', 'catalog'], oracle],
    ] as const) {
      const run = await run$(['ingest', ...kind, VIDEO_GAME]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /video-game-row\.csv:2: console-name "JP Nintendo Switch" is not a trading-card or sports-card category/,
      );
    }
  });
});
