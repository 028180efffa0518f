// @module-tag sqlite-only: SQLite's file lock and busy timeout; PostgreSQL's advisory-lock wait is test/cli/ingest-faults.test.ts's
/**
 * `--lock-wait N` (issue 35 item 3): every command that writes waits up to N seconds for
 * another writer and then gives up with one line naming the option; a wait that ran out is
 * not waited again by the command's next statement (the ingest's run row and its first batch
 * each waited N before: 2N in all). SQLite only: PostgreSQL's writers do not wait on one lock.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseBusyError } from '../../src/domain/errors.js';
import { createWriteLock } from '../../src/store/sqlite/write-lock.js';
import { runOracle } from '../_cli.js';
import { databaseWith, testProduct } from '../_setup.js';

const KEY = 'pokemon-base-set-charizard-4-102';
const now = Date.parse('2026-11-20T12:00:00Z');

describe('--lock-wait on every command that writes', () => {
  let db: string;
  let holder: Database.Database | null = null;
  const hold = () => {
    holder = new Database(db);
    holder.exec('BEGIN IMMEDIATE');
  };
  afterEach(() => {
    holder?.exec('ROLLBACK');
    holder?.close();
    holder = null;
  });
  beforeAll(async () => {
    db = await databaseWith(
      [testProduct({ productKey: KEY })],
      Array.from({ length: 6 }, (_, h) => ({
        productKey: KEY,
        source: 'ebay',
        observedAt: now - (h + 1) * 3_600_000,
        priceMinor: 10_000,
        grader: 'ungraded' as const,
        grade: null,
        externalId: `s${h}`,
      })),
    );
  });
  const run = (args: string[]) => runOracle(['--db', db, ...args], { now });

  it.each([
    [['keys', 'create', '--label', 'ci']],
    [['keys', 'revoke', 'key_nothing']],
    [['calibrate']],
    [['watch', 'add', KEY, '--above', '1']],
    [['watch', 'remove', '1']],
    [['watch', 'check']],
  ])('%j gives up after --lock-wait 1 naming it, exit 1', async (args) => {
    // A rule that fires, so that the check has an event to record.
    if (args[1] === 'check') expect((await run(['watch', 'add', KEY, '--above', '1'])).code).toBe(0);
    hold();
    const result = await run([...args, '--lock-wait', '1']);
    expect(result).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'oracle: another writer held the database for more than 1 s (see --lock-wait)\n',
    });
  });

  it('waits for a writer in another process and goes on once it is done', async () => {
    // A writer that holds the lock about a second, then commits.
    const child = spawn(
      process.execPath,
      [
        '-e',
        `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(db)}); d.exec('BEGIN IMMEDIATE');
         process.stdout.write('held\\n'); setTimeout(() => { d.exec('COMMIT'); d.close(); }, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const result = await run(['keys', 'create', '--label', 'patient', '--lock-wait', '60']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^created API key key_\S+ \("patient"\)/);
    await new Promise((resolve) => child.on('close', resolve));
  });

  it('does not wait again after a wait ran out: the next write fails at once', () => {
    hold();
    const db2 = new Database(db);
    try {
      const lock = createWriteLock(db2);
      lock.configure({ maxWaitMs: 1_000 });
      expect(db2.pragma('busy_timeout', { simple: true })).toBe(1_000);
      expect(() => lock.run(() => db2.exec('BEGIN IMMEDIATE'))).toThrow(DatabaseBusyError);
      // What SQLite would wait on the next statement: nothing.
      expect(db2.pragma('busy_timeout', { simple: true })).toBe(0);
      expect(() => lock.run(() => db2.exec('BEGIN IMMEDIATE'))).toThrow(/more than 1 s \(see --lock-wait\)/);
      expect(
        lock.busyError(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })),
      ).toBeInstanceOf(DatabaseBusyError);
    } finally {
      db2.close();
    }
  });
});
