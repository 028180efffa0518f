// @module-tag sqlite-only: date rules at ingest, before the store: ingest runs on both stores in cli/ingest-
// dates.test.ts
/**
 * Observation and catalog dates at ingest, over a real SQLite file: a date that does not
 * exist or an observation dated more than five minutes after the ingest's clock is a reject
 * with its line and reason; every good record still lands. The clock is injected.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestSource, type IngestOptions } from '../../src/ingest/pipeline.js';
import { RejectsWriter } from '../../src/ingest/write/rejects-writer.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { tempDir } from '../_setup.js';

const NOW = Date.parse('2026-11-22T05:30:00Z');
const CATALOG = 'product_key,refsource_id,product_name\ncharizard-4,1001,Charizard #4\n';

let dir: string;
let store: Store;
let reader: Database.Database;

beforeEach(async () => {
  dir = tempDir();
  store = await openStore(join(dir, 'oracle.db'), { create: true });
  await ingestSource(store, write('catalog.csv', CATALOG), options());
  reader = new Database(join(dir, 'oracle.db'), { readonly: true });
});

afterEach(async () => {
  reader.close();
  await store.close();
});

function options(extra: Partial<IngestOptions> = {}): IngestOptions {
  return { maxRejects: 1_000, clock: () => NOW, stdin: Readable.from([]), ...extra };
}

function write(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** Ingests `path` with a rejects file; the rejects as {line, reason}. */
async function ingestWithRejects(path: string, extra: Partial<IngestOptions> = {}) {
  const rejectsPath = join(dir, 'rejects.ndjson');
  rmSync(rejectsPath, { force: true }); // the writer appends: this call's rejects only
  const rejects = new RejectsWriter(rejectsPath, NOW);
  const result = await ingestSource(store, path, options({ rejects, ...extra }));
  rejects.close();
  const lines = readFileSync(rejectsPath, 'utf8').trim().split('\n').filter(Boolean);
  return {
    result,
    rejects: lines.map(
      (l) => JSON.parse(l) as { line: number; reason: string; record: Record<string, unknown> },
    ),
  };
}

const storedTimes = () =>
  (
    reader.prepare('SELECT observed_at FROM observations ORDER BY observed_at').all() as {
      observed_at: number;
    }[]
  ).map((r) => r.observed_at);

/** [observed_at as written, the reject reason or null when it is kept]. */
const CASES: [string, string | null][] = [
  ['2026-11-20T10:00:00Z', null],
  [
    '2026-02-30T10:00:00Z',
    'observed_at "2026-02-30T10:00:00Z" is not a real date: February 2026 has 28 days',
  ],
  [
    '2025-02-29T10:00:00Z',
    'observed_at "2025-02-29T10:00:00Z" is not a real date: February 2025 has 28 days',
  ],
  ['2024-02-29T10:00:00Z', null],
  [
    '2026-11-21T24:00:00Z',
    'observed_at "2026-11-21T24:00:00Z" is not a real time: there is no hour 24 (midnight is 00:00 of the next day)',
  ],
  [
    '2026-11-21T23:59:60Z',
    'observed_at "2026-11-21T23:59:60Z" is not a real time: leap second 60 is not accepted (use 59)',
  ],
  // Five minutes of clock skew are kept; a second more is the future.
  ['2026-11-22T05:35:00Z', null],
  [
    '2026-11-22T05:35:01Z',
    'observed_at 2026-11-22T05:35:01Z is in the future (more than 5 minutes after now, 2026-11-22T05:30:00Z)',
  ],
  ['2026-11-22T11:04:00+05:30', null],
  [
    '2026-11-22T11:30:00+05:30',
    'observed_at 2026-11-22T06:00:00Z is in the future (more than 5 minutes after now, 2026-11-22T05:30:00Z)',
  ],
  [
    '2125-01-01T00:00:00Z',
    'observed_at 2125-01-01T00:00:00Z is in the future (more than 5 minutes after now, 2026-11-22T05:30:00Z)',
  ],
];
const KEPT = CASES.filter(([, reason]) => reason === null)
  .map(([at]) => Date.parse(at))
  .sort((a, b) => a - b);

describe('observation dates at ingest', () => {
  it('canonical CSV: keeps the good rows, rejects impossible and future dates with line and reason', async () => {
    const csv = [
      'product_key,source,observed_at,price_minor',
      ...CASES.map(([at]) => `charizard-4,ebay,${at},1000`),
    ].join('\n');
    const { result, rejects } = await ingestWithRejects(write('obs.csv', csv));
    expect(result.counts).toMatchObject({
      read: CASES.length,
      inserted: KEPT.length,
      rejected: CASES.length - KEPT.length,
    });
    expect(storedTimes()).toEqual(KEPT);
    const expected = CASES.flatMap(([at, reason], i) =>
      reason === null ? [] : [{ line: i + 2, reason, observed_at: at }],
    );
    expect(
      rejects.map((r) => ({ line: r.line, reason: r.reason, observed_at: r.record.observed_at })),
    ).toEqual(expected);
  });

  it('NDJSON and JSON arrays: the same reasons on the same records', async () => {
    const records = CASES.map(([at]) => ({
      product_key: 'charizard-4',
      source: 'tcg',
      observed_at: at,
      price: 10,
    }));
    const ndjson = await ingestWithRejects(
      write('obs.ndjson', records.map((r) => JSON.stringify(r)).join('\n')),
    );
    expect(ndjson.result.counts).toMatchObject({
      inserted: KEPT.length,
      rejected: CASES.length - KEPT.length,
    });
    expect(ndjson.rejects.map((r) => [r.line, r.reason])).toEqual(
      CASES.flatMap(([, reason], i) => (reason === null ? [] : [[i + 1, reason]])),
    );
    // The same observations again from a JSON array: duplicates now, and the same rejects.
    const json = await ingestWithRejects(write('obs.json', JSON.stringify(records)));
    expect(json.result.counts).toMatchObject({
      inserted: 0,
      duplicates: KEPT.length,
      rejected: CASES.length - KEPT.length,
    });
    expect(json.rejects.map((r) => r.reason)).toEqual(ndjson.rejects.map((r) => r.reason));
  });

  it('exits the run as rejected (exit 3 in the CLI) when the rejects pass --max-rejects, keeping the good rows', async () => {
    const csv = [
      'product_key,source,observed_at,price_minor',
      'charizard-4,ebay,2026-11-20T10:00:00Z,1000',
      'charizard-4,ebay,2027-01-01T00:00:00Z,1000',
    ].join('\n');
    const { result } = await ingestWithRejects(write('future.csv', csv), { maxRejects: 0 });
    expect(result.overLimit).toBe(true);
    expect(result.firstReject).toEqual({
      line: 3,
      reason: expect.stringMatching(/^observed_at 2027-01-01T00:00:00Z is in the future/),
    });
    expect(storedTimes()).toEqual([Date.parse('2026-11-20T10:00:00Z')]);
  });

  it('reads the clock again before refusing, so a live pipe is judged by the time it has reached', async () => {
    const clock = { now: NOW };
    async function* live() {
      yield Buffer.from(
        'product_key,source,observed_at,price_minor\ncharizard-4,ebay,2026-11-22T05:00:00Z,1000\n',
      );
      clock.now = NOW + 2 * 3_600_000; // two hours later, the feed sends a sale of one hour after the start
      yield Buffer.from(
        'charizard-4,ebay,2026-11-22T06:30:00Z,1000\ncharizard-4,ebay,2026-11-22T08:00:00Z,1000\n',
      );
    }
    const { result, rejects } = await ingestWithRejects('-', {
      stdin: Readable.from(live()),
      clock: () => clock.now,
      parallel: false,
    });
    expect(result.counts).toMatchObject({ inserted: 2, rejected: 1 });
    expect(rejects.map((r) => r.reason)).toEqual([
      'observed_at 2026-11-22T08:00:00Z is in the future (more than 5 minutes after now, 2026-11-22T07:30:00Z)',
    ]);
  });
});

describe('catalog release_date at ingest', () => {
  it('rejects a date that does not exist with its reason and keeps the other products', async () => {
    const csv = [
      'product_key,product_name,release_date',
      'leap-ok,Leap Day Promo,2024-02-29',
      'leap-bad,Not A Leap Day,2025-02-29',
      'month-13,Month Thirteen,2026-13-01',
      'day-00,Day Zero,2026-01-00',
      'slashes,Slashed Date,09/01/1999',
    ].join('\n');
    const { result, rejects } = await ingestWithRejects(write('catalog-dates.csv', csv));
    expect(result.counts).toMatchObject({ inserted: 1, rejected: 4 });
    expect(rejects.map((r) => [r.line, r.reason])).toEqual([
      [3, 'release_date "2025-02-29" is not a real date: February 2025 has 28 days'],
      [4, 'release_date "2026-13-01" is not a real date: there is no month 13'],
      [5, 'release_date "2026-01-00" is not a real date: there is no day 00'],
      [6, 'release_date must be a date as YYYY-MM-DD (got "09/01/1999")'],
    ]);
    expect(reader.prepare("SELECT release_date FROM products WHERE product_key = 'leap-ok'").get()).toEqual({
      release_date: '2024-02-29',
    });
  });
});
