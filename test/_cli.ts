/**
 * The CLI in process: runOracle runs the program (src/cli/main.ts `run`) on streams, an
 * environment and a clock of the test's own, and resolves with the same result as runCli
 * (test/_setup.ts), which spawns `node bin/oracle.js`: a test switches by its import.
 *
 * Most CLI tests use runOracle. runCli stays for what only a real process shows: the bin
 * script and the bundle (start-up, --version, exit codes of a run that never settles), a
 * closed pipe (EPIPE), signals, the parse worker thread (it exists only in the build), locks
 * between two processes, `serve`, and a working directory of its own (relative paths are the
 * process's). A few smoke tests run a command both ways.
 */
import { Readable, Writable } from 'node:stream';
import type { StoreOpener } from '../src/cli/context.js';
import { run } from '../src/cli/main.js';
import type { CliResult } from './_setup.js';

export interface OracleRunOptions {
  /** What the program reads from stdin ('-'). */
  input?: string | Buffer;
  /** The whole environment of the run (the test process's ORACLE_* settings are not in it). */
  env?: Record<string, string>;
  /** The run's clock; the real one by default. */
  now?: number | (() => number);
  /** How its commands open their store (ProgramDeps.openStore); the real opener by default. */
  openStore?: StoreOpener;
}

/** A stream that keeps what is written to it. */
function capture(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** Runs `oracle ...args` in this process and resolves with its exit code and output. */
export async function runOracle(args: readonly string[], options: OracleRunOptions = {}): Promise<CliResult> {
  const stdout = capture();
  const stderr = capture();
  const input = options.input === undefined ? [] : [Buffer.from(options.input)];
  const code = await run(['node', 'oracle', ...args], {
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: Readable.from(input, { objectMode: false }),
    env: options.env ?? {},
    now: options.now ?? Date.now,
    openStore: options.openStore,
  });
  return { code, signal: null, stdout: stdout.text(), stderr: stderr.text() };
}
