/** The ingest-runs table: one row per `oracle ingest` source, written at start and at end. */
import type { SqliteDatabase } from './connection.js';

export interface IngestCounts {
  read: number;
  inserted: number;
  duplicates: number;
  rejected: number;
}

export type IngestRunStatus = 'ok' | 'rejected' | 'failed';

export function createIngestRunRepo(db: SqliteDatabase) {
  const start = db.prepare(
    'INSERT INTO ingest_runs (source, kind, format, dry_run, started_at) VALUES (?, ?, ?, ?, ?)',
  );
  const finish = db.prepare(
    `UPDATE ingest_runs SET finished_at = ?, status = ?, read_count = ?, inserted_count = ?,
       duplicate_count = ?, rejected_count = ?, error = ? WHERE id = ?`,
  );
  const recent = db.prepare('SELECT * FROM ingest_runs ORDER BY id DESC LIMIT ?');

  return {
    start(run: { source: string; kind: string; format: string; dryRun: boolean; startedAt: number }): number {
      return Number(start.run(run.source, run.kind, run.format, run.dryRun ? 1 : 0, run.startedAt).lastInsertRowid);
    },
    finish(id: number, finishedAt: number, status: IngestRunStatus, counts: IngestCounts, error: string | null = null): void {
      finish.run(finishedAt, status, counts.read, counts.inserted, counts.duplicates, counts.rejected, error, id);
    },
    recent(limit: number): Record<string, unknown>[] {
      return recent.all(limit) as Record<string, unknown>[];
    },
  };
}

export type IngestRunRepo = ReturnType<typeof createIngestRunRepo>;
