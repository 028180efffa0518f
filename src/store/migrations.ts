/**
 * Where drizzle-kit's migrations are. Defined at this depth (two levels below the package
 * root) because both builds keep it there: tsc's dist/store/ and the bundle's dist/bundle/.
 */
import { fileURLToPath } from 'node:url';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../drizzle', import.meta.url));
