// What the product's bundles are made of, shared by the build (scripts/build.js) and the CLI
// start benchmark's other layouts (bench/lib/layouts.js), so those differ from dist/ only in
// their layout.
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root, where esbuild resolves src/ and node_modules/. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Left to node_modules, loaded by require() where first used: by ingest and serve (the ORM
 * only to migrate; the Redis client only by serve --redis), the PostgreSQL store (pg,
 * pg-copy-streams), serve --metrics (prom-client) and `oracle mcp` (the MCP SDK). Bundled, they would only make every
 * start read a larger file.
 */
export const EXTERNAL = [
  'drizzle-orm',
  'undici',
  'polka',
  'ioredis',
  'pg',
  'pg-copy-streams',
  'prom-client',
  '@modelcontextprotocol/server',
];

/**
 * zod as ingest and serve use it (`zod`, the whole library) stays in node_modules like
 * EXTERNAL; `zod/mini`, which the input schemas of domain/ are written in and every command
 * reads its options through, is bundled: tree-shaken, it is a few kilobytes, where requiring
 * zod from node_modules is a large share of a command's start. An external `zod` and the
 * bundled `zod/mini` share their registries and configuration through globalThis, which zod
 * keeps there for two copies of itself in one process.
 * @type {import('esbuild').Plugin}
 */
export const externalZodOnly = {
  name: 'external-zod-only',
  setup(build) {
    build.onResolve({ filter: /^zod$/ }, () => ({ path: 'zod', external: true }));
  },
};

/**
 * commander requires node:child_process as it loads, for executable subcommands, which oracle
 * has none of; that module, with the net and stream modules it loads, is a measurable share of
 * every command's start (bench/findings.md). In the bundles commander gets a stand-in that
 * requires the module when a property of it is first read.
 * @type {import('esbuild').Plugin}
 */
export const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(build) {
    const commander = `${sep}node_modules${sep}commander${sep}`;
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.importer.includes(commander) ? { path: 'child_process', namespace: 'lazy' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, name) => require('node:child_process')[name] });",
      loader: 'js',
    }));
  },
};

/** @type {import('esbuild').BuildOptions} */
export const COMMON = {
  absWorkingDir: ROOT,
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  external: EXTERNAL,
  plugins: [lazyChildProcessForCommander, externalZodOnly],
};

/**
 * ES modules with code splitting (build/, and the benchmark's ES module layout), which call
 * require(): bundled CommonJS packages (commander, cli-table3, better-sqlite3's JS) do.
 * @type {import('esbuild').BuildOptions}
 */
export const ESM_CHUNKS = {
  ...COMMON,
  format: 'esm',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
};
