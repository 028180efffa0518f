// @module-tag sqlite-only: the CLI's history views; series reads on PostgreSQL are test/http/history.test.ts's and test/store/price-points.test.ts's
/** `oracle history` and the change line of `oracle price`, run in process (test/_cli.ts) over a database of the run's store. */
import { beforeAll, describe, expect, it } from 'vitest';
import { toIsoUtc } from '../../src/domain/time.js';
import { runOracle } from '../_cli.js';
import { databaseWith, testProduct } from '../_setup.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TO_MS = Date.parse('2026-10-15T12:00:00Z');
const TO = toIsoUtc(TO_MS);
const KEY = 'pokemon-base-set-charizard-4-102';

const card = testProduct({ productKey: KEY });

/** Three flat stretches: $50 until 20 days before TO, $100 until 5 days before, $200 since. */
function ungradedPrice(t: number): number {
  if (t < TO_MS - 20 * DAY) return 5_000;
  if (t < TO_MS - 5 * DAY) return 10_000;
  return 20_000;
}

let db: string;
const cli = (...args: string[]) => runOracle(['--db', db, ...args]);

beforeAll(async () => {
  const rows = [];
  for (let t = TO_MS - 45 * DAY; t < TO_MS; t += 2 * HOUR) {
    rows.push({
      productKey: KEY,
      source: 'ebay',
      observedAt: t,
      priceMinor: ungradedPrice(t),
      grader: 'ungraded',
      grade: null,
      externalId: `u${t}`,
    });
    if ((t / (2 * HOUR)) % 6 === 0) {
      rows.push({
        productKey: KEY,
        source: 'ebay',
        observedAt: t,
        priceMinor: 300_000 + ((t / HOUR) % 7) * 1_000,
        grader: 'PSA',
        grade: 10,
        externalId: `g${t}`,
      });
    }
  }
  db = await databaseWith([card], rows);
});

describe.concurrent('oracle history', () => {
  it('--json: every step priced as oracle price prices that instant alone', async () => {
    const from = toIsoUtc(TO_MS - 30 * DAY);
    const result = await cli('history', KEY, '--from', from, '--to', TO, '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(Object.keys(body)).toEqual(['product_key', 'slots', 'every', 'points']);
    expect(body).toMatchObject({ product_key: KEY, slots: ['ungraded', 'psa10'], every: '1d' });
    expect(body.points).toHaveLength(31);
    for (const [i, point] of (body.points as any[]).entries()) {
      const at = toIsoUtc(TO_MS - (30 - i) * DAY);
      expect(point.at).toBe(at);
      const bundle = JSON.parse((await cli('price', KEY, '--at', at, '--json')).stdout);
      expect(point.ungraded).toEqual({
        price_minor: bundle.ungraded.price_minor,
        confidence: bundle.ungraded.meta.confidence ?? null,
      });
      expect(point.psa10.price_minor).toBe(bundle.graded.PSA['10'].price_minor);
    }
    // The flat stretches, independently of the engine: $50, then $100, then $200.
    expect(body.points[0].ungraded.price_minor).toBe(5_000);
    expect(body.points[20].ungraded.price_minor).toBe(10_000);
    expect(body.points[30].ungraded.price_minor).toBe(20_000);
  });

  it('draws a chart per slot with first, last, min, max and the change over 7, 30 and 90 days', async () => {
    const result = await cli(
      'history',
      '--refsource',
      '631245',
      '--slots',
      'ungraded',
      '--from',
      toIsoUtc(TO_MS - 30 * DAY),
      '--to',
      TO,
    );
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain('Charizard - 4/102 Holo | Base Set');
    expect(out).toContain(`${KEY}\n${toIsoUtc(TO_MS - 30 * DAY)} -> ${TO}, every 1d, 31 points`);
    expect(out).toMatch(/┤/);
    expect(out).toContain('last   $200.00 (2026-10-15)');
    expect(out).toContain('first  $50.00 (2026-09-15)');
    expect(out).toMatch(/min +\$50\.00 \(2026-09-15\) +max \$200\.00 \(2026-10-1\d\)/);
    expect(out).toContain('change 7d +$100.00 (+100.0%)  30d +$150.00 (+300.0%)  90d n/a');
    expect(out).not.toContain('psa10');
    for (const line of out.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('--csv: a header and one row per step, prices and intervals in cents', async () => {
    const result = await cli(
      'history',
      KEY,
      '--every',
      '1w',
      '--from',
      toIsoUtc(TO_MS - 28 * DAY),
      '--to',
      TO,
      '--slots',
      'ungraded',
      '--csv',
    );
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('at,ungraded_price_minor,ungraded_low_minor,ungraded_high_minor');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(
      [28, 21, 14, 7, 0].map((d) => toIsoUtc(TO_MS - d * DAY)),
    );
    expect(lines.at(-1)!.split(',')[1]).toBe('20000');
  });

  it('takes dates and slots as people write them: a date alone is its close for --to and --at, its start for --from', async () => {
    const result = await cli(
      'history',
      KEY,
      '--from',
      '2026-10-01',
      '--to',
      '2026-10-03',
      '--slots',
      'raw, PSA 10',
      '--json',
    );
    expect(result.stderr).toBe('');
    const body = JSON.parse(result.stdout);
    expect(body.slots).toEqual(['ungraded', 'psa10']);
    expect(body.points.map((p: { at: string }) => p.at)).toEqual([
      '2026-10-01T23:59:59Z',
      '2026-10-02T23:59:59Z',
      '2026-10-03T23:59:59Z',
    ]);
    const close = JSON.parse((await cli('price', KEY, '--at', '2026-10-03', '--json')).stdout);
    expect(close.ungraded.window_end).toBe('2026-10-03T23:59:59Z');
    expect(body.points[2].ungraded.price_minor).toBe(close.ungraded.price_minor);
    expect(body.points[2].psa10.price_minor).toBe(close.graded.PSA['10'].price_minor);
    // A span before now: its points end now, whatever the clock says.
    const recent = JSON.parse((await cli('history', KEY, '--from', '2d', '--to', 'now', '--json')).stdout);
    expect(recent.points).toHaveLength(3);
  });

  it('refuses more than 1,000 points, naming the limit', async () => {
    const result = await cli(
      'history',
      KEY,
      '--every',
      '1h',
      '--from',
      toIsoUtc(TO_MS - 60 * DAY),
      '--to',
      TO,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/a history is at most 1,000 points: --from to --to every 1h is 1441/);
  });

  it('exits 2 naming the option for bad --every, --slots, --from, --to', async () => {
    const cases: [string[], RegExp][] = [
      [['--every', 'daily'], /--every must be a step like 1h, 1d or 1w/],
      [['--slots', 'ungraded,psa6'], /--slots must be .*unknown: "psa6"/],
      [
        ['--from', 'yesterday'],
        /^oracle: --from must be an ISO-8601 date-time with Z or an offset \(2026-10-28T12:00:00Z\), a date alone/,
      ],
      [['--to', '0999-01-01'], /^oracle: --to "0999-01-01" is outside the years 1000 to 9999/],
      // 90 days before a --to of 1000-01-05 would be written as a year before 1000.
      [['--to', '1000-01-05'], /^oracle: --from 1000-01-01T00:00:00Z is the earliest a history starts/],
      [
        ['--from', '2026-02-30'],
        /^oracle: --from "2026-02-30" is not a real date: February 2026 has 28 days/,
      ],
      [['--from', '2026-02-30T00:00:00Z'], /--from .*February 2026 has 28 days/],
      [['--to', toIsoUtc(Date.now() + DAY)], /--to .*is in the future/],
      [['--from', TO, '--to', toIsoUtc(TO_MS - DAY)], /--from must not be later than --to/],
      [['--json', '--csv'], /^oracle: option '--csv' cannot be used with option '--json'\n/],
    ];
    for (const [args, message] of cases) {
      const result = await cli('history', KEY, ...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
  });

  it('names close keys for an unknown product', async () => {
    const result = await cli('history', 'pokemon-base-set-charzard');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`did you mean "${KEY}"`);
  });
});

describe.concurrent('oracle price change line', () => {
  it('shows how the ungraded price moved over 7 and 30 days', async () => {
    const result = await cli('price', KEY, '--at', TO);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('change:      ungraded 7d +$100.00 (+100.0%)  30d +$150.00 (+300.0%)');
  });

  it('says n/a where the history does not reach back', async () => {
    // 7 days before: the same $50 stretch; 30 days before: before the first sale.
    const result = await cli('price', KEY, '--at', toIsoUtc(TO_MS - 35 * DAY));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('change:      ungraded 7d ±$0.00 (0.0%)  30d n/a');
  });

  it('keeps --json exactly the API body', async () => {
    const result = await cli('price', KEY, '--at', TO, '--json');
    expect(result.stdout).not.toContain('change');
    expect(Object.keys(JSON.parse(result.stdout))).toEqual([
      'id',
      'product_key',
      'window_hours',
      'outlier_stddevs',
      'ungraded',
      'graded',
      'metadata',
    ]);
  });
});
