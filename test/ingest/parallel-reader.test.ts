/**
 * The parse worker against the single-threaded reader on the same inputs. The worker runs
 * the compiled build/ingest/parallel-worker.js, so this file uses the built modules of build/
 * (`npm run build` first, as for the CLI tests). Each side writes into a database of its own
 * on the run's store (a SQLite file, or PostgreSQL in the vitest project `postgres`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { newTestDatabase } from '../_pg.js';
import { ROOT, tempDir } from '../_setup.js';
import { selectRows } from '../_store.js';

type Pipeline = typeof import('../../src/ingest/pipeline.js');
type Stores = typeof import('../../src/store/open-store.js');
type Rejects = typeof import('../../src/ingest/write/rejects-writer.js');
type Parallel = typeof import('../../src/ingest/parallel-reader.js');

const built = <T>(path: string): Promise<T> =>
  import(pathToFileURL(join(ROOT, 'build', path)).href) as Promise<T>;
let pipeline: Pipeline;
let stores: Stores;
let rejectsModule: Rejects;
let dir: string;

const CATALOG = [
  'product_key,refsource_id,product_name',
  'charizard-4,1001,Charizard #4',
  'pikachu-58,1002,Pikachu',
].join('\n');

/** Several 64 KiB chunks of rows, with every kind of reject and duplicate spread through them. */
function observations(rows: number): string {
  const lines = ['product_key,refsource_id,source,observed_at,price,grader,grade,external_id'];
  for (let i = 1; i <= rows; i += 1) {
    const at = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
    if (i % 997 === 0) lines.push(`unknown-card,,ebay,${at},1.00,,,`);
    else if (i % 991 === 0) lines.push(`charizard-4,,ebay,${at},-1,,,`);
    else if (i % 983 === 0) lines.push('too,few');
    else if (i % 977 === 0) lines.push(`charizard-4,,ebay,${at.replace('Z', '')},1.00,,,`);
    else if (i % 13 === 0)
      lines.push(lines[lines.length - 1] as string); // repeated row
    else if (i % 2 === 0)
      lines.push(`,1002,ebay,${at},${i % 500}.5,PSA,${(i % 10) + 1},"e-${i}, ""quoted"""`);
    else lines.push(`charizard-4,,tcg,${at},${i}.25,,,`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

async function ingestBoth(name: string, content: string, clock: () => number = Date.now) {
  const path = join(dir, name);
  writeFileSync(path, content);
  const runs = [];
  for (const parallel of [false, true]) {
    const db = await newTestDatabase(tempDir());
    const store = await stores.openStore(db, { create: true });
    const options = { maxRejects: 0, clock, stdin: Readable.from([]), parallel };
    await pipeline.ingestSource(store, join(dir, 'catalog.csv'), options);
    const rejectsPath = join(dir, `${name}.${parallel}.rejects`);
    const rejects = new rejectsModule.RejectsWriter(rejectsPath, 0);
    const result = await pipeline.ingestSource(store, path, { ...options, rejects });
    const outcome =
      result.failure === null
        ? { counts: result.counts, firstReject: result.firstReject }
        : { error: result.failure.message };
    rejects.close();
    await store.close();
    // By what a row holds, not its id: PostgreSQL's ids of one batch need not follow the file's order.
    const rows = await selectRows(
      db,
      'SELECT product_id, condition, observed_at, price_minor, source, grader, grade, external_id FROM observations ORDER BY observed_at, product_id, condition, source, price_minor, external_id',
    );
    const products = await selectRows(
      db,
      'SELECT product_key, observation_count, earliest_observed_at FROM products ORDER BY id',
    );
    const runsTable = await selectRows(
      db,
      'SELECT kind, format, status, read_count, inserted_count, duplicate_count, rejected_count, error FROM ingest_runs ORDER BY id',
    );
    runs.push({ outcome, rows, products, runs: runsTable, rejects: readFileSync(rejectsPath, 'utf8') });
  }
  return runs as [(typeof runs)[number], (typeof runs)[number]];
}

beforeAll(async () => {
  [pipeline, stores, rejectsModule] = await Promise.all([
    built<Pipeline>('ingest/pipeline.js'),
    built<Stores>('store/open-store.js'),
    built<Rejects>('ingest/write/rejects-writer.js'),
  ]);
  dir = tempDir();
  writeFileSync(join(dir, 'catalog.csv'), CATALOG);
  expect((await built<Parallel>('ingest/parallel-reader.js')).parallelReaderAvailable()).toBe(true);
});

describe('canonical CSV observations parsed in a worker thread', () => {
  it('store the same rows, counts, run record and rejects (in order, with their lines) as on one thread', async () => {
    const [single, parallel] = await ingestBoth('obs.csv', observations(6_000));
    expect(parallel).toEqual(single);
    // 24 bad rows, two of them repeated by the i % 13 rule.
    expect(single.outcome).toMatchObject({ counts: { read: 6_000, rejected: 26 } });
    expect(single.rows.length).toBeGreaterThan(5_000);
    expect(single.rejects.trim().split('\n')).toHaveLength(26);
  });

  it('refuse dates that do not exist and observations dated after the clock with the same reasons and lines', async () => {
    const now = Date.parse('2025-01-03T00:00:00Z');
    // Rows one minute apart from 2025-01-01 (observations()): the last 1,440 - 5 are after `now` + 5 minutes.
    const content = `${observations(4_000)}charizard-4,,ebay,2025-02-29T00:00:00Z,1.00,,,\ncharizard-4,,ebay,2025-01-01T24:00:00Z,1.00,,,\n`;
    const [single, parallel] = await ingestBoth('dates.csv', content, () => now);
    expect(parallel).toEqual(single);
    const reasons = single.rejects
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { reason: string }).reason);
    expect(
      reasons.filter((r) =>
        r.includes('is in the future (more than 5 minutes after now, 2025-01-03T00:00:00Z)'),
      ).length,
    ).toBeGreaterThan(1_000);
    expect(reasons.slice(-2)).toEqual([
      'observed_at "2025-02-29T00:00:00Z" is not a real date: February 2025 has 28 days',
      'observed_at "2025-01-01T24:00:00Z" is not a real time: there is no hour 24 (midnight is 00:00 of the next day)',
    ]);
    expect(single.rows.length).toBeGreaterThan(2_000);
  });

  it('keep the rows before a broken record and stop with the same InputError', async () => {
    const [single, parallel] = await ingestBoth(
      'broken.csv',
      `${observations(2_000)}charizard-4,,ebay,"2025-03-01T10:00:00Z,1,,,\n`,
    );
    expect(parallel).toEqual(single);
    expect(single.outcome).toEqual({
      error: expect.stringMatching(/broken\.csv:2002: unterminated quoted field/),
    });
    expect(single.rows.length).toBeGreaterThan(1_500);
  });
});
