/**
 * The ingest-runs table's rule on any store (sqlite/ingest-run-repo.ts, pg/records.ts): each
 * row names the process that runs it (host and pid), so a run whose process died (kill -9, a
 * power cut) can be told from one still going and marked `interrupted`.
 */
import { hostname } from 'node:os';

/** A `running` row as read. */
export interface RunningRun {
  id: number;
  host: string | null;
  pid: number | null;
}

/** True unless the process `pid` of this host is certainly gone (EPERM: alive, another user's). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code !== 'ESRCH';
  }
}

/**
 * The error a `running` row is marked `interrupted` with when its process is gone (of this
 * host and no longer alive, or written before runs named their process); null to leave it:
 * alive, or of another host (nothing here can tell whether that process lives).
 */
export function interruptionOf(run: RunningRun, host = hostname()): string | null {
  if (run.pid !== null && (run.host !== host || processAlive(run.pid))) return null;
  const who = run.pid === null ? 'its process' : `its process (pid ${run.pid})`;
  return `${who} ended without finishing the run (killed, crashed, or a full disk failed its last write?); what it committed stays, a re-run completes it`;
}
