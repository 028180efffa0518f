/**
 * `oracle index publish` in process on a real SQLite file: published days are read back by
 * `index show` with their version, a late sale that changes a past day makes that day's next
 * version (said by publish, never an update), `--version 1` still gives the value first
 * published, and days not published are computed and marked so.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runOracle as oracle } from '../_cli.js';
import { databaseWith, testProduct } from '../_setup.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BASE = Date.parse('2026-10-01T00:00:00Z');
const NOW = BASE + 10 * DAY + 12 * HOUR;

/** Ungraded sales at `price` cents every 6 hours from 60 days before the base to now. */
const sales = (productKey: string, price: number) =>
  Array.from({ length: (70 * DAY) / (6 * HOUR) }, (_, i) => ({
    productKey,
    source: 'ebay',
    observedAt: BASE - 60 * DAY + i * 6 * HOUR,
    priceMinor: price,
    grader: 'ungraded',
    grade: null,
    externalId: `${productKey}-${i}`,
  })).filter((s) => s.observedAt < NOW);

interface Point {
  at: string;
  value: number;
  version: number | null;
}

describe('oracle index publish', () => {
  let db: string;
  const run = (args: string[], input?: string) => oracle(['--db', db, ...args], { now: NOW, input });
  const show = async (...extra: string[]): Promise<Point[]> => {
    const shown = await run(['index', 'show', 'pair', '--from', '2026-10-01', '--json', ...extra]);
    expect(shown.stderr).toBe('');
    return JSON.parse(shown.stdout).points;
  };
  const at = (points: Point[], day: string) => points.find((p) => p.at === `${day}T00:00:00Z`)!;

  beforeAll(async () => {
    const product = (productKey: string, refsourceId: string) =>
      testProduct({ productKey, refsourceId, tcgplayerId: null, productName: productKey, setName: 'Pair' });
    db = await databaseWith(
      [product('card-a', '1'), product('card-b', '2')],
      [...sales('card-a', 10_000), ...sales('card-b', 5_000)],
    );
    const added = await run(['index', 'add', 'pair', '--set', 'Pair', '--base-date', '2026-10-01']);
    expect(added.code, added.stderr).toBe(0);
  });

  it('publishes, restates a changed past day as its next version, and reads an old version back', async () => {
    const first = await run(['index', 'publish', 'pair', '--to', '2026-10-08']);
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe(
      'published index pair: 8 days 2026-10-01 to 2026-10-08, 8 new, 0 unchanged, 0 restated\n',
    );
    const published = await show();
    expect(published).toHaveLength(11);
    expect(published.slice(0, 8).every((p) => p.version === 1)).toBe(true);
    expect(published.slice(8).every((p) => p.version === null)).toBe(true);
    const text = await run(['index', 'show', 'pair', '--from', '2026-10-01']);
    expect(text.stdout).toContain('published: 8 of 11 points (0 restated), the rest computed now');

    // Late sales of card-b at a new level, dated before 2026-10-05: that day's value changes.
    const late = [
      'product_key,source,observed_at,price_minor,grader,grade,external_id',
      ...Array.from(
        { length: 24 },
        (_, h) => `card-b,ebay,2026-10-04T${String(h).padStart(2, '0')}:30:00Z,5500,ungraded,,late-${h}`,
      ),
    ].join('\n');
    const ingested = await run(['ingest', '-'], late);
    expect(ingested.code, ingested.stderr).toBe(0);

    const second = await run(['index', 'publish', 'pair', '--json']);
    expect(second.stderr).toBe('');
    const report = JSON.parse(second.stdout);
    expect(report).toMatchObject({ days: 11, first_published: 3 });
    const restatedDays = report.restated.map((r: { at: string }) => r.at.slice(0, 10));
    expect(restatedDays).toContain('2026-10-05');
    expect(restatedDays.every((d: string) => d >= '2026-10-04' && d <= '2026-10-08')).toBe(true);
    expect(report.unchanged).toBe(8 - restatedDays.length);
    const fifth = report.restated.find((r: { at: string }) => r.at.startsWith('2026-10-05'));
    expect(fifth).toMatchObject({
      version: 2,
      previous_version: 1,
      previous_value: at(published, '2026-10-05').value,
    });
    expect(fifth.value).not.toBe(fifth.previous_value);

    const latest = await show();
    expect(at(latest, '2026-10-05')).toMatchObject({ version: 2, value: fifth.value });
    expect(at(latest, '2026-10-01').version).toBe(1);
    expect(latest.every((p) => p.version !== null)).toBe(true);
    const old = await show('--version', '1');
    expect(at(old, '2026-10-05')).toMatchObject({ version: 1, value: fifth.previous_value });
    // Versions are per day: a day first published by the second run is that day's version 1.
    expect(at(old, '2026-10-10').version).toBe(1);
    const csv = await run(['index', 'show', 'pair', '--from', '2026-10-05', '--to', '2026-10-05', '--csv']);
    expect(csv.stdout).toBe(`at,value,low,high,priced,linked,version\n${csvRow(latest, '2026-10-05')}\n`);

    // Nothing changed since: a third publication stores nothing and says so.
    const third = await run(['index', 'publish', 'pair']);
    expect(third.stdout).toBe(
      'published index pair: 11 days 2026-10-01 to 2026-10-11, 0 new, 11 unchanged, 0 restated\n',
    );
  });

  it('refuses a version never published, or one read off the published series', async () => {
    const cases: [string[], RegExp][] = [
      [['index', 'show', 'pair', '--version', '9'], /index pair has versions 1 to 2; got version 9/],
      [['index', 'show', 'pair', '--version', '0'], /--version must be a whole number, 1 or more/],
      [['index', 'show', 'pair', '--version', '1', '--every', '1w'], /published values are the daily index/],
      [['index', 'publish', 'nope'], /no index named "nope"/],
      [['index', 'publish', 'pair', '--to', '2026-09-01'], /before the index's base date/],
    ];
    for (const [args, message] of cases) {
      const result = await run(args);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.code, args.join(' ')).not.toBe(0);
    }
  });
});

function csvRow(points: Point[], day: string): string {
  const p = points.find((q) => q.at === `${day}T00:00:00Z`) as unknown as Record<string, unknown>;
  return ['at', 'value', 'low', 'high', 'priced', 'linked', 'version'].map((k) => p[k]).join(',');
}
