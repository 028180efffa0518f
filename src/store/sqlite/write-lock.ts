/**
 * Waiting for SQLite's one write lock. By default a write waits the connection's busy timeout
 * (BUSY_TIMEOUT_MS) and then fails, which suits a server's request. A command that writes
 * beside another writer waits its `--lock-wait` instead, and says so: `configure` lets every
 * statement wait up to `maxWaitMs`; the lock-taking writes run through `run` (BEGIN IMMEDIATE,
 * the ingest-runs rows) call `onWait` once the first second has passed. A wait that ran out
 * fails with DatabaseBusyError (`busyError`), and the connection waits no more after it: a
 * command gives up after `maxWaitMs` in all, not once per statement still to run (the run's
 * row, then its first batch, each waited the whole of it before).
 */
import { FIRST_WAIT_MS, lockWaitGivenUp, type LockWait } from '../lock-wait.js';
import type { SqliteDatabase } from './connection.js';

export interface WriteLock {
  /** Runs `op`, a statement that takes the write lock, waiting for other writers as configured. */
  run<T>(op: () => T): T;
  configure(options: LockWait): void;
  /** `error` as the store throws it: a busy database past the configured wait is DatabaseBusyError. */
  busyError(error: unknown): unknown;
}

function isBusy(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'SQLITE_BUSY';
}

export function createWriteLock(db: SqliteDatabase): WriteLock {
  let maxWaitMs: number | null = null;
  let onWait: (() => void) | undefined;
  let gaveUp = false;
  const giveUp = (error: unknown) => {
    if (!gaveUp) {
      gaveUp = true;
      db.pragma('busy_timeout = 0');
    }
    return lockWaitGivenUp(maxWaitMs as number, error);
  };
  return {
    configure(options) {
      maxWaitMs = options.maxWaitMs;
      onWait = options.onWait;
      db.pragma(`busy_timeout = ${maxWaitMs}`);
    },
    busyError(error) {
      return maxWaitMs !== null && isBusy(error) ? giveUp(error) : error;
    },
    run(op) {
      if (maxWaitMs === null) return op();
      if (gaveUp || maxWaitMs <= FIRST_WAIT_MS) {
        try {
          return op();
        } catch (error) {
          throw isBusy(error) ? giveUp(error) : error;
        }
      }
      db.pragma(`busy_timeout = ${FIRST_WAIT_MS}`);
      try {
        return op();
      } catch (error) {
        if (!isBusy(error)) throw error;
      } finally {
        db.pragma(`busy_timeout = ${maxWaitMs}`);
      }
      onWait?.();
      db.pragma(`busy_timeout = ${maxWaitMs - FIRST_WAIT_MS}`);
      try {
        return op();
      } catch (error) {
        throw isBusy(error) ? giveUp(error) : error;
      } finally {
        if (!gaveUp) db.pragma(`busy_timeout = ${maxWaitMs}`);
      }
    },
  };
}
