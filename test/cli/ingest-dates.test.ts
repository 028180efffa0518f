/**
 * Dates given to `oracle ingest`, through real child processes of bin/oracle.js (build first):
 * rows dated in the future or on days that do not exist are rejected with line and reason
 * while the good rows land; an impossible or future --observed-at stops before any source.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { newTestDatabase } from '../_pg.js';
import { runOracle } from '../_cli.js';
import { tempDir } from '../_setup.js';
import { selectRows } from '../_store.js';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

let dir: string;
let db: string;
const cli = (args: string[]) => runOracle(['--db', db, ...args]);

beforeAll(async () => {
  dir = tempDir();
  db = await newTestDatabase(dir);
  writeFileSync(
    join(dir, 'catalog.csv'),
    'product_key,refsource_id,product_name\ncharizard-4,1001,Charizard #4\n',
  );
  expect((await cli(['ingest', join(dir, 'catalog.csv')])).code).toBe(0);
});

describe('oracle ingest with dates that cannot be stored', () => {
  it('keeps the good rows, reports each bad one with line and reason in --rejects, and exits 3', async () => {
    const started = Date.now();
    const lastHour = iso(started - HOUR);
    const tomorrow = iso(started + 24 * HOUR);
    const csv = [
      'product_key,source,observed_at,price_minor,external_id',
      `charizard-4,ebay,${lastHour},35000,good-1`,
      'charizard-4,ebay,2026-02-30T10:00:00Z,35000,bad-day',
      `charizard-4,ebay,${tomorrow},35000,future`,
      'charizard-4,ebay,2025-11-30T24:00:00Z,35000,bad-hour',
      'charizard-4,ebay,2024-02-29T10:00:00Z,36000,good-2',
    ].join('\n');
    writeFileSync(join(dir, 'obs.csv'), csv);
    const rejectsPath = join(dir, 'rejects.ndjson');
    const result = await cli(['ingest', join(dir, 'obs.csv'), '--rejects', rejectsPath]);
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/^ingested .*obs\.csv: read 5, inserted 2, duplicates 0, rejected 3 in /);
    expect(result.stderr).toMatch(
      /obs\.csv:3: 3 records rejected, more than --max-rejects 0 .*first: observed_at "2026-02-30T10:00:00Z" is not a real date: February 2026 has 28 days\n$/,
    );

    const rejects = readFileSync(rejectsPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number; reason: string });
    expect(rejects.map((r) => r.line)).toEqual([3, 4, 5]);
    expect(rejects[0]?.reason).toBe(
      'observed_at "2026-02-30T10:00:00Z" is not a real date: February 2026 has 28 days',
    );
    expect(rejects[1]?.reason).toMatch(
      new RegExp(
        `^observed_at ${tomorrow} is in the future \\(more than 5 minutes after now, \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\)$`,
      ),
    );
    const now = Date.parse(/after now, (\S+)\)$/.exec(rejects[1]!.reason)![1]!);
    expect(now).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000);
    expect(now).toBeLessThanOrEqual(Date.now());
    expect(rejects[2]?.reason).toBe(
      'observed_at "2025-11-30T24:00:00Z" is not a real time: there is no hour 24 (midnight is 00:00 of the next day)',
    );

    expect(await selectRows(db, 'SELECT external_id FROM observations ORDER BY observed_at')).toEqual([
      { external_id: 'good-2' },
      { external_id: 'good-1' },
    ]);
  });

  it('keeps an observation dated a minute ahead of the clock (skew) and exits 0', async () => {
    writeFileSync(
      join(dir, 'skew.csv'),
      `product_key,source,observed_at,price_minor,external_id\ncharizard-4,ebay,${iso(Date.now() + 60_000)},35000,skew\n`,
    );
    const result = await cli(['ingest', join(dir, 'skew.csv')]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/inserted 1, duplicates 0, rejected 0/);
  });

  it.each([
    [
      '2026-02-30T00:00:00Z',
      /^oracle: --observed-at "2026-02-30T00:00:00Z" is not a real date: February 2026 has 28 days\n$/,
    ],
    ['2026-11-20T06:00', /^oracle: --observed-at "2026-11-20T06:00" has no time zone/],
    [
      '2999-01-01T00:00:00Z',
      /^oracle: --observed-at 2999-01-01T00:00:00Z is in the future \(more than 5 minutes after now, /,
    ],
  ])('exits 2 for --observed-at %s before reading any source', async (observedAt, message) => {
    const result = await cli(['ingest', '--observed-at', observedAt, join(dir, 'no-such-file.csv')]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });
});
