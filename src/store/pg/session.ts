/**
 * Where the PostgreSQL store's statements run. Outside an ingest transaction: any pooled
 * connection. While an ingest's writer holds a transaction open, every statement of the
 * store runs on that writer's connection, as every statement of the SQLite store runs on its
 * one connection: the ingest resolves the products it has just upserted, uncommitted, and
 * those are visible to that transaction only.
 */
import type { QueryResultRow } from 'pg';
import type { PgClient, PgPool } from './connection.js';
import { toPgDatabaseError } from './connection.js';

export interface Session {
  readonly pool: PgPool;
  readonly url: string;
  /** Runs one statement (on the open transaction's connection when there is one). */
  query<R extends QueryResultRow>(text: string, params?: unknown[]): Promise<R[]>;
  /** The connection of the open transaction, if any, and what must happen before another statement may use it. */
  transaction: { client: PgClient; ready: () => Promise<void> } | null;
}

export function createSession(pool: PgPool, url: string): Session {
  const session: Session = {
    pool,
    url,
    transaction: null,
    async query<R extends QueryResultRow>(text: string, params?: unknown[]) {
      try {
        const open = session.transaction;
        if (open) {
          await open.ready();
          return (await open.client.query<R>(text, params)).rows;
        }
        return (await pool.query<R>(text, params)).rows;
      } catch (error) {
        throw toPgDatabaseError(error, url);
      }
    },
  };
  return session;
}
