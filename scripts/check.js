#!/usr/bin/env node
// `npm run check`: the type check (tsc), the linter (eslint) and the format check (prettier)
// side by side. Each is single-threaded and reads the whole tree, so on a 2-core machine running
// them at once takes about as long as the slowest alone; `npm test` runs this before vitest.
// Each tool's output is printed whole after it ends, so the three never interleave.
import { spawn } from 'node:child_process';

const TOOLS = [
  ['typecheck', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['eslint', ['eslint', '.']],
  ['prettier', ['prettier', '--check', '--log-level', 'warn', '**/*.{ts,js,mjs,cjs}']],
];

/** @param {[string, string[]]} tool */
function run([name, [command, ...args]]) {
  return new Promise((resolve) => {
    const child = spawn(`node_modules/.bin/${command}`, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ name, ok: false, output: String(error) }));
    child.on('close', (code) => resolve({ name, ok: code === 0, output }));
  });
}

const results = await Promise.all(TOOLS.map(run));
for (const { name, ok, output } of results) {
  if (output.trim() !== '') process.stdout.write(`${output.trimEnd()}\n`);
  process.stdout.write(`${name}: ${ok ? 'ok' : 'FAILED'}\n`);
}
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
