/**
 * Shared test helpers: run the compiled CLI as a child process (`npm run build` first) and
 * make temporary directories that are removed when the test file ends.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const BIN = join(ROOT, 'bin', 'oracle.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Written to the child's stdin, which is then closed. */
  input?: string | Buffer;
  /** Added to the environment (ORACLE_* variables of the parent are dropped first). */
  env?: Record<string, string>;
  cwd?: string;
}

/** The environment of a child: the parent's without ORACLE_* settings, plus `extra`. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('ORACLE_')) env[key] = value;
  return { ...env, ...extra };
}

/** Runs `node bin/oracle.js ...args` and resolves with its exit code and output. */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  return runCommand(process.execPath, [BIN, ...args], options);
}

/** Runs `file ...args` (a script of examples/, say) as runCli runs the CLI. */
export function runCommand(file: string, args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file, [...args], {
      cwd: options.cwd ?? ROOT,
      env: childEnv(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
    child.stdin.on('error', () => {}); // the child may exit before reading all of it
    child.stdin.end(options.input ?? '');
  });
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary directory, removed after the test file's last test. */
export function tempDir(prefix = 'oracle-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}
