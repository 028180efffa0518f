#!/usr/bin/env node
// Bundles the CLI for start-up speed: `oracle price` then loads a handful of files instead of
// ~75 modules (ESM resolution and file reads were most of its start-up). Code splitting keeps
// each command in its own chunk, loaded only when that command runs. Output: dist/bundle/,
// two levels below the package root like the tsc output, so paths such as ../../drizzle hold.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}/dist/bundle`, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['src/cli/main.ts'],
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  // Loaded only by ingest and serve (and the ORM only to migrate; the Redis client only by serve --redis): left to node_modules.
  external: ['drizzle-orm', 'undici', 'zod', 'polka', 'ioredis'],
  // Bundled CommonJS packages (commander, cli-table3, better-sqlite3's JS) call require().
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
