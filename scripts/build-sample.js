#!/usr/bin/env node
// Compiles the sample generator (sample/, not part of the published package) for the tools
// that use it: scripts/generate-sample-data.js (npm run sample, the demo, bench/) and the
// backtest's seeded PRNG. Output: build/sample/, outside package.json "files".
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}/build/sample`, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['sample/cli.ts', 'sample/prng.ts'],
  outdir: 'build/sample',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
