/**
 * A price guide run by cron (issue 33 item 5), on the real SportsCardsPro download of
 * collectyourcards (test/fixtures/README.md): the same file twice the same day stores its
 * quotes once, as tcgcsv's day quotes are; prices read before their catalog fail, naming
 * `--kind catalog`, instead of exiting 0 with nothing stored.
 */
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { newTestDatabase } from '../_pg.js';
import { runOracle } from '../_cli.js';
import { ROOT, tempDir, type CliResult } from '../_setup.js';

const GUIDE = join(ROOT, 'test/fixtures/pricecharting/sportscardspro-baseball-2025-topps-chrome.csv');
const JUDGE = 'baseball-cards-2025-topps-chrome-aaron-judge-99';

let db: string;

const oracle = (now: string, ...args: string[]): Promise<CliResult> =>
  runOracle(['--db', db, ...args], { now: Date.parse(now) });

/** Aaron Judge #99's ungraded price and its interval, as of `at`. */
async function judge(at: string): Promise<unknown> {
  const run = await oracle(at, 'price', JUDGE, '--json');
  expect(run.code).toBe(0);
  const { ungraded } = JSON.parse(run.stdout) as { ungraded: Record<string, unknown> };
  return { price: ungraded.price_minor, low: ungraded.low_minor, high: ungraded.high_minor };
}

beforeEach(async () => {
  db = await newTestDatabase(tempDir('oracle-cron-'));
});

describe('a price-guide download re-run by cron', () => {
  it('stores its quotes once a day: six minutes later nothing is inserted and the price does not move', async () => {
    expect((await oracle('2026-01-15T09:00:00Z', 'ingest', '--kind', 'catalog', GUIDE)).code).toBe(0);
    const first = await oracle('2026-01-15T09:00:00Z', 'ingest', GUIDE);
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(/read 360, inserted 225, duplicates 0,/);
    const before = await judge('2026-01-15T09:05:00Z');
    // On main the second run inserted all 225 again and Judge's interval widened ($11.92-$15.33 to $9.98-$17.87 on the whole file).
    const again = await oracle('2026-01-15T09:06:00Z', 'ingest', GUIDE);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/read 360, inserted 0, duplicates 225,/);
    expect(await judge('2026-01-15T09:07:00Z')).toEqual(before);
    // Late the same UTC day still the same quote; the next day is the next day's.
    expect((await oracle('2026-01-15T23:59:00Z', 'ingest', GUIDE)).stdout).toMatch(
      /inserted 0, duplicates 225,/,
    );
    expect((await oracle('2026-01-16T00:01:00Z', 'ingest', GUIDE)).stdout).toMatch(
      /inserted 225, duplicates 0,/,
    );
  });

  it('fails (exit 2) when none of its products is in the catalog, naming --kind catalog', async () => {
    const run = await oracle('2026-01-15T09:00:00Z', 'ingest', GUIDE);
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/^failed .*: read 360, inserted 0, .*unmapped 225/);
    expect(run.stderr).toMatch(
      /none of its 225 prices names a product of the catalog .*load the catalog first with `oracle ingest --kind catalog`/,
    );
    // The run is recorded as failed, so `oracle runs`-style checks see it too; with the catalog it succeeds.
    expect((await oracle('2026-01-15T09:01:00Z', 'ingest', '--kind', 'catalog', GUIDE)).code).toBe(0);
    expect((await oracle('2026-01-15T09:02:00Z', 'ingest', GUIDE)).code).toBe(0);
  });
});
