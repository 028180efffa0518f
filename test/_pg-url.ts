/** Names shared by the PostgreSQL global setup (test/pg-setup.ts) and the tests' helper (test/_pg.ts). */

/** The migrated, empty database each test database is created from. */
export const PG_TEMPLATE = 'oracle_test_template';

/** `url` naming database `name` instead. */
export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}
