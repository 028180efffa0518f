/**
 * Waiting for SQLite's one write lock. By default a write waits the connection's busy timeout
 * (BUSY_TIMEOUT_MS) and then fails, which suits a server's request. An ingest beside another
 * ingest wants to wait its turn instead, and to say so: `configure` lets the connection's
 * lock-taking writes (BEGIN IMMEDIATE, the ingest-runs rows) wait up to `maxWaitMs`, calling
 * `onWait` once the first second has passed, and fail with DatabaseBusyError after that.
 */
import { DatabaseBusyError } from '../../domain/errors.js';
import type { SqliteDatabase } from './connection.js';

/** How long a write waits before `onWait` is told (and the rest of maxWaitMs is waited). */
const FIRST_WAIT_MS = 1_000;

export interface WriteLock {
  /** Runs `op`, a statement that takes the write lock, waiting for other writers as configured. */
  run<T>(op: () => T): T;
  configure(options: { maxWaitMs: number; onWait?: () => void }): void;
}

function isBusy(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'SQLITE_BUSY';
}

export function createWriteLock(db: SqliteDatabase): WriteLock {
  let maxWaitMs: number | null = null;
  let onWait: (() => void) | undefined;
  const giveUp = (error: unknown) =>
    new DatabaseBusyError(`another writer held the database for more than ${Math.round((maxWaitMs as number) / 1000)} s (see --lock-wait)`, { cause: error });
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
