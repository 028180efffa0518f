/**
 * How the CLI reports an error: one stderr line `oracle: <message>`; with ORACLE_DEBUG=1 the
 * stack instead, and the stack of each error it wraps (`cause`), where a bug really happened.
 */
export function reportError(error: unknown, stderr: NodeJS.WritableStream = process.stderr): void {
  if (process.env.ORACLE_DEBUG === '1') {
    for (let e: unknown = error, prefix = ''; e !== undefined; e = e instanceof Error ? e.cause : undefined, prefix = 'Caused by: ') {
      stderr.write(`${prefix}${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    }
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`oracle: ${message.split('\n')[0]}\n`);
}
