// @module-tag sqlite-only: runs left running in a SQLite file by a process that is gone, written into the file directly
/**
 * An ingest run whose process died (kill -9, a crash, a disk so full that the run's last write
 * failed too) is recorded `interrupted`, with why, the next time any command opens the database,
 * not only at the next ingest (issue 35 item 7); a run whose process lives stays `running`.
 */
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runOracle } from '../_cli.js';
import { selectRows } from '../_store.js';
import { databaseWith, testProduct } from '../_setup.js';

/** The pid of a process that has exited (and so, for a while, of none). */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

describe('ingest runs left running by a process that is gone', () => {
  it.each([[['catalog']], [['keys', 'list']], [['price', 'pokemon-base-set-charizard-4-102']]])(
    'are marked interrupted when %j next opens the database; a live one stays running',
    async (args) => {
      const db = await databaseWith([testProduct({ productKey: 'pokemon-base-set-charizard-4-102' })], []);
      const dead = deadPid();
      const raw = new Database(db);
      const insert = raw.prepare(
        "INSERT INTO ingest_runs (source, kind, format, dry_run, started_at, host, pid, status) VALUES (?, 'observations', 'csv', 0, 0, ?, ?, 'running')",
      );
      insert.run('full-disk.csv', hostname(), dead);
      insert.run('still-going.csv', hostname(), process.pid);
      raw.close();

      await runOracle(['--db', db, ...args]);
      expect(await selectRows(db, 'SELECT source, status, error FROM ingest_runs ORDER BY source')).toEqual([
        {
          source: 'full-disk.csv',
          status: 'interrupted',
          error: `its process (pid ${dead}) ended without finishing the run (killed, crashed, or a full disk failed its last write?); what it committed stays, a re-run completes it`,
        },
        { source: 'still-going.csv', status: 'running', error: null },
      ]);
    },
  );
});
