/**
 * Where drizzle-kit's migrations are, per dialect. Defined at this depth (two levels below the
 * package root) because the build keeps every output file there (scripts/build.js).
 */
import { fileURLToPath } from 'node:url';
import { DatabaseUnavailableError } from '../domain/errors.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../drizzle', import.meta.url));
export const PG_MIGRATIONS_DIR = fileURLToPath(new URL('../../drizzle-pg', import.meta.url));

/**
 * A database a newer oracle migrated further than this one knows, refused by both stores: its
 * schema may lack what this oracle reads or hold what it does not know. `where` names the file
 * or the URL without its password.
 */
export function newerSchemaError(where: string, found: number, known: number): DatabaseUnavailableError {
  const reason = `the database was made by a newer oracle (schema version ${found}, this one knows ${known})`;
  return new DatabaseUnavailableError(`database ${where}: ${reason}: upgrade oracle`, {
    reason,
    remedy: 'upgrade oracle',
  });
}
