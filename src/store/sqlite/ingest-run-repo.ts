/**
 * The ingest-runs table: one row per `oracle ingest` source, written at start and at end,
 * naming its process so that a dead run is marked `interrupted` (../ingest-runs.ts).
 */
import { hostname } from 'node:os';
import { interruptionOf, type RunningRun } from '../ingest-runs.js';
import type { IngestCounts, IngestRunStatus } from '../store.js';
import { type SqliteDatabase } from './connection.js';
import type { WriteLock } from './write-lock.js';
import { onFirstUse } from '../../domain/first-use.js';

export function createIngestRunRepo(db: SqliteDatabase, writeLock: WriteLock) {
  const host = hostname();
  const start = onFirstUse(() =>
    db.prepare(
      'INSERT INTO ingest_runs (source, kind, format, dry_run, started_at, host, pid) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
  );
  const finish = onFirstUse(() =>
    db.prepare(
      `UPDATE ingest_runs SET finished_at = ?, status = ?, read_count = ?, inserted_count = ?,
         duplicate_count = ?, rejected_count = ?, error = ? WHERE id = ?`,
    ),
  );
  const running = onFirstUse(() =>
    db.prepare<[], RunningRun>("SELECT id, host, pid FROM ingest_runs WHERE status = 'running'"),
  );
  const interrupt = onFirstUse(() =>
    db.prepare(
      "UPDATE ingest_runs SET status = 'interrupted', error = ? WHERE id = ? AND status = 'running'",
    ),
  );
  const recent = onFirstUse(() => db.prepare('SELECT * FROM ingest_runs ORDER BY id DESC LIMIT ?'));

  return {
    start(run: { source: string; kind: string; format: string; dryRun: boolean; startedAt: number }): number {
      return Number(
        writeLock.run(() =>
          start().run(run.source, run.kind, run.format, run.dryRun ? 1 : 0, run.startedAt, host, process.pid),
        ).lastInsertRowid,
      );
    },
    finish(
      id: number,
      finishedAt: number,
      status: IngestRunStatus,
      counts: IngestCounts,
      error: string | null = null,
    ): void {
      writeLock.run(() =>
        finish().run(
          finishedAt,
          status,
          counts.read,
          counts.inserted,
          counts.duplicates,
          counts.rejected,
          error,
          id,
        ),
      );
    },
    /** Marks `interrupted` the `running` rows whose process is gone (interruptionOf); how many. */
    markInterrupted(): number {
      let marked = 0;
      for (const run of running().all()) {
        const error = interruptionOf(run, host);
        if (error === null) continue;
        marked += writeLock.run(() => interrupt().run(error, run.id)).changes;
      }
      return marked;
    },
    recent(limit: number): Record<string, unknown>[] {
      return recent().all(limit) as Record<string, unknown>[];
    },
  };
}

export type IngestRunRepo = ReturnType<typeof createIngestRunRepo>;
