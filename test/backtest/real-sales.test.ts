// @module-tag sqlite-only: the backtest's real-data mode: a file of sales priced in memory, no store
/**
 * The backtest's real-data mode (issue 22, docs/backtest.md "Scored on real sales") on two real
 * files of PSA's Auction Prices Realized register (test/fixtures/README.md, "PSA sales"): what it
 * keeps, that each sale is predicted from the days before it only, and the command line.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { psaDate, readSales, salesFiles, scoreSales, summarizeSales } from '../../backtest/lib/real-sales.js';
import { METHODS } from '../../backtest/lib/score.js';
import { ROOT, tempDir } from '../_setup.js';

const run = promisify(execFile);
const FIXTURES = join(ROOT, 'test', 'fixtures', 'psa-sales');
const NOCTOWL = join(FIXTURES, '2002-pokemon-neo-destiny-shining-noctowl.csv');
const DAY = 86_400_000;

/** The fixture's rows as written: [date ms, grade, price in cents]. */
function rawRows(file: string): [number, string, number][] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [date, grade, , prize] = line.split(',');
      return [psaDate(date!)!, grade!, Math.round(Number(prize) * 100)];
    });
}

describe('real sales: reading', () => {
  it('reads M/D/YYYY dates and refuses days that do not exist', () => {
    expect(psaDate('6/19/2020')).toBe(Date.UTC(2020, 5, 19));
    expect(psaDate('2/29/2020')).toBe(Date.UTC(2020, 1, 29));
    expect(psaDate('2/30/2020')).toBeNull();
    expect(psaDate('2020-06-19')).toBeNull();
  });

  it('keeps the PSA 7-10 sales of each file and counts the others by reason', () => {
    const data = readSales(salesFiles(FIXTURES));
    expect(data.products.map((p) => [p.key, p.era])).toEqual([
      ['2002-pokemon-neo-destiny-dark-gengar-holo', 'vintage'],
      ['2002-pokemon-neo-destiny-shining-noctowl', 'vintage'],
    ]);
    // Noctowl: 50 x 10, 38 x 9, 16 x 8, 6 x 7 and 8 others (5, 6, 1, 3, 8.5); Gengar: 19, 15, 5 and one PSA 3.
    expect(data.kept).toBe(110 + 39);
    expect(data.skipped).toEqual({ 'grade outside PSA 7-10 (lower, half or authentic)': 9 });
    const noctowl = data.products[1]!;
    expect(noctowl.cells.map((s) => s.t.length).filter((n) => n > 0)).toEqual([6, 16, 38, 50]);
  });

  it('refuses a file in another layout with the file named', () => {
    const other = join(
      ROOT,
      'test',
      'fixtures',
      'pricecharting',
      'sportscardspro-baseball-2025-topps-chrome.csv',
    );
    expect(() => readSales([other])).toThrow(
      /sportscardspro-baseball-2025-topps-chrome\.csv: not a PSA sales file/,
    );
  });
});

describe('real sales: scoring', () => {
  let scored: Awaited<ReturnType<typeof scoreSales>>;
  let data: ReturnType<typeof readSales>;
  beforeAll(async () => {
    data = readSales([NOCTOWL]);
    scored = await scoreSales(data, tempDir('oracle-backtest-real-'));
  }, 60_000);

  it("predicts every sale after its card's first day, from the days before it only", () => {
    const rows = rawRows(NOCTOWL).filter(([, grade]) => ['7.0', '8.0', '9.0', '10.0'].includes(grade));
    const firstDay = Math.min(...rows.map(([d]) => d));
    expect(scored.firstOfCard).toBe(rows.filter(([d]) => d === firstDay).length);
    expect(scored.sales.length + scored.firstOfCard).toBe(data.kept);
    // The plain 24 h median at a sale's midnight is the median of the same grade's sales of the
    // day before (stored at noon), never of its own day's.
    for (const sale of scored.sales) {
      const day = Date.parse(sale.at) - 12 * 3_600_000;
      const grade = `${sale.cell.slice(3)}.0`;
      const before = rows
        .filter(([d, g]) => g === grade && d === day - DAY)
        .map(([, , p]) => p)
        .sort((a, b) => a - b);
      const mid = before.length / 2;
      const median =
        before.length === 0
          ? Number.NaN
          : before.length % 2 === 1
            ? before[Math.floor(mid)]!
            : (before[mid - 1]! + before[mid]!) / 2;
      expect(sale.prices[METHODS.findIndex((m) => m.id === 'median24')]).toEqual(median);
    }
  });

  it('our engine predicts more of the sales than any alternative, and the summary ranks the methods', () => {
    const summary = summarizeSales(scored.sales);
    const coverage = summary.views.all.map((r) => r.coverage!);
    expect(coverage[0]).toBeGreaterThan(Math.max(...coverage.slice(1)));
    expect(summary.views.common.every((r) => r.errors.n === summary.common)).toBe(true);
    expect([...summary.ranking].sort()).toEqual(METHODS.map((m) => m.id).sort());
    expect(summary.bases.reduce((n, b) => n + b.errors.n, 0) + summary.unpriced).toBe(summary.sales);
  });
});

describe('npm run backtest -- --real-sales', () => {
  it('rejects a path that does not exist with exit 2', async () => {
    const missing = run(process.execPath, [
      join(ROOT, 'backtest', 'run.js'),
      '--real-sales',
      join(FIXTURES, 'nope'),
    ]);
    await expect(missing).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('no such file or directory'),
    });
  });
});
