/**
 * What every command gets: its parsed options and the resolved configuration
 * (a flag beats its environment variable, which beats the default).
 */
import type { Command } from 'commander';

export const DEFAULT_DB_PATH = 'oracle.db';

export interface CommandContext {
  /** Options of the command itself (commander's camelCase names). */
  options: Record<string, unknown>;
  dbPath: string;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** The clock, read once here: commands and the engine never read it themselves. */
  now: number;
}

export function resolveContext(command: Command): CommandContext {
  const globals = command.optsWithGlobals() as { db?: string };
  return {
    options: command.opts(),
    dbPath: globals.db ?? process.env.ORACLE_DB ?? DEFAULT_DB_PATH,
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    now: Date.now(),
  };
}
