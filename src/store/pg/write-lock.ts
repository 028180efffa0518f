/**
 * The ingest's writer lock on PostgreSQL. Concurrent ingests would each be correct alone
 * (ON CONFLICT DO NOTHING waits for the other's uncommitted row), but two commits writing the
 * same observations and product counts in different orders deadlock, and PostgreSQL then
 * aborts one. So a commit takes one transaction-level advisory lock before it writes: commits
 * of concurrent ingests take turns, as SQLite's writers do, while their rows are staged
 * (COPY into a session's temporary table) side by side. The lock is released by the commit or
 * the rollback, and by the server when the connection is gone (kill -9).
 *
 * `lockWait` (`--lock-wait`) waits as on SQLite (../lock-wait.ts): up to FIRST_WAIT_MS
 * silently, then `onWait`, then the rest, each wait bounded by lock_timeout inside a savepoint
 * so that giving up a wait keeps the transaction (and what it staged) usable.
 */
import { FIRST_WAIT_MS, lockWaitGivenUp, type LockWait } from '../lock-wait.js';
import type { PgClient } from './connection.js';

/** The advisory-lock key of ingest commits (the migration lock's is another). */
export const INGEST_WRITE_LOCK = 0x6f7261636c66;

const LOCK_TIMEOUT = '55P03';

/** Within `ms`: true when the lock was taken, false when the wait timed out. */
async function lockWithin(client: PgClient, ms: number): Promise<boolean> {
  await client.query('SAVEPOINT oracle_write_lock');
  try {
    await client.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(ms))}`);
    await client.query('SELECT pg_advisory_xact_lock($1)', [INGEST_WRITE_LOCK]);
  } catch (error) {
    if ((error as { code?: string }).code !== LOCK_TIMEOUT) throw error;
    await client.query('ROLLBACK TO SAVEPOINT oracle_write_lock');
    return false;
  }
  // Releasing keeps the lock (the transaction's); lock_timeout goes back to the session's.
  await client.query('RELEASE SAVEPOINT oracle_write_lock');
  await client.query('SET LOCAL lock_timeout = DEFAULT');
  return true;
}

/** Takes the ingest's writer lock for the open transaction, waiting for another writer's commit as `lockWait` says (unbounded without it). */
export async function takeWriteLock(client: PgClient, lockWait: LockWait | undefined): Promise<void> {
  if (lockWait === undefined) {
    await client.query('SELECT pg_advisory_xact_lock($1)', [INGEST_WRITE_LOCK]);
    return;
  }
  const { maxWaitMs, onWait } = lockWait;
  const first = Math.min(FIRST_WAIT_MS, maxWaitMs);
  if (await lockWithin(client, first)) return;
  if (maxWaitMs > first) {
    onWait?.();
    if (await lockWithin(client, maxWaitMs - first)) return;
  }
  throw lockWaitGivenUp(maxWaitMs, null);
}
