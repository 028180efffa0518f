/**
 * What waiting for another writer means on every store (`oracle ingest --lock-wait`): a write
 * waits up to `maxWaitMs` for the database's one writer lock, tells `onWait` once the first
 * second has passed (the ingest says so on a terminal), and then gives up with the one
 * message the CLI reports. sqlite/write-lock.ts and pg/write-lock.ts wait their dialect's way.
 */
import { DatabaseBusyError } from '../domain/errors.js';

/** How long a write waits before `onWait` is told (and the rest of maxWaitMs is waited). */
export const FIRST_WAIT_MS = 1_000;

export interface LockWait {
  maxWaitMs: number;
  onWait?: () => void;
}

/** The failure of a write that waited `maxWaitMs` for another writer. */
export function lockWaitGivenUp(maxWaitMs: number, cause: unknown): DatabaseBusyError {
  return new DatabaseBusyError(
    `another writer held the database for more than ${Math.round(maxWaitMs / 1000)} s (see --lock-wait)`,
    { cause },
  );
}
