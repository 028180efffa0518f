/**
 * What a run of the program is given (its streams, environment, clock and store opener:
 * ProgramDeps) and what every command gets from it: its options as program.ts's parsers made
 * them (a flag beats its environment variable, which beats the default), the streams, the clock
 * and the opener of the run.
 */
import type { Command, OptionValues } from 'commander';
import type { OpenOptions, Store } from '../store/store.js';
import { defaultDatabase } from './db-location.js';
import { terminalOf, type DisplayFlags, type Terminal } from './format/terminal.js';

export type Output = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
export type Input = NodeJS.ReadableStream & { isTTY?: boolean };
/** The environment a run reads its ORACLE_* variables from. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Opens the store at a location (--db, ORACLE_DB) as a command asks (`create` for ingest). The
 * command closes the store it was given when it ends, whoever made it: an opener that lends a
 * store it keeps (a test's) hands out one whose close() lets it be.
 */
export type StoreOpener = (location: string, options: OpenOptions) => Promise<Store>;

/** What a run of the program reads and writes: `main` gives the process's, the tests their own. */
export interface ProgramDeps {
  stdout: Output;
  stderr: Output;
  /** Read only by commands that read '-'. */
  readonly stdin: Input;
  env: Env;
  /** The clock, read once when the program is built: `--at` and `--observed-at` are checked against it. */
  now: number | (() => number);
  /** How commands open their store (cli/open-service.ts withService); default: the real opener, store/open-store.ts. `serve` opens its own. */
  openStore?: StoreOpener;
}

/** The process's streams, environment and clock. */
export function processDeps(): ProgramDeps {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // Read when used: Node makes process.stdin on first access, opening the stream (a pipe,
    // a terminal), which only commands reading '-' need.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    now: Date.now,
  };
}

export interface CommandContext {
  /** Options of the command itself (commander's camelCase names), as their parsers made them. */
  options: OptionValues;
  dbPath: string;
  stdout: Output;
  stderr: Output;
  readonly stdin: Input;
  env: Env;
  /** The clock, read once when the program was built: commands and the engine never read it themselves. */
  now: number;
  /** The run's clock (ProgramDeps.now), for a command that keeps running: `serve --watch` checks as of it. */
  clock: () => number;
  /** ProgramDeps.openStore. */
  openStore?: StoreOpener;
  /** What stdout allows: its width (`--wide`: Infinity) and colours (`--no-color`, NO_COLOR, FORCE_COLOR, a TTY). */
  terminal: Terminal;
}

export function resolveContext(command: Command, deps: ProgramDeps, now: number): CommandContext {
  const globals = command.optsWithGlobals() as { db?: string } & DisplayFlags;
  return {
    options: command.opts(),
    dbPath: globals.db ?? defaultDatabase(deps.env),
    stdout: deps.stdout,
    stderr: deps.stderr,
    get stdin() {
      return deps.stdin;
    },
    env: deps.env,
    now,
    clock: typeof deps.now === 'function' ? deps.now : () => now,
    openStore: deps.openStore,
    terminal: terminalOf(deps.stdout, deps.env, globals),
  };
}
