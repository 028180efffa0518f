/**
 * Where drizzle-kit's migrations are, per dialect. Defined at this depth (two levels below the
 * package root) because the build keeps every output file there (scripts/build.js).
 */
import { fileURLToPath } from 'node:url';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../drizzle', import.meta.url));
export const PG_MIGRATIONS_DIR = fileURLToPath(new URL('../../drizzle-pg', import.meta.url));
