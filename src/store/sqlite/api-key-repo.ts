/** API keys: only a SHA-256 of each secret is stored; the secret is shown once at creation. */
import type { ApiKeyRecord } from '../store.js';
import { type SqliteDatabase } from './connection.js';
import { onFirstUse } from '../../domain/first-use.js';

interface ApiKeyRow {
  id: string;
  label: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    label: row.label,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

export function createApiKeyRepo(db: SqliteDatabase) {
  const insert = onFirstUse(() =>
    db.prepare('INSERT INTO api_keys (id, label, secret_hash, created_at) VALUES (?, ?, ?, ?)'),
  );
  const all = onFirstUse(() =>
    db.prepare<[], ApiKeyRow>(
      'SELECT id, label, created_at, last_used_at, revoked_at FROM api_keys ORDER BY created_at, id',
    ),
  );
  const byHash = onFirstUse(() =>
    db.prepare<[string], ApiKeyRow>(
      'SELECT id, label, created_at, last_used_at, revoked_at FROM api_keys WHERE secret_hash = ?',
    ),
  );
  const revoke = onFirstUse(() =>
    db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
  );
  const touch = onFirstUse(() => db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?'));

  return {
    create(id: string, label: string, secretHash: string, createdAt: number): void {
      insert().run(id, label, secretHash, createdAt);
    },
    list(): ApiKeyRecord[] {
      return all().all().map(toRecord);
    },
    findByHash(secretHash: string): ApiKeyRecord | undefined {
      const row = byHash().get(secretHash);
      return row && toRecord(row);
    },
    /** Returns false when no active key has this id. */
    revoke(id: string, at: number): boolean {
      return revoke().run(at, id).changes > 0;
    },
    touch(id: string, at: number): void {
      touch().run(at, id);
    },
  };
}

export type ApiKeyRepo = ReturnType<typeof createApiKeyRepo>;
