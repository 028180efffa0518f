/**
 * The CLI's entry point: builds the program, runs it, and turns any error into one readable
 * stderr line and an exit code (a stack trace only with ORACLE_DEBUG=1).
 */
import { CommanderError } from 'commander';
import { createProgram } from './program.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { reportError } from './report-error.js';

// For bin/oracle.js, which decides the code of a run whose main never settled.
export { EXIT } from './exit-codes.js';

export async function main(argv: readonly string[]): Promise<number> {
  stopQuietlyWhenStdoutCloses();
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

/**
 * A reader that stops early (`oracle export | head`, `oracle --help | head -1`) closes the
 * pipe; Node then reports EPIPE as an unhandled error with a stack. Unix tools end quietly
 * there, by SIGPIPE: so does oracle, with the code a shell gives such a tool.
 */
function stopQuietlyWhenStdoutCloses(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') {
      reportError(error);
      process.exit(EXIT.runtime);
    }
    process.exit(EXIT.brokenPipe);
  });
}
