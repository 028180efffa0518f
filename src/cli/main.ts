/**
 * The CLI's entry points: `run` builds the program over the streams, environment and clock it
 * is given, runs it, and turns any error into one readable stderr line and an exit code (a stack
 * trace only with ORACLE_DEBUG=1); `main` is `run` over the process's.
 */
import { CommanderError } from 'commander';
import { processDeps, type ProgramDeps } from './context.js';
import { createProgram } from './program.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { reportError } from './report-error.js';

// For bin/oracle.js, which decides the code of a run whose main never settled.
export { EXIT } from './exit-codes.js';

/** Runs the program on `argv` (node, script, then the arguments) and resolves with its exit code. */
export async function run(argv: readonly string[], deps: ProgramDeps): Promise<number> {
  const program = createProgram(deps, argv);
  try {
    await program.parseAsync([...argv]);
    return program.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with code 0; usage errors were already printed.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    reportError(error, deps);
    return exitCodeFor(error);
  }
}

/** `oracle` in this process: its argv, streams, environment and clock. */
export async function main(argv: readonly string[]): Promise<number> {
  const deps = processDeps();
  stopQuietlyWhenStdoutCloses(deps);
  return run(argv, deps);
}

/**
 * A reader that stops early (`oracle export | head`, `oracle --help | head -1`) closes the
 * pipe; Node then reports EPIPE as an unhandled error with a stack. Unix tools end quietly
 * there, by SIGPIPE: so does oracle, with the code a shell gives such a tool.
 */
function stopQuietlyWhenStdoutCloses(deps: ProgramDeps): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') {
      reportError(error, deps);
      process.exit(EXIT.runtime);
    }
    process.exit(EXIT.brokenPipe);
  });
}
