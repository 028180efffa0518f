/**
 * `oracle ingest` under faults, with real parts: child processes of bin/oracle.js (build
 * first) where a process is what is tested (real signals and kill -9, the parse worker reading
 * a gzip stream with a flipped byte, concurrent writers on one database, a terminal), the
 * program in process (test/_cli.ts) for the runs around them, gzip files with flipped bytes,
 * a writer lock held too long and several sources in one run; on a SQLite file, or PostgreSQL
 * in the vitest project `postgres`. Inputs are as large as the boundary they cross: several
 * reads of 64 KiB and, through the parse worker, several of its chunks (a gzip source past a
 * whole batch is test/ingest/pipeline.test.ts's, with a small batch size).
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { isPostgresUrl } from '../../src/store/location.js';
import { INGEST_WRITE_LOCK } from '../../src/store/pg/write-lock.js';
import { newTestDatabase, TEST_STORE } from '../_pg.js';
import { runOracle } from '../_cli.js';
import { BIN, childEnv, ROOT, runCli, runCommand, tempDir } from '../_setup.js';
import { selectRows } from '../_store.js';

const CATALOG =
  'product_key,refsource_id,product_name,product_type,era,release_date\ncharizard-4,1001,Charizard #4,single_card,vintage,1999-01-09\n';
const HEADER = 'product_key,source,observed_at,price_minor,external_id';
/** Rows of the gzip source: about 150 KB of gzip, several reads, 1.2 MB of text. */
const ROWS = 20_000;

let dir: string;
let catalog: string;
let gzipped: Buffer;

/** `count` observations of charizard-4, one a minute from `start`, ids `<prefix>-<i>`; every tenth row repeated when `repeat`. */
function observations(count: number, prefix: string, start = Date.UTC(2025, 0, 1), repeat = false): string {
  const lines = [HEADER];
  for (let i = 0; i < count; i += 1) {
    const row = `charizard-4,ebay,${new Date(start + i * 60_000).toISOString()},${1000 + (i % 977)},${prefix}-${i}`;
    lines.push(row);
    if (repeat && i % 10 === 0) lines.push(row);
  }
  return `${lines.join('\n')}\n`;
}

beforeAll(() => {
  dir = tempDir();
  catalog = join(dir, 'catalog.csv');
  writeFileSync(catalog, CATALOG);
  // 22,000 rows, 20,000 distinct records.
  gzipped = gzipSync(observations(ROWS, 'k', Date.UTC(2025, 0, 1), true));
});

/** The first row of `sql` (SQL both stores read alike). */
async function query<T extends Record<string, unknown>>(path: string, sql: string): Promise<T | undefined> {
  return (await selectRows<T>(path, sql))[0];
}

/**
 * Whether a writer holds an open transaction on the SQLite file at `path` (an ingest's open
 * batch: it begins one at its first row); on PostgreSQL a batch is sent only when it commits,
 * so there is nothing to see and the answer is always true.
 */
function batchOpen(path: string): boolean {
  if (isPostgresUrl(path)) return true;
  const db = new Database(path, { timeout: 0 });
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw error;
  } finally {
    db.close();
  }
}

async function observationCount(path: string): Promise<number> {
  if (!isPostgresUrl(path) && !existsSync(path)) return 0;
  try {
    return (await query<{ n: number }>(path, 'SELECT count(*) AS n FROM observations'))!.n;
  } catch {
    return 0; // not created or migrated yet
  }
}

async function freshDbWithCatalog(): Promise<string> {
  const path = await newTestDatabase(tempDir());
  expect((await runOracle(['--db', path, 'ingest', catalog])).code).toBe(0);
  return path;
}

/**
 * Another writer holding the database's write lock until the returned function releases it:
 * SQLite's (BEGIN IMMEDIATE), or the lock an ingest's commits take on PostgreSQL.
 */
async function holdWriteLock(path: string): Promise<() => Promise<void>> {
  if (isPostgresUrl(path)) {
    const client = new pg.Client({ connectionString: path });
    await client.connect();
    await client.query('SELECT pg_advisory_lock($1)', [INGEST_WRITE_LOCK]);
    return () => client.end();
  }
  const holder = new Database(path);
  holder.exec('BEGIN IMMEDIATE');
  return async () => {
    holder.exec('ROLLBACK');
    holder.close();
  };
}

/** Starts `oracle --db <path> ingest -` (read by the parse worker: stdin is of unknown size); the test writes its input. */
function startIngest(path: string) {
  const child = spawn(process.execPath, [BIN, '--db', path, 'ingest', '-'], {
    env: childEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { stdin: child.stdin, exited, stdout: () => stdout, stderr: () => stderr };
}

/** Resolves once `runs` ingest runs of stdin are recorded in the database at `path`. */
async function runsStarted(path: string, runs: number): Promise<void> {
  const started = async () =>
    (
      await query<{ n: number }>(path, "SELECT count(*) AS n FROM ingest_runs WHERE source = 'stdin'").catch(
        () => undefined,
      )
    )?.n ?? 0;
  while ((await started()) < runs) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * Feeds each of `inputs` to its own `oracle ingest -` at once: the first half of each input
 * once the runs before it are recorded, then, once every run is recorded (each started before
 * any could finish), the rest. A gzip input goes last: its batch stays open, holding SQLite's
 * write lock, until its end, which no run would reach while another waits to be recorded.
 */
async function ingestAtOnce(path: string, inputs: Buffer[]) {
  const runs = inputs.map(() => startIngest(path));
  const half = (input: Buffer) => Math.floor(input.length / 2);
  for (const [i, input] of inputs.entries()) {
    runs[i]!.stdin.write(input.subarray(0, half(input)));
    await runsStarted(path, i + 1);
  }
  inputs.forEach((input, i) => runs[i]!.stdin.end(input.subarray(half(input))));
  return runs;
}

describe('oracle ingest stopped mid-input', () => {
  const PACED = 6_000;
  const pacedText = () => observations(PACED, 'p', Date.UTC(2024, 0, 1));

  /**
   * Starts `oracle ingest -` fed through a pipe that stays open, so the process is certainly
   * mid-input when stopped: 5,000 rows (several of the parse worker's chunks), then (once the
   * first commit, by the clock, is visible) 1,000 more, which sit in the open transaction.
   */
  async function startPacedIngest(path: string) {
    const lines = pacedText().split('\n');
    const child = spawn(process.execPath, [BIN, '--db', path, 'ingest', '-'], {
      env: childEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.stdin.on('error', () => {}); // the pipe breaks when the child is killed
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    child.stdin.write(`${lines.slice(0, 5_001).join('\n')}\n`);
    while ((await observationCount(path)) === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    child.stdin.write(`${lines.slice(5_001).join('\n')}`);
    return { child, exited, stderr: () => stderr };
  }

  it('leaves a consistent database after kill -9; the next ingest marks the killed run interrupted and completes it without duplicates', async () => {
    const path = await freshDbWithCatalog();
    const run = await startPacedIngest(path);
    run.child.kill('SIGKILL');
    await run.exited;
    const atKill = await observationCount(path);
    const killed = (await query<{ id: number; status: string }>(
      path,
      "SELECT id, status FROM ingest_runs WHERE source = 'stdin'",
    ))!;
    expect(killed.status).toBe('running');

    const file = join(tempDir(), 'paced.csv');
    writeFileSync(file, pacedText());
    const rerun = await runOracle(['--db', path, 'ingest', file]);
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toMatch(
      new RegExp(
        `read 6,000, inserted ${(PACED - atKill).toLocaleString('en-US')}, duplicates ${atKill.toLocaleString('en-US')},`,
      ),
    );
    expect(await observationCount(path)).toBe(PACED);
    expect(await query(path, `SELECT status, error FROM ingest_runs WHERE id = ${killed.id}`)).toEqual({
      status: 'interrupted',
      error: `its process (pid ${run.child.pid}) ended without finishing the run (killed, crashed, or a full disk failed its last write?); what it committed stays, a re-run completes it`,
    });
    expect(await query(path, 'SELECT status FROM ingest_runs ORDER BY id DESC LIMIT 1')).toEqual({
      status: 'ok',
    });
    // SQLite's file after a kill -9 (PostgreSQL's own recovery is not oracle's to test).
    if (TEST_STORE === 'sqlite')
      expect(await query(path, 'PRAGMA integrity_check')).toEqual({ integrity_check: 'ok' });
  }, 120_000);

  // The two signals take one path through the CLI whatever the store: PostgreSQL runs SIGINT's.
  it.each(
    (
      [
        ['SIGINT', 130],
        ['SIGTERM', 143],
      ] as const
    ).filter(([signal]) => TEST_STORE === 'sqlite' || signal === 'SIGINT'),
  )(
    'on %s commits everything it read (the open batch too), exits %i with one line, and records the run as interrupted',
    async (signal, code) => {
      const path = await freshDbWithCatalog();
      const run = await startPacedIngest(path);
      // Stopped while a batch is open (on SQLite: its transaction holds the write lock).
      while (!batchOpen(path)) await new Promise((resolve) => setTimeout(resolve, 20));
      run.child.kill(signal);
      expect(await run.exited).toBe(code);
      const message =
        /^oracle: stdin:\d+: interrupted by (\w+); ([\d,]+) records read and committed, run the same command again to complete\n$/.exec(
          run.stderr(),
        );
      expect(message?.[1]).toBe(signal);
      // Every record it read is in the file, those of the open batch too (all rows are distinct).
      const read = Number(message?.[2]?.replaceAll(',', ''));
      expect(read).toBeGreaterThan(0);
      expect(await observationCount(path)).toBe(read);
      expect(
        await query(path, "SELECT status, inserted_count FROM ingest_runs WHERE source = 'stdin'"),
      ).toEqual({ status: 'interrupted', inserted_count: read });
    },
    120_000,
  );
});

describe('oracle ingest of a corrupt gzip commits nothing from it', () => {
  const TRAILER = 8; // CRC-32, then ISIZE (the length mod 2^32)
  const flip = (at: (gz: Buffer) => number, width = 1) => {
    const gz = Buffer.from(gzipped);
    const start = at(gz);
    for (let i = start; i < start + width; i += 1) gz[i] = (gz[i] as number) ^ 0xff;
    return gz;
  };
  // Made when run: the gzip file is written by beforeAll.
  const cases: [string, () => Buffer][] = [
    ['4 bytes flipped in the middle of the deflate stream', () => flip((gz) => Math.floor(gz.length / 2), 4)],
    [
      'a byte flipped near the end of the deflate stream, once most rows are written',
      () => flip((gz) => gz.length - TRAILER - 200),
    ],
    ['a byte of the CRC-32 flipped', () => flip((gz) => gz.length - TRAILER)],
    ['a byte of ISIZE flipped', () => flip((gz) => gz.length - 2)],
  ];

  // Where the damage is found is the reader's, alike on every store (and at 28 positions in
  // test/ingest/gzip-faults.test.ts); what is committed is the store's: PostgreSQL runs the case
  // that fails once most rows are written. A file this size is read on one thread, in process.
  const onThisStore =
    TEST_STORE === 'sqlite' ? cases : cases.filter(([name]) => name.includes('near the end'));
  it.each(onThisStore)(
    '%s: exit 2, the message names the source and says the gzip data is corrupt',
    async (_name, corrupt) => {
      const path = await freshDbWithCatalog();
      const file = join(tempDir(), 'observations.csv.gz');
      writeFileSync(file, corrupt());
      const result = await runOracle(['--db', path, 'ingest', file]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(
          `^oracle: ${file}: the gzip data is corrupt \\([^)]+\\): nothing from this source was committed\\n$`,
        ),
      );
      expect(result.stdout).toMatch(
        new RegExp(`^failed ${file}: read [\\d,]+, inserted 0, duplicates 0, rejected [\\d,]+ in `),
      );
      expect(await observationCount(path)).toBe(0);
      expect(await query(path, "SELECT status FROM ingest_runs WHERE source LIKE '%.gz'")).toEqual({
        status: 'failed',
      });
    },
    60_000,
  );

  it.skipIf(TEST_STORE !== 'sqlite')(
    'on stdin too (read by the parse worker), and the intact file then loads in full',
    async () => {
      const path = await freshDbWithCatalog();
      const result = await runCli(['--db', path, 'ingest', '-'], {
        input: flip((gz) => gz.length - TRAILER),
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /^oracle: stdin: the gzip data is corrupt \(incorrect data check\): nothing from this source was committed\n$/,
      );
      expect(await observationCount(path)).toBe(0);
      const intact = await runCli(['--db', path, 'ingest', '-'], { input: gzipped });
      expect(intact.code).toBe(0);
      expect(await observationCount(path)).toBe(ROWS);
    },
    60_000,
  );
});

describe('oracle ingest of several sources', () => {
  it('reads every source: a missing first file stops only itself, the second lands, exit 1', async () => {
    const path = await freshDbWithCatalog();
    const good = join(tempDir(), 'good.csv');
    writeFileSync(good, observations(3, 'g'));
    const missing = join(dir, 'missing.csv');
    const result = await runOracle(['--db', path, 'ingest', missing, good]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`oracle: ${missing}: no such file\n`);
    expect(result.stdout).toMatch(
      new RegExp(
        `^failed ${missing}: read 0, inserted 0, duplicates 0, rejected 0 in \\d+\\.\\d s\\ningested ${good}: read 3, inserted 3, duplicates 0, rejected 0 in `,
      ),
    );
    expect(await observationCount(path)).toBe(3);
  });

  it('exits with the worst outcome: unusable input (2) beats too many rejects (3), a runtime failure (1) beats both', async () => {
    const path = await freshDbWithCatalog();
    const sub = tempDir();
    const rejecting = join(sub, 'one-reject.csv');
    writeFileSync(
      rejecting,
      `${HEADER}\ncharizard-4,ebay,2025-03-05T10:00:00,100,r-1\ncharizard-4,ebay,2025-03-05T10:00:00Z,100,r-2\n`,
    );
    const empty = join(sub, 'empty.csv');
    writeFileSync(empty, '');
    const good = join(sub, 'good.csv');
    writeFileSync(good, observations(2, 'w'));
    const twoAndThree = await runOracle(['--db', path, 'ingest', rejecting, empty, good]);
    expect(twoAndThree.code).toBe(2);
    expect(twoAndThree.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/one-reject\.csv:2: 1 record rejected, more than --max-rejects 0/),
      `oracle: ${empty}:1: the file is empty: no header and no records`,
    ]);
    expect(
      twoAndThree.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(':')[0]),
    ).toEqual([`ingested ${rejecting}`, `failed ${empty}`, `ingested ${good}`]);
    expect(await observationCount(path)).toBe(3);
    expect((await runOracle(['--db', path, 'ingest', empty, join(sub, 'missing.csv'), rejecting])).code).toBe(
      1,
    );
  });
});

describe('oracle ingest --rejects', () => {
  it("appends: a second run keeps the first run's rejects, each line saying its run, source and line", async () => {
    const path = await freshDbWithCatalog();
    const sub = tempDir();
    const rejectsFile = join(sub, 'rejects.ndjson');
    const first = join(sub, 'first.csv');
    writeFileSync(first, `${HEADER}\ncharizard-4,ebay,2025-03-05T10:00:00,100,a-1\n`);
    const second = join(sub, 'second.csv');
    writeFileSync(
      second,
      `${HEADER}\ncharizard-4,ebay,2025-03-05T10:00:00Z,100,b-1\nno-such-card,ebay,2025-03-05T10:00:00Z,100,b-2\n`,
    );
    expect(
      (await runOracle(['--db', path, 'ingest', first, '--rejects', rejectsFile, '--max-rejects', '5'])).code,
    ).toBe(0);
    expect(
      (await runOracle(['--db', path, 'ingest', second, '--rejects', rejectsFile, '--max-rejects', '5']))
        .code,
    ).toBe(0);
    const lines = readFileSync(rejectsFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.source, l.line])).toEqual([
      [first, 2],
      [second, 3],
    ]);
    for (const l of lines) expect(l.run_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(lines[0].run_at < lines[1].run_at).toBe(true);
    expect(lines[0].reason).toMatch(/no time zone/);
  });
});

describe('concurrent ingests into one database', () => {
  // On PostgreSQL the advisory lock's queue is the next test's: two writers at once, overlapping.
  it.skipIf(TEST_STORE === 'postgres')(
    'three processes ingesting at once all succeed: writers wait their turn',
    async () => {
      const path = await freshDbWithCatalog();
      // Each run is read by the parse worker, one of them a gzip stream; each holds the write
      // lock while its batch is open (until the clock commits it), so the others wait their turn.
      const ROWS_EACH = 20_000;
      const texts = [0, 1, 2].map((i) => observations(ROWS_EACH, `r${i}`, Date.UTC(2022 + i, 0, 1)));
      const runs = await ingestAtOnce(path, [
        Buffer.from(texts[0]!),
        Buffer.from(texts[1]!),
        gzipSync(texts[2]!),
      ]);
      expect(await Promise.all(runs.map((run) => run.exited))).toEqual([0, 0, 0]);
      const read = ROWS_EACH.toLocaleString('en-US');
      for (const run of runs) {
        expect(run.stderr()).toBe('');
        expect(run.stdout()).toMatch(
          new RegExp(`^ingested stdin: read ${read}, inserted ${read}, duplicates 0, rejected 0 in `),
        );
      }
      expect(await observationCount(path)).toBe(3 * ROWS_EACH);
      // At once: each run started before every other one finished.
      const spans = await selectRows<{ started_at: number; finished_at: number }>(
        path,
        "SELECT started_at, finished_at FROM ingest_runs WHERE source = 'stdin'",
      );
      expect(spans).toHaveLength(3);
      for (const run of spans)
        for (const other of spans) expect(run.started_at).toBeLessThan(other.finished_at);
    },
    60_000,
  );

  it('two processes ingesting overlapping inputs at once store each record once, and a re-run adds nothing', async () => {
    const path = await freshDbWithCatalog();
    const sub = tempDir();
    // 9,000 records: the first input has the first 6,000, the second the last 6,000 backwards,
    // so both runs reach the 3,000 they share at about the same time, from opposite ends.
    const all = observations(9_000, 'o').trimEnd().split('\n').slice(1);
    const first = `${[HEADER, ...all.slice(0, 6_000)].join('\n')}\n`;
    const second = `${[HEADER, ...all.slice(3_000).reverse()].join('\n')}\n`;
    const runs = await ingestAtOnce(path, [Buffer.from(first), Buffer.from(second)]);
    expect(await Promise.all(runs.map((run) => run.exited))).toEqual([0, 0]);
    const counts = runs.map((run) => {
      expect(run.stderr()).toBe('');
      const [, inserted, duplicates] = /read 6,000, inserted ([\d,]+), duplicates ([\d,]+), rejected 0 in /
        .exec(run.stdout())!
        .map((n) => Number(n.replaceAll(',', '')));
      return { inserted: inserted!, duplicates: duplicates! };
    });
    // Each shared record is inserted by exactly one of the two runs, a duplicate for the other.
    expect(counts[0]!.inserted + counts[1]!.inserted).toBe(9_000);
    expect(counts[0]!.duplicates + counts[1]!.duplicates).toBe(3_000);
    expect(
      await query(path, 'SELECT count(*) AS n, count(DISTINCT external_id) AS ids FROM observations'),
    ).toEqual({ n: 9_000, ids: 9_000 });
    expect(await query(path, 'SELECT observation_count FROM products')).toEqual({ observation_count: 9_000 });
    const files = [first, second].map((text, i) => {
      const file = join(sub, `${i}.csv`);
      writeFileSync(file, text);
      return file;
    });
    const again = await runOracle(['--db', path, 'ingest', ...files]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /read 6,000, inserted 0, duplicates 6,000, .*\n.*read 6,000, inserted 0, duplicates 6,000, /,
    );
    expect(await observationCount(path)).toBe(9_000);
  }, 60_000);

  it('gives up after --lock-wait with one line naming the source, its line and the other writer, exit 1', async () => {
    const path = await freshDbWithCatalog();
    const file = join(tempDir(), 'waiting.csv');
    writeFileSync(file, observations(3, 'w'));
    const release = await holdWriteLock(path);
    try {
      const result = await runOracle(['--db', path, 'ingest', '--lock-wait', '1', file]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `^oracle: ${file}:\\d+: gave up: another writer held the database for more than 1 s \\(see --lock-wait\\); run the same command again to complete\\n$`,
        ),
      );
    } finally {
      await release();
    }
    expect(await observationCount(path)).toBe(0);
    expect((await runOracle(['--db', path, 'ingest', file])).code).toBe(0);
    expect(await observationCount(path)).toBe(3);
  }, 60_000);

  it('on a terminal, says it waits for another writer, and goes on once that one is done', async () => {
    const path = await freshDbWithCatalog();
    const file = join(tempDir(), 'patient.csv');
    writeFileSync(file, observations(3, 't'));
    const release = await holdWriteLock(path);
    // script(1) gives the ingest a real terminal (a pty) for stdout and stderr.
    const child = spawn(
      'script',
      ['-qfec', `${process.execPath} ${BIN} --db ${path} ingest ${file}`, '/dev/null'],
      { env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let screen = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (screen += text));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      while (!screen.includes('waiting for it')) await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await release();
    }
    expect(await exited).toBe(0);
    // A file by its absolute path (as given here), a database server by its URL (without a password here).
    expect(screen).toContain(
      `oracle: another process is writing ${path}: waiting for it (up to 600 s, --lock-wait)...\r\n`,
    );
    expect(screen).toMatch(
      new RegExp(`ingested ${file}:\\s+read 3, inserted 3, duplicates 0, rejected 0 in `),
    );
    expect(await observationCount(path)).toBe(3);
  }, 60_000);

  it('exits 2 naming --lock-wait when it is not a whole number of seconds', async () => {
    const result = await runOracle(['--db', join(tempDir(), 'x.db'), 'ingest', '--lock-wait', '0.5', '-']);
    expect(result).toMatchObject({
      code: 2,
      stderr: 'oracle: --lock-wait must be a whole number of seconds, 1 or more (got "0.5")\n',
    });
  });
});

// A mapper's bug stops the run before anything is written, whatever the store: SQLite only.
describe.skipIf(TEST_STORE === 'postgres')('oracle ingest with a bug in a feed mapper', () => {
  /** The built CLI with a feed format whose mapper throws a TypeError on a row without a grade cell. */
  const FIXTURE = join(ROOT, 'test', 'fixtures', 'oracle-with-buggy-format.js');

  it('stops with one line naming the format and the line, exit 70, never a reject; ORACLE_DEBUG=1 prints where the bug is', async () => {
    const db = await freshDbWithCatalog();
    const feed = join(tempDir(), 'guide.csv');
    writeFileSync(feed, 'buggy_guide_id,amount,psa\n1,120.00,9\n2,80.00\n3,95.00,10\n');
    const plain = await runCommand(process.execPath, [
      FIXTURE,
      '--db',
      db,
      'ingest',
      '--max-rejects',
      '5',
      feed,
    ]);
    expect(plain).toMatchObject({ code: 70, stdout: '' });
    expect(plain.stderr).toBe(
      `oracle: ${feed}:3: the buggy-guide format failed on this record (a bug in oracle, not in the file): ` +
        "TypeError: Cannot read properties of undefined (reading 'trim'); ORACLE_DEBUG=1 prints where\n",
    );
    expect(await observationCount(db)).toBe(0);

    const debug = await runCommand(process.execPath, [FIXTURE, '--db', db, 'ingest', feed], {
      env: { ORACLE_DEBUG: '1' },
    });
    expect(debug.code).toBe(70);
    // The error's own stack, then the TypeError's, which points into the mapper.
    expect(debug.stderr).toMatch(/^MapperBugError: .*guide\.csv:3: the buggy-guide format failed.*\n {4}at /);
    expect(debug.stderr).toMatch(
      /\nCaused by: TypeError: Cannot read properties of undefined \(reading 'trim'\)\n {4}at .*oracle-with-buggy-format\.js:\d+/,
    );
  });

  it('stops the same way (exit 70, stacks under ORACLE_DEBUG=1) when the bug is in the parse worker of the parallel reader', async () => {
    // stdin (of unknown size) takes the parallel reader; the preload breaks the worker's mapper on the grader `buggy`.
    const PRELOAD = join(ROOT, 'test', 'fixtures', 'buggy-worker-preload.cjs');
    const db = await freshDbWithCatalog();
    const input =
      'product_key,source,observed_at,price,grader,grade\ncharizard-4,ebay,2025-01-01T00:00:00Z,10.00,PSA,9\ncharizard-4,ebay,2025-01-02T00:00:00Z,12.00,buggy,9\n';
    const args = ['--require', PRELOAD, BIN, '--db', db, 'ingest', '-'];
    const plain = await runCommand(process.execPath, args, { input });
    expect(plain).toMatchObject({ code: 70, stdout: '' });
    expect(plain.stderr).toBe(
      'oracle: stdin:3: the csv format failed on this record (a bug in oracle, not in the file): ' +
        "TypeError: Cannot read properties of undefined (reading 'trim'); ORACLE_DEBUG=1 prints where\n",
    );
    expect(await observationCount(db)).toBe(0);

    const debug = await runCommand(process.execPath, args, { input, env: { ORACLE_DEBUG: '1' } });
    expect(debug.code).toBe(70);
    // After bin/oracle.js's line on how it loaded the bundle, the worker's stacks: the
    // MapperBugError's (through the worker's row handler), then the TypeError's, in the preload.
    expect(debug.stderr).toMatch(
      /^oracle: dist\/cli\/main\.js .*\nMapperBugError: stdin:3: the csv format failed.*\n(?: {4}at .*\n)*? {4}at .*parallel-worker\.js/,
    );
    expect(debug.stderr).toMatch(
      /\nCaused by: TypeError: Cannot read properties of undefined \(reading 'trim'\)\n {4}at .*buggy-worker-preload\.cjs:\d+/,
    );
  });
});

describe.skipIf(TEST_STORE !== 'sqlite')(
  'oracle ingest when the database file cannot grow (issue 24, 7)',
  () => {
    it('names the source and line, what was committed and the re-run, prints the failed summary and records the true counts', async () => {
      const path = await freshDbWithCatalog();
      const file = join(dir, 'full-disk.csv');
      writeFileSync(file, observations(20_000, 'full'));
      // A real write failure from the kernel: RLIMIT_FSIZE (512-byte blocks) makes a write past 512 KiB fail with
      // EFBIG, as a full disk fails with ENOSPC (SIGXFSZ ignored so the write returns the error; root is bound too).
      const limited = await runCommand('sh', [
        '-c',
        `trap '' XFSZ; ulimit -f 1024; exec "${process.execPath}" "${BIN}" --db "${path}" ingest "${file}"`,
      ]);
      expect(limited.code).toBe(1);
      expect(limited.stdout).toMatch(new RegExp(`^failed ${file}: read [\\d,]+, inserted 0, `));
      expect(limited.stderr).toMatch(
        new RegExp(
          `^oracle: ${file}:\\d+: the database could not be written \\(.+: is the disk full\\?\\); 0 records committed, free some space and run the same command again to complete\\n$`,
        ),
      );
      expect(
        await query(
          path,
          "SELECT status, inserted_count FROM ingest_runs WHERE source LIKE '%full-disk.csv'",
        ),
      ).toEqual({ status: 'failed', inserted_count: 0 });
      const again = await runOracle(['--db', path, 'ingest', file]);
      expect(again.code).toBe(0);
      expect(await observationCount(path)).toBe(20_000);
    }, 60_000);
  },
);
