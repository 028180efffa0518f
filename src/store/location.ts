/**
 * Where a store is: a `postgres://` URL or a SQLite file path. A leaf module, so the opener,
 * the PostgreSQL store (which names its URL in messages) and the CLI read locations alike
 * without importing one another.
 */
import { resolve } from 'node:path';

/** True for the locations the PostgreSQL store opens: `postgres://` and `postgresql://` URLs. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** A URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

/** How messages name a store: a database server's URL without its password, a file's absolute path. */
export function describeLocation(location: string): string {
  return isPostgresUrl(location) ? redactUrl(location) : resolve(location);
}
