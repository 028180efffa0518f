/** How the CLI reports an error: one stderr line `oracle: <message>`, the stack only with ORACLE_DEBUG=1. */
export function reportError(error: unknown, stderr: NodeJS.WritableStream = process.stderr): void {
  if (process.env.ORACLE_DEBUG === '1') {
    stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`oracle: ${message.split('\n')[0]}\n`);
}
