import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { SourceUnreadableError } from '../../src/domain/errors.js';
import { InputError } from '../../src/domain/errors.js';
import { GzipCorruptError, IngestInterruptedError, MapperBugError } from '../../src/ingest/errors.js';
import { JSON_FEED_FORMATS } from '../../src/ingest/formats/index.js';
import { RowRejection, type JsonFormat } from '../../src/ingest/formats/types.js';
import { ingestSource, type IngestOptions } from '../../src/ingest/pipeline.js';
import { RejectsWriter } from '../../src/ingest/write/rejects-writer.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { newTestDatabase } from '../_pg.js';
import { tempDir } from '../_setup.js';
import { selectRows } from '../_store.js';

const CATALOG = [
  'product_key,refsource_id,product_name,set_name,era,release_date',
  'charizard-4,1001,Charizard #4,Base Set,vintage,1999-01-09',
  'pikachu-58,1002,"Pikachu, ""Yellow Cheeks""",Base Set,vintage,',
].join('\n');

const OBSERVATIONS = [
  'product_key,refsource_id,source,observed_at,price,grader,grade,external_id',
  'charizard-4,,ebay,2025-03-01T10:00:00Z,350.00,PSA,9,e-1',
  ',1002,ebay,2025-03-01T11:00:00+01:00,12.5,,,',
  'charizard-4,,ebay,2025-03-01T10:00:00Z,350.00,PSA,9,e-1', // repeated in the file
  'charizard-4,,pricecharting,2025-03-02T00:00:00Z,1200,ANY,9,',
].join('\r\n');

let dir: string;
let store: Store;

function options(extra: Partial<IngestOptions> = {}): IngestOptions {
  return { maxRejects: 0, clock: Date.now, stdin: Readable.from([]), ...extra };
}

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

let location: string;

/** Rows of a table, read through a second connection (the store has no such query). */
async function count(table: string): Promise<number> {
  return (await selectRows<{ n: number }>(location, `SELECT count(*) AS n FROM ${table}`))[0]!.n;
}

beforeEach(async () => {
  dir = tempDir();
  location = await newTestDatabase(dir);
  store = await openStore(location, { create: true });
  await ingestSource(store, file('catalog.csv', CATALOG), options());
});

afterEach(async () => {
  await store.close();
});

describe('ingestSource', () => {
  it('loads catalog records from a CSV with quoted fields and reports them', async () => {
    expect(await store.products.findByRefsourceId('1002')).toMatchObject({
      productKey: 'pikachu-58',
      productName: 'Pikachu, "Yellow Cheeks"',
      era: 'vintage',
      releaseDate: null,
    });
    expect(await count('products')).toBe(2);
  });

  it('inserts observations, resolving refsource ids, and counts a repeated record as a duplicate', async () => {
    const result = await ingestSource(store, file('obs.csv', OBSERVATIONS), options());
    expect(result.counts).toMatchObject({ read: 4, inserted: 3, updated: 0, duplicates: 1, rejected: 0 });
    expect(result.kinds).toEqual(['observations']);
    expect(await count('observations')).toBe(3);
    expect((await store.products.catalog()).find((p) => p.product_key === 'pikachu-58')).toMatchObject({
      observation_count: 1,
      earliest_observation: '2025-03-01',
    });
  });

  it('adds nothing when the same input is ingested again, and says so', async () => {
    await ingestSource(store, file('obs.csv', OBSERVATIONS), options());
    const again = await ingestSource(store, join(dir, 'obs.csv'), options());
    expect(again.counts).toMatchObject({ read: 4, inserted: 0, updated: 0, duplicates: 4, rejected: 0 });
    const catalogAgain = await ingestSource(store, join(dir, 'catalog.csv'), options());
    expect(catalogAgain.counts).toMatchObject({ inserted: 0, updated: 0, duplicates: 2 });
    expect(await count('observations')).toBe(3);
  });

  it('updates a product whose catalog record changed', async () => {
    const changed = CATALOG.replace('Charizard #4', 'Charizard #4/102');
    const result = await ingestSource(store, file('catalog2.csv', changed), options());
    expect(result.counts).toMatchObject({ inserted: 0, updated: 1, duplicates: 1 });
    expect((await store.products.findByKey('charizard-4'))?.productName).toBe('Charizard #4/102');
  });

  it('writes nothing on a dry run but reports what it would insert', async () => {
    const result = await ingestSource(store, file('obs.csv', OBSERVATIONS), options({ dryRun: true }));
    expect(result.counts).toMatchObject({ inserted: 3, duplicates: 1 });
    expect(await count('observations')).toBe(0);
    const newProduct = await ingestSource(
      store,
      file('c.ndjson', '{"product_key":"new","product_name":"New"}\n'),
      options({ dryRun: true }),
    );
    expect(newProduct.counts.inserted).toBe(1);
    expect(await count('products')).toBe(2);
  });

  it('rejects bad records with their line and keeps every good one; the rejects file has them as NDJSON', async () => {
    const rejects = new RejectsWriter(join(dir, 'rejects.ndjson'), Date.UTC(2026, 10, 23, 5, 0, 0));
    const input = [
      OBSERVATIONS.split('\r\n')[0],
      'charizard-4,,ebay,2025-03-01T10:00:00,1,,,',
      'unknown-card,,ebay,2025-03-01T10:00:00Z,1,,,',
      ',1002,ebay,2025-03-03T00:00:00Z,2.00,,,',
      'too,few',
    ].join('\n');
    const result = await ingestSource(store, file('mixed.csv', input), options({ rejects }));
    rejects.close();
    expect(result.counts).toMatchObject({ read: 4, inserted: 1, rejected: 3 });
    expect(result.overLimit).toBe(true);
    const lines = readFileSync(join(dir, 'rejects.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.line, l.source.endsWith('mixed.csv'), l.run_at])).toEqual(
      expect.arrayContaining([
        [2, true, '2026-11-23T05:00:00.000Z'],
        [3, true, '2026-11-23T05:00:00.000Z'],
        [5, true, '2026-11-23T05:00:00.000Z'],
      ]),
    );
    expect(lines.find((l) => l.line === 3)).toMatchObject({
      reason: expect.stringMatching(/unknown product_key "unknown-card"/),
      record: { product_key: 'unknown-card' },
    });
    expect(lines.find((l) => l.line === 5)).toMatchObject({
      reason: 'expected 8 fields as in the header, found 2',
      record: ['too', 'few'],
    });
  });

  it('stays under --max-rejects when allowed', async () => {
    const result = await ingestSource(
      store,
      file('one-bad.csv', 'product_key,source,observed_at,price\ncharizard-4,ebay,2025-01-01T00:00:00Z,-1\n'),
      options({ maxRejects: 1 }),
    );
    expect(result.overLimit).toBe(false);
  });

  it('reads NDJSON and JSON arrays of observation records', async () => {
    const ndjson =
      '{"product_key":"charizard-4","source":"tcg","observed_at":"2025-03-01T00:00:00Z","price_minor":100}\n';
    const array = '[{"refsource_id":1002,"source":"tcg","observed_at":"2025-03-01T00:00:00Z","price":1.5}]';
    expect((await ingestSource(store, file('o.ndjson', ndjson), options())).counts.inserted).toBe(1);
    expect((await ingestSource(store, file('o.json', array), options())).counts.inserted).toBe(1);
  });

  it('stops a JSON array with a comma before its closing bracket (not JSON), keeping every record before it', async () => {
    const record = (i: number) =>
      `{"product_key":"charizard-4","source":"tcg","observed_at":"2025-03-0${i}T00:00:00Z","price_minor":${i}00}`;
    const result = await ingestSource(
      store,
      file('trailing.json', `[\n${record(1)},\n${record(2)},\n]\n`),
      options(),
    );
    expect(result.failure).toBeInstanceOf(InputError);
    expect(result.failure?.message).toMatch(/trailing\.json:4: a comma before the closing \] is not JSON/);
    expect(result.counts.inserted).toBe(2);
    expect(await count('observations')).toBe(2);
  });

  it('decompresses gzip by its magic bytes and sniffs the format when there is no extension', async () => {
    const result = await ingestSource(store, file('observations-export', gzipSync(OBSERVATIONS)), options());
    expect(result.counts.inserted).toBe(3);
    expect(result.format).toBe('csv');
  });

  it('writes a gzip catalog a batch at a time but commits it only at its end; a corrupt one changes no product', async () => {
    const catalog = (name: string) =>
      ['product_key,product_name', ...Array.from({ length: 50 }, (_, i) => `p-${i},${name} ${i}`)].join('\n');
    const result = await ingestSource(
      store,
      file('more.csv.gz', gzipSync(catalog('P'))),
      options({ batchSize: 7 }),
    );
    expect(result.failure).toBeNull();
    expect(result.counts).toMatchObject({ read: 50, inserted: 50 });
    expect(await count('products')).toBe(52);
    const corrupt = gzipSync(catalog('Renamed'));
    corrupt[corrupt.length - 8] = (corrupt[corrupt.length - 8] as number) ^ 0xff; // the CRC-32
    const bad = await ingestSource(store, file('renamed.csv.gz', corrupt), options({ batchSize: 7 }));
    expect(bad.failure).toBeInstanceOf(GzipCorruptError);
    expect(bad.failure?.message).toBe(
      `${join(dir, 'renamed.csv.gz')}: the gzip data is corrupt (incorrect data check): nothing from this source was committed`,
    );
    expect((await store.products.findByKey('p-0'))?.productName).toBe('P 0');
    expect((await store.products.findByKey('p-49'))?.productName).toBe('P 49');
  });

  it('writes gzip observations past several batches but commits none when the stream fails at its end', async () => {
    const rows = Array.from(
      { length: 5_000 },
      (_, i) =>
        `charizard-4,,ebay,${new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString()},1.00,,,g-${i}`,
    );
    const corrupt = gzipSync(`${OBSERVATIONS.split('\r\n')[0]}\n${rows.join('\n')}\n`);
    corrupt[corrupt.length - 8] = (corrupt[corrupt.length - 8] as number) ^ 0xff; // the CRC-32, checked at the end
    const result = await ingestSource(store, file('late.csv.gz', corrupt), options({ batchSize: 1_000 }));
    expect(result.failure).toBeInstanceOf(GzipCorruptError);
    expect(result.counts.read).toBeGreaterThan(4_000); // batches of 1,000: all but the last chunk's rows were written
    expect(result.counts.inserted).toBe(0);
    expect(await count('observations')).toBe(0);
    const [run] = await store.ingestRuns.recent(1);
    expect(run).toMatchObject({ status: 'failed', inserted_count: 0 });
  });

  it('records every run in the ingest-runs table, failed ones with their error', async () => {
    await ingestSource(store, file('obs.csv', OBSERVATIONS), options());
    expect((await ingestSource(store, join(dir, 'missing.csv'), options())).failure).toBeInstanceOf(
      SourceUnreadableError,
    );
    const [failed, ok] = await store.ingestRuns.recent(2);
    expect(ok).toMatchObject({
      kind: 'observations',
      format: 'csv',
      status: 'ok',
      read_count: 4,
      inserted_count: 3,
      duplicate_count: 1,
    });
    expect(failed).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/missing\.csv: no such file/),
    });
    expect(failed?.finished_at).toEqual(expect.any(Number));
  });

  it.each([
    ['an empty file', 'empty.csv', '', undefined, /empty\.csv:1: the file is empty/],
    [
      'unknown columns',
      'typo.csv',
      'product_key,source,obseved_at,price\n',
      undefined,
      /typo\.csv:1: unknown column "obseved_at"/,
    ],
    [
      'a header of no known kind',
      'what.csv',
      'foo,bar\n1,2\n',
      undefined,
      /what\.csv:1: cannot tell the record kind/,
    ],
    [
      'a file of the wrong kind for --kind',
      'cat.csv',
      CATALOG,
      'observations' as const,
      /cat\.csv:1: the header has catalog columns but --kind is observations/,
    ],
    [
      'NDJSON of the wrong kind',
      'cat.ndjson',
      '\n{"product_key":"a","product_name":"A"}',
      'observations' as const,
      /cat\.ndjson:2: the first record has catalog fields/,
    ],
  ])('stops that source with InputError on %s', async (_name, name, content, kind, message) => {
    const result = await ingestSource(store, file(name, content), options({ kind }));
    expect(result.failure).toBeInstanceOf(InputError);
    expect(result.failure?.message).toMatch(message);
  });

  it('commits the batches read before invalid UTF-8 and names its line', async () => {
    const good = OBSERVATIONS.split('\r\n').slice(0, 3).join('\n');
    const bytes = Buffer.concat([
      Buffer.from(`${good}\n`),
      Buffer.from('charizard-4,,eb'),
      Buffer.from([0xff]),
      Buffer.from('ay,2025-03-01T10:00:00Z,1,,,\n'),
    ]);
    const result = await ingestSource(store, file('bad.csv', bytes), options({ batchSize: 1 }));
    expect(result.failure?.message).toMatch(/bad\.csv:4: invalid UTF-8/);
    expect(result.counts).toMatchObject({ read: 2, inserted: 2 });
    expect(await count('observations')).toBe(2);
  });

  it('stops after committing what was read when interrupted', async () => {
    const controller = new AbortController();
    const rows = Array.from({ length: 30_000 }, (_, i) => `charizard-4,ebay,2025-03-01T10:00:00Z,${i + 1}`);
    const path = file('big.csv', `product_key,source,observed_at,price_minor\n${rows.join('\n')}\n`);
    const run = ingestSource(
      store,
      path,
      options({ signal: controller.signal, onProgress: (p) => p.records > 0 && controller.abort('SIGTERM') }),
    );
    await expect(run).rejects.toThrow(IngestInterruptedError);
    await expect(run).rejects.toThrow(
      /big\.csv:\d+: interrupted by SIGTERM; [\d,]+ records read and committed/,
    );
    const committed = await count('observations');
    expect(committed).toBeGreaterThan(0);
    expect((await store.ingestRuns.recent(1))[0]).toMatchObject({
      status: 'interrupted',
      inserted_count: committed,
    });
    const rerun = await ingestSource(store, path, options());
    expect(rerun.counts).toMatchObject({ inserted: 30_000 - committed, duplicates: committed });
  });
});

describe('a feed format whose mapper has a bug', () => {
  /** Registered as a feed format is (formats/index.ts): rejects what it calls bad, and trips over a listing without a price. */
  const buggy: JsonFormat = {
    name: 'buggy-listings',
    kinds: ['observations'],
    notJsonRecordsHint: 'one listing per line',
    open: () => (value, out) => {
      const listing = value as { id: string; price?: { amount: string }; bad?: boolean };
      if (listing.bad) throw new RowRejection(`listing ${listing.id} is marked bad`);
      out.observation({
        product_key: 'charizard-4',
        source: 'shop',
        observed_at: '2025-03-01T10:00:00Z',
        price: listing.price!.amount,
        external_id: listing.id,
      });
    },
  };
  beforeAll(() => void (JSON_FEED_FORMATS as JsonFormat[]).push(buggy));
  afterAll(() => void (JSON_FEED_FORMATS as JsonFormat[]).pop());

  it('rejects the row its mapper refuses, and stops the run naming the format and line on a TypeError, never as a reject', async () => {
    const listings = [
      '{"id":"a","price":{"amount":"1.00"}}',
      '{"id":"b","bad":true}',
      '{"id":"c"}',
      '{"id":"d","price":{"amount":"2.00"}}',
    ];
    const rejects = new RejectsWriter(join(dir, 'rejects.ndjson'), Date.now());
    const run = ingestSource(
      store,
      file('listings.ndjson', listings.join('\n')),
      options({ format: 'buggy-listings', maxRejects: 10, rejects }),
    );
    const error = await run.catch((caught: unknown) => caught);
    rejects.close();
    expect(error).toBeInstanceOf(MapperBugError);
    expect((error as Error).message).toMatch(
      /\/listings\.ndjson:3: the buggy-listings format failed on this record \(a bug in oracle, not in the file\): TypeError: Cannot read properties of undefined \(reading 'amount'\)/,
    );
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    // The refused row was the one reject; the batch under way is rolled back with its rejects
    // (the rejects file follows the database), and the run is recorded as failed with the bug.
    expect((await store.ingestRuns.recent(1))[0]).toMatchObject({
      status: 'failed',
      format: 'buggy-listings',
      rejected_count: 1,
      error: expect.stringMatching(/TypeError/),
    });
    expect(await count('observations')).toBe(0);
    expect(readFileSync(join(dir, 'rejects.ndjson'), 'utf8')).toBe('');
  });
});

describe('ingestSource from URLs', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/obs.csv') res.end(OBSERVATIONS);
      else if (req.url === '/obs.csv.gz') res.end(gzipSync(OBSERVATIONS));
      else {
        res.statusCode = 500;
        res.end('boom');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('streams a CSV and a gzipped CSV served over HTTP', async () => {
    expect((await ingestSource(store, `${base}/obs.csv`, options())).counts.inserted).toBe(3);
    expect((await ingestSource(store, `${base}/obs.csv.gz`, options())).counts.duplicates).toBe(4);
  });

  it('fails with SourceUnreadableError naming the URL when the server answers 500', async () => {
    const { failure } = await ingestSource(store, `${base}/broken.csv`, options());
    expect(failure).toBeInstanceOf(SourceUnreadableError);
    expect(failure?.message).toBe(`${base}/broken.csv: HTTP 500 from the server`);
  });
});
