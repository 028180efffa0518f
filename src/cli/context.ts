/**
 * What every command gets: its options as program.ts's parsers made them (a flag beats its
 * environment variable, which beats the default) and the clock of the run.
 */
import type { Command, OptionValues } from 'commander';

export interface CommandContext {
  /** Options of the command itself (commander's camelCase names), as their parsers made them. */
  options: OptionValues;
  dbPath: string;
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** The clock, read once here: commands and the engine never read it themselves. */
  now: number;
}

export function resolveContext(command: Command, now: number): CommandContext {
  const globals = command.optsWithGlobals() as { db: string };
  return {
    options: command.opts(),
    dbPath: globals.db,
    stdout: process.stdout,
    stderr: process.stderr,
    // Read when used: Node makes process.stdin on first access, opening the stream (a pipe,
    // a terminal), which only commands reading '-' need.
    get stdin() {
      return process.stdin;
    },
    now,
  };
}
