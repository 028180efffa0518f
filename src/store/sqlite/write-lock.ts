/**
 * Waiting for SQLite's one write lock. By default a write waits the connection's busy timeout
 * (BUSY_TIMEOUT_MS) and then fails, which suits a server's request. An ingest beside another
 * ingest wants to wait its turn instead, and to say so: `configure` lets the connection's
 * lock-taking writes (BEGIN IMMEDIATE, the ingest-runs rows) wait up to `maxWaitMs`, calling
 * `onWait` once the first second has passed, and fail with DatabaseBusyError after that.
 */
import { FIRST_WAIT_MS, lockWaitGivenUp, type LockWait } from '../lock-wait.js';
import type { SqliteDatabase } from './connection.js';

export interface WriteLock {
  /** Runs `op`, a statement that takes the write lock, waiting for other writers as configured. */
  run<T>(op: () => T): T;
  configure(options: LockWait): void;
}

function isBusy(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'SQLITE_BUSY';
}

export function createWriteLock(db: SqliteDatabase): WriteLock {
  let maxWaitMs: number | null = null;
  let onWait: (() => void) | undefined;
  const giveUp = (error: unknown) => lockWaitGivenUp(maxWaitMs as number, error);
  return {
    configure(options) {
      maxWaitMs = options.maxWaitMs;
      onWait = options.onWait;
      db.pragma(`busy_timeout = ${Math.min(FIRST_WAIT_MS, maxWaitMs)}`);
    },
    run(op) {
      if (maxWaitMs === null) return op();
      try {
        return op();
      } catch (error) {
        if (!isBusy(error)) throw error;
        if (maxWaitMs <= FIRST_WAIT_MS) throw giveUp(error);
      }
      onWait?.();
      db.pragma(`busy_timeout = ${maxWaitMs - FIRST_WAIT_MS}`);
      try {
        return op();
      } catch (error) {
        throw isBusy(error) ? giveUp(error) : error;
      } finally {
        db.pragma(`busy_timeout = ${FIRST_WAIT_MS}`);
      }
    },
  };
}
