/**
 * `oracle ingest` as users and cron jobs run it: in process (test/_cli.ts), and stdin once in
 * a real child process of bin/oracle.js (build first).
 */
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { lockWaitLine } from '../../src/cli/commands/ingest.js';
import { newTestDatabase } from '../_pg.js';
import { runOracle } from '../_cli.js';
import { runCli, tempDir } from '../_setup.js';

const CATALOG =
  'product_key,refsource_id,product_name,product_type,era,release_date\ncharizard-4,1001,Charizard #4,single_card,vintage,1999-01-09\nbase-box,1002,Base Set Booster Box,booster_box,vintage,\n';
const HEADER = 'product_key,source,observed_at,price_minor,external_id';
const OBSERVATIONS = `${HEADER}\ncharizard-4,ebay,2025-03-01T10:00:00Z,35000,e-1\ncharizard-4,ebay,2025-03-02T10:00:00Z,36000,e-2\n`;

let dir: string;
let db: string;
const cli = (args: string[], input?: string | Buffer) => runOracle(['--db', db, ...args], { input });

beforeAll(async () => {
  dir = tempDir();
  db = await newTestDatabase(dir);
  writeFileSync(join(dir, 'catalog.csv'), CATALOG);
  const loaded = await cli(['ingest', join(dir, 'catalog.csv')]);
  expect(loaded.code).toBe(0);
});

describe('oracle ingest', () => {
  it('reads stdin and prints exactly one summary line, nothing on stderr (bin/oracle.js in a process of its own)', async () => {
    const result = await runCli(['--db', db, 'ingest', '-'], { input: OBSERVATIONS });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(
      /^ingested stdin: read 2, inserted 2, duplicates 0, rejected 0 in \d+\.\d s\n$/,
    );
    const again = await cli(['ingest', '-'], OBSERVATIONS);
    expect(again.stdout).toMatch(/^ingested stdin: read 2, inserted 0, duplicates 2, rejected 0 in /);
  });

  it('decompresses gzip arriving on stdin', async () => {
    const result = await cli(
      ['ingest', '-'],
      gzipSync(`${HEADER}\ncharizard-4,ebay,2025-03-03T10:00:00Z,37000,e-3\n`),
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^ingested stdin: read 1, inserted 1, duplicates 0, rejected 0 in /);
  });

  it('prints the catalog of ingested products in the JSON shape of SPEC.md 2.6, plus the identity additions', async () => {
    const result = await cli(['catalog', '--json']);
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body.total).toBe(2);
    for (const product of body.products) {
      expect(Object.keys(product)).toEqual([
        'product_key',
        'refsource_id',
        'product_name',
        'product_type',
        'era',
        'earliest_observation',
        'tcgplayer_id',
        'printing',
        'language',
      ]);
    }
    expect(body.products.find((p: { product_key: string }) => p.product_key === 'base-box')).toEqual({
      product_key: 'base-box',
      refsource_id: '1002',
      product_name: 'Base Set Booster Box',
      product_type: 'booster_box',
      era: 'vintage',
      earliest_observation: null,
      tcgplayer_id: null,
      printing: null,
      language: null,
    });
  });

  it('writes nothing on --dry-run and says what it would insert', async () => {
    const path = join(dir, 'dry.csv');
    writeFileSync(path, `${HEADER}\nbase-box,ebay,2025-03-01T10:00:00Z,50000,d-1\n`);
    const result = await cli(['ingest', '--dry-run', path]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^checked .*dry\.csv \(dry run\): read 1, would insert 1, duplicates 0, rejected 0 in /,
    );
    const catalog = JSON.parse((await cli(['catalog', '--json'])).stdout);
    expect(
      catalog.products.find((p: { product_key: string }) => p.product_key === 'base-box')
        .earliest_observation,
    ).toBeNull();
  });

  it('exits 3 with one stderr line when more records than --max-rejects are rejected, keeping the good ones', async () => {
    const path = join(dir, 'some-bad.csv');
    writeFileSync(
      path,
      `${HEADER}\ncharizard-4,ebay,2025-03-05T10:00:00Z,100,r-1\ncharizard-4,ebay,2025-03-05T10:00:00,100,r-2\n`,
    );
    const result = await cli(['ingest', path, '--rejects', join(dir, 'rejects.ndjson')]);
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/read 2, inserted 1, duplicates 0, rejected 1/);
    expect(result.stderr).toMatch(
      /^oracle: .*some-bad\.csv:3: 1 record rejected, more than --max-rejects 0 .*has no time zone.*\n$/,
    );
    expect((await cli(['ingest', path, '--max-rejects', '1'])).code).toBe(0);
  });

  it('exits 2 naming the flag when --max-rejects or --format is invalid', async () => {
    const maxRejects = await cli(['ingest', '-', '--max-rejects', 'lots']);
    expect(maxRejects).toMatchObject({
      code: 2,
      stderr: 'oracle: --max-rejects must be a whole number, 0 or more (got "lots")\n',
    });
    const format = await cli(['ingest', '-', '--format', 'xml']);
    expect(format.code).toBe(2);
    // Commander's .choices(), as every option with a fixed set of values.
    expect(format.stderr).toMatch(
      /^oracle: option '--format <format>' argument 'xml' is invalid\. Allowed choices are csv, ndjson, json, .*\.\n\(run with --help for usage\)\n$/,
    );
    const kind = await cli(['ingest', '-', '--kind', 'prices']);
    expect(kind).toMatchObject({
      code: 2,
      stderr:
        "oracle: option '--kind <kind>' argument 'prices' is invalid. Allowed choices are observations, catalog.\n(run with --help for usage)\n",
    });
  });
});

describe('oracle ingest on bad input: one clear stderr line naming the source (and line), a documented exit code', () => {
  let server: Server;
  let unreachable: string;
  beforeAll(async () => {
    // A port that was free a moment ago: connecting to it is refused.
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    unreachable = `http://127.0.0.1:${(server.address() as AddressInfo).port}/obs.csv`;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const cases: [string, () => [string, string | Buffer | null], number, RegExp][] = [
    ['a missing file', () => ['missing.csv', null], 1, /^oracle: \S*missing\.csv: no such file\n$/],
    [
      'an unreachable URL',
      () => [unreachable, null],
      1,
      /^oracle: http:\/\/127\.0\.0\.1:\d+\/obs\.csv: cannot fetch: ECONNREFUSED\n$/,
    ],
    [
      'an empty file',
      () => ['empty.csv', ''],
      2,
      /^oracle: \S*empty\.csv:1: the file is empty: no header and no records\n$/,
    ],
    [
      'a file of the wrong kind',
      () => ['catalog-as-obs.csv', CATALOG],
      2,
      /^oracle: \S*catalog-as-obs\.csv:1: the header has catalog columns but --kind is observations\n$/,
    ],
    [
      'unknown columns',
      () => ['typo.csv', 'product_key,source,obseved_at,price\n'],
      2,
      /^oracle: \S*typo\.csv:1: unknown column "obseved_at" in the observations header \(allowed: .*\)\n$/,
    ],
    [
      'a 1 MB single line',
      () => ['one-line.csv', 'x'.repeat(1_000_000)],
      2,
      /^oracle: \S*one-line\.csv:1: record is longer than 65,536 characters/,
    ],
    [
      'invalid UTF-8',
      () => [
        'latin1.csv',
        Buffer.concat([
          Buffer.from(`${HEADER}\ncharizard-4,`),
          Buffer.from([0x65, 0x62, 0xe9]),
          Buffer.from(',2025-03-01T10:00:00Z,1,\n'),
        ]),
      ],
      2,
      /^oracle: \S*latin1\.csv:2: invalid UTF-8/,
    ],
    [
      'an unterminated quote',
      () => ['quote.csv', `${HEADER}\n"charizard-4,ebay\n`],
      2,
      /^oracle: \S*quote\.csv:2: unterminated quoted field/,
    ],
    [
      'a truncated JSON array',
      () => [
        'cut.json',
        '[{"product_key":"charizard-4","source":"x","observed_at":"2025-03-01T00:00:00Z","price_minor":1},\n{"pro',
      ],
      2,
      /^oracle: \S*cut\.json:2: the JSON array is not closed/,
    ],
  ];

  it.each(cases)('%s', async (_name, make, code, message) => {
    const [name, content] = make();
    const source = name.startsWith('http') ? name : join(dir, name);
    if (content !== null) writeFileSync(source, content);
    const args =
      name === 'catalog-as-obs.csv' ? ['ingest', '--kind', 'observations', source] : ['ingest', source];
    const result = await cli(args);
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    // The source's summary says what it kept; the error line is on stderr.
    expect(result.stdout).toMatch(
      /^failed \S+: read \d+, inserted \d+, duplicates 0, rejected 0 in \d+\.\d s\n$/,
    );
  });
});

// Drawn only when stderr is a terminal, which a child process of the tests never has: the line itself is checked.
describe('the line shown while another writer holds the database', () => {
  it('names a file by its absolute path and a PostgreSQL URL without its password', () => {
    expect(lockWaitLine('oracle.db', 600)).toBe(
      `oracle: another process is writing ${join(process.cwd(), 'oracle.db')}: waiting for it (up to 600 s, --lock-wait)...\n`,
    );
    const line = lockWaitLine('postgres://oracle:s3cret@db.internal:5432/prices', 30);
    expect(line).toBe(
      'oracle: another process is writing postgres://oracle:***@db.internal:5432/prices: waiting for it (up to 30 s, --lock-wait)...\n',
    );
    expect(line).not.toContain('s3cret');
  });
});
