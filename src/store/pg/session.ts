/** The PostgreSQL store's statements: any pooled connection, failures as DatabaseUnavailableError. */
import type { QueryResultRow } from 'pg';
import type { PgPool } from './connection.js';
import { toPgDatabaseError } from './connection.js';

export interface Session {
  readonly pool: PgPool;
  readonly url: string;
  /** Runs one statement; its rows. */
  query<R extends QueryResultRow>(text: string, params?: unknown[]): Promise<R[]>;
  /**
   * The same through a prepared statement (parsed and planned once per connection): for the
   * statements run on every request, whose planning would cost more than their execution.
   */
  prepared<R extends QueryResultRow>(text: string, params: unknown[]): Promise<R[]>;
}

export function createSession(pool: PgPool, url: string): Session {
  const names = new Map<string, string>();
  return {
    pool,
    url,
    async query<R extends QueryResultRow>(text: string, params?: unknown[]) {
      try {
        return (await pool.query<R>(text, params)).rows;
      } catch (error) {
        throw toPgDatabaseError(error, url);
      }
    },
    async prepared<R extends QueryResultRow>(text: string, values: unknown[]) {
      let name = names.get(text);
      if (name === undefined) names.set(text, (name = `oracle_${names.size}`));
      try {
        return (await pool.query<R>({ name, text, values })).rows;
      } catch (error) {
        throw toPgDatabaseError(error, url);
      }
    },
  };
}
