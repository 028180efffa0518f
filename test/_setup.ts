/**
 * Shared test helpers: run the compiled CLI as a child process (`npm run build` first; most
 * CLI tests run it in process instead, test/_cli.ts), make temporary directories that are
 * removed when the test file ends, and database files holding a test's catalog and observations.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import type { Observation } from '../src/domain/observation.js';
import type { Product } from '../src/domain/product.js';
import { openStore } from '../src/store/open-store.js';
import { storedProduct, writeObservations, writeProducts } from './_store.js';
import { newTestDatabase } from './_pg.js';

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
export function runCommand(
  file: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<CliResult> {
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

export interface ServeProcess {
  child: ChildProcess;
  /** The URL of the `listening on` line; rejects when the process exits first. */
  url: Promise<string>;
  exited: Promise<number | null>;
  /** Lines written so far (stdout: the access log; stderr: start-up lines and errors). */
  stdout: string[];
  stderr: string[];
}

/**
 * Starts `oracle ...args --port 0` (args end with `serve` and its options); stop it with a signal.
 * `launcher`: a command that runs it (`setpriv --reuid=nobody ...`), else node directly.
 */
export function spawnServe(
  args: readonly string[],
  env: Record<string, string> = {},
  launcher: readonly string[] = [],
): ServeProcess {
  const [file, ...rest] = [...launcher, process.execPath, BIN, ...args, '--port', '0'];
  const child = spawn(file!, rest, {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => stdout.push(line));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stderr! }).on('line', (line) => {
      stderr.push(line);
      const match = /^listening on (http:\/\/\S+)$/.exec(line);
      if (match) resolve(match[1]!);
    });
    child.on('exit', () => reject(new Error(`serve exited before listening: ${stderr.join('\n')}`)));
  });
  return { child, url, exited, stdout, stderr };
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

/** A catalog product for tests: the Base Set Charizard unless `overrides` say otherwise. */
export function testProduct(overrides: Partial<Product> = {}): Product {
  return {
    productKey: 'pokemon-base-set-charizard-4-102',
    refsourceId: '631245',
    productName: 'Charizard',
    subtitle: '4/102 Holo',
    setName: 'Base Set',
    imageUrl: '',
    productType: 'single_card',
    era: 'vintage',
    releaseDate: '1999-01-09',
    tcgplayerId: null,
    ...overrides,
  };
}

/**
 * A new database holding `products` and `observations` (of those products, by key): a SQLite
 * file in a temporary directory, or a fresh PostgreSQL database under the vitest project
 * `postgres` (newTestDatabase); its location. An observation's `matchedBy` is stored as a title match's.
 */
export async function databaseWith(
  products: readonly Product[],
  observations: readonly (Observation & { matchedBy?: string | null })[],
): Promise<string> {
  const path = await newTestDatabase(tempDir());
  const store = await openStore(path, { create: true });
  try {
    await writeProducts(store, products);
    const ids = new Map<string, number>();
    for (const p of products) ids.set(p.productKey, (await storedProduct(store, p.productKey)).id);
    await writeObservations(
      store,
      observations.map((o) => ({ ...o, productId: ids.get(o.productKey)! })),
    );
  } finally {
    await store.close();
  }
  return path;
}
