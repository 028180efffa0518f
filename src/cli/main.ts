/**
 * The CLI's entry point: builds the program, runs it, and turns any error into one readable
 * stderr line and an exit code (a stack trace only with ORACLE_DEBUG=1).
 */
import { CommanderError } from 'commander';
import { createProgram } from './program.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { reportError } from './report-error.js';

export async function main(argv: readonly string[]): Promise<number> {
  const program = createProgram();
  try {
    await program.parseAsync([...argv]);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with code 0; usage errors were already printed.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    reportError(error);
    return exitCodeFor(error);
  }
}
