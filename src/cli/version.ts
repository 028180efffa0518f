/** The package version, read once from package.json (two levels up from src/cli, dist/cli and dist/chunks alike). */
import { createRequire } from 'node:module';

export const VERSION: string = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
