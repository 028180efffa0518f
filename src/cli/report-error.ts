import { ProductChoiceError } from '../domain/errors.js';
import type { Env } from './context.js';
import { cliMessage } from './error-wording.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { inert } from './format/inert.js';

/**
 * How the CLI reports an error: one stderr line `oracle: <message>` (for a bug in oracle, with
 * how to see where it is); with ORACLE_DEBUG=1 the stack instead, and the stack of each error
 * it wraps (`cause`), where a bug really happened.
 */
export function reportError(
  error: unknown,
  { stderr, env }: { stderr: NodeJS.WritableStream; env: Env },
): void {
  // Read here, not through commander: an error can happen before (or while) the arguments are parsed.
  if (env.ORACLE_DEBUG === '1') {
    for (
      let e: unknown = error, prefix = '';
      e !== undefined;
      e = e instanceof Error ? e.cause : undefined, prefix = 'Caused by: '
    ) {
      stderr.write(`${prefix}${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    }
    return;
  }
  const message = cliMessage(error);
  const hint = exitCodeFor(error) === EXIT.internal ? '; ORACLE_DEBUG=1 prints where' : '';
  stderr.write(`oracle: ${inert(message.split('\n')[0]!)}${hint}\n`);
  if (error instanceof ProductChoiceError) stderr.write(choiceTable(error));
}

/** The candidates of a name that matched several products: key (never cut: it is copied) and name, one a line. */
function choiceTable(error: ProductChoiceError): string {
  const width = Math.max('product key'.length, ...error.candidates.map((c) => c.product_key.length));
  const rows = [
    ['product key', 'name'],
    ...error.candidates.map((c) => [
      c.product_key,
      [`${c.product_name} ${c.subtitle}`.trim(), c.set_name, c.printing ?? '']
        .filter((t) => t !== '')
        .join(' | '),
    ]),
  ];
  const more =
    error.total > error.candidates.length ? `... and ${error.total - error.candidates.length} more\n` : '';
  return `${rows.map(([key, name]) => `  ${inert(key!).padEnd(width)}  ${inert(name!)}`).join('\n')}\n${more}`;
}
