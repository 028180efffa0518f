/** API keys, ingest runs and calibrations on PostgreSQL: the statements of their SQLite repos. */
import { hostname } from 'node:os';
import { interruptionOf, type RunningRun } from '../ingest-runs.js';
import type { ApiKeyRecord, FxRate, IngestCounts, IngestRunStatus, StoredCalibration } from '../store.js';
import type { PgClient } from './connection.js';
import type { Session } from './session.js';

/** Runs `fn` in a transaction that also bumps the data version (a write cached answers depend on). */
export type VersionedWrite = <T>(fn: (client: PgClient) => Promise<T>) => Promise<T>;

const KEY_COLUMNS =
  'id, label, created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"';

/**
 * Creating and revoking a key bump the data version (as any commit moves SQLite's): servers
 * cache what they know of keys per version, and a revoked key must stop working on every
 * replica. Last-used times do not: nothing cached depends on them.
 */
export function createPgApiKeyRepo(session: Session, versionedWrite: VersionedWrite) {
  const q = session.query;
  return {
    create: (id: string, label: string, secretHash: string, createdAt: number): Promise<void> =>
      versionedWrite(async (client) => {
        await client.query(
          'INSERT INTO api_keys (id, label, secret_hash, created_at) VALUES ($1, $2, $3, $4)',
          [id, label, secretHash, createdAt],
        );
      }),
    list: () =>
      q<ApiKeyRecord>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, id ${'COLLATE "C"'}`),
    async findByHash(secretHash: string): Promise<ApiKeyRecord | undefined> {
      return (
        await q<ApiKeyRecord>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE secret_hash = $1`, [secretHash])
      )[0];
    },
    /** False when no active key has this id. */
    revoke: (id: string, at: number): Promise<boolean> =>
      versionedWrite(async (client) => {
        const revoked = await client.query(
          'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL RETURNING id',
          [at, id],
        );
        return revoked.rows.length > 0;
      }),
    /** Last-used times in one statement; a key used twice keeps its last time, as row-by-row updates would. */
    async touch(uses: readonly (readonly [id: string, at: number])[]): Promise<void> {
      if (uses.length === 0) return;
      const latest = new Map(uses);
      await q(
        'UPDATE api_keys k SET last_used_at = u.at FROM unnest($1::text[], $2::bigint[]) AS u(id, at) WHERE k.id = u.id',
        [[...latest.keys()], [...latest.values()]],
      );
    },
  };
}

export function createPgIngestRunRepo(session: Session) {
  const q = session.query;
  const host = hostname();
  return {
    async start(run: {
      source: string;
      kind: string;
      format: string;
      dryRun: boolean;
      startedAt: number;
    }): Promise<number> {
      const [row] = await q<{ id: number }>(
        'INSERT INTO ingest_runs (source, kind, format, dry_run, started_at, host, pid) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id',
        [run.source, run.kind, run.format, run.dryRun, run.startedAt, host, process.pid],
      );
      return row!.id;
    },
    async finish(
      id: number,
      finishedAt: number,
      status: IngestRunStatus,
      counts: IngestCounts,
      error: string | null = null,
    ): Promise<void> {
      await q(
        `UPDATE ingest_runs SET finished_at = $1, status = $2, read_count = $3, inserted_count = $4,
           duplicate_count = $5, rejected_count = $6, error = $7 WHERE id = $8`,
        [finishedAt, status, counts.read, counts.inserted, counts.duplicates, counts.rejected, error, id],
      );
    },
    /** As the SQLite repo's: `running` rows of this host whose process is gone become `interrupted`. */
    async markInterrupted(): Promise<number> {
      let marked = 0;
      for (const run of await q<RunningRun>(
        "SELECT id, host, pid FROM ingest_runs WHERE status = 'running'",
      )) {
        const error = interruptionOf(run, host);
        if (error === null) continue;
        marked += (
          await q(
            "UPDATE ingest_runs SET status = 'interrupted', error = $1 WHERE id = $2 AND status = 'running' RETURNING id",
            [error, run.id],
          )
        ).length;
      }
      return marked;
    },
    /** The latest runs, rows as SQLite gives them (dry_run 0 or 1). */
    async recent(limit: number): Promise<Record<string, unknown>[]> {
      // The columns in the SQLite table's order (host and pid were added last there).
      const rows = await q<Record<string, unknown>>(
        `SELECT id, source, kind, format, dry_run, started_at, finished_at, status, read_count, inserted_count,
           duplicate_count, rejected_count, error, host, pid FROM ingest_runs ORDER BY id DESC LIMIT $1`,
        [limit],
      );
      return rows.map((row) => ({ ...row, dry_run: row.dry_run ? 1 : 0 }));
    },
  };
}

const CALIBRATION_COLUMNS = 'id, as_of AS "asOf", created_at AS "createdAt", body';

export function createPgCalibrationRepo(session: Session, versionedWrite: VersionedWrite) {
  const q = session.query;
  return {
    insert: (asOf: number, createdAt: number, body: string): Promise<number> =>
      versionedWrite(async (client) => {
        const inserted = await client.query<{ id: number }>(
          'INSERT INTO calibrations (as_of, created_at, body) VALUES ($1, $2, $3) RETURNING id',
          [asOf, createdAt, body],
        );
        return inserted.rows[0]!.id;
      }),
    async usableAt(at: number): Promise<StoredCalibration | null> {
      const [row] = await q<StoredCalibration>(
        `SELECT ${CALIBRATION_COLUMNS} FROM calibrations WHERE as_of <= $1 ORDER BY as_of DESC, id DESC LIMIT 1`,
        [at],
      );
      return row ?? null;
    },
    all: () => q<StoredCalibration>(`SELECT ${CALIBRATION_COLUMNS} FROM calibrations ORDER BY as_of, id`),
  };
}

/** The reference exchange rates, as SQLite's (sqlite/rate-repo.ts); adding bumps the data version (converted prices depend on them). */
export function createPgRateRepo(session: Session, versionedWrite: VersionedWrite) {
  return {
    add: (rates: readonly FxRate[]): Promise<{ inserted: number; duplicates: number }> =>
      versionedWrite(async (client) => {
        const result = await client.query(
          `INSERT INTO fx_rates (day, currency, per_euro, source)
           SELECT * FROM unnest($1::text[], $2::text[], $3::float8[], $4::text[]) ON CONFLICT DO NOTHING`,
          [
            rates.map((r) => r.day),
            rates.map((r) => r.currency),
            rates.map((r) => r.perEuro),
            rates.map((r) => r.source),
          ],
        );
        const inserted = result.rowCount ?? 0;
        return { inserted, duplicates: rates.length - inserted };
      }),
    all: () =>
      session.query<FxRate>(
        `SELECT day, currency, per_euro AS "perEuro", source FROM fx_rates ORDER BY currency ${'COLLATE "C"'}, day ${'COLLATE "C"'}`,
      ),
  };
}
