/**
 * The ingest-runs table: one row per `oracle ingest` source, written at start and at end.
 * Each row names the process that runs it (host and pid), so a run whose process died
 * (kill -9, a power cut) can be told from one still going and marked `interrupted`.
 */
import { hostname } from 'node:os';
import type { IngestCounts, IngestRunStatus } from '../store.js';
import type { SqliteDatabase } from './connection.js';
import type { WriteLock } from './write-lock.js';


/** True unless the process `pid` of this host is certainly gone (EPERM: alive, another user's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code !== 'ESRCH';
  }
}

export function createIngestRunRepo(db: SqliteDatabase, writeLock: WriteLock) {
  const host = hostname();
  const start = db.prepare(
    'INSERT INTO ingest_runs (source, kind, format, dry_run, started_at, host, pid) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const finish = db.prepare(
    `UPDATE ingest_runs SET finished_at = ?, status = ?, read_count = ?, inserted_count = ?,
       duplicate_count = ?, rejected_count = ?, error = ? WHERE id = ?`,
  );
  const running = db.prepare<[], { id: number; host: string | null; pid: number | null }>(
    "SELECT id, host, pid FROM ingest_runs WHERE status = 'running'",
  );
  const interrupt = db.prepare("UPDATE ingest_runs SET status = 'interrupted', error = ? WHERE id = ? AND status = 'running'");
  const recent = db.prepare('SELECT * FROM ingest_runs ORDER BY id DESC LIMIT ?');

  return {
    start(run: { source: string; kind: string; format: string; dryRun: boolean; startedAt: number }): number {
      return Number(writeLock.run(() => start.run(run.source, run.kind, run.format, run.dryRun ? 1 : 0, run.startedAt, host, process.pid)).lastInsertRowid);
    },
    finish(id: number, finishedAt: number, status: IngestRunStatus, counts: IngestCounts, error: string | null = null): void {
      writeLock.run(() => finish.run(finishedAt, status, counts.read, counts.inserted, counts.duplicates, counts.rejected, error, id));
    },
    /**
     * Marks `interrupted` the `running` rows whose process is gone: of this host and no longer
     * alive, or written before runs named their process. Rows of another host are left alone
     * (nothing here can tell whether that process lives). Returns how many were marked.
     */
    markInterrupted(): number {
      let marked = 0;
      for (const run of running.all()) {
        if (run.pid !== null && (run.host !== host || processAlive(run.pid))) continue;
        const who = run.pid === null ? 'its process' : `its process (pid ${run.pid})`;
        const error = `${who} ended without finishing the run (killed?); what it committed stays, a re-run completes it`;
        marked += writeLock.run(() => interrupt.run(error, run.id)).changes;
      }
      return marked;
    },
    recent(limit: number): Record<string, unknown>[] {
      return recent.all(limit) as Record<string, unknown>[];
    },
  };
}

export type IngestRunRepo = ReturnType<typeof createIngestRunRepo>;
