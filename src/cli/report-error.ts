import { ProductChoiceError } from '../domain/errors.js';
import type { Env, Output } from './context.js';
import { cliMessage } from './error-wording.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { fitColumns } from './format/columns.js';
import { inert } from './format/inert.js';
import { outputWidth } from './format/terminal.js';

/**
 * How the CLI reports an error: one stderr line `oracle: <message>` (for a bug in oracle, with
 * how to see where it is); with ORACLE_DEBUG=1 the stack instead, and the stack of each error
 * it wraps (`cause`), where a bug really happened.
 */
export function reportError(error: unknown, { stderr, env }: { stderr: Output; env: Env }): void {
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
  if (error instanceof ProductChoiceError) {
    stderr.write(choiceReport(error, outputWidth(stderr, env)));
    return;
  }
  const message = cliMessage(error);
  const hint = exitCodeFor(error) === EXIT.internal ? '; ORACLE_DEBUG=1 prints where' : '';
  stderr.write(`oracle: ${inert(message.split('\n')[0]!)}${hint}\n`);
}

/**
 * A name that matched several products, fitted to the terminal: one short line, then the
 * candidates' keys (never cut: they are copied) and names (cut first), indented by two.
 * The keys are not repeated on the first line, where they would run past the width; the
 * service's message, with them, is what the API and `value --json` give.
 */
function choiceReport(error: ProductChoiceError, width: number): string {
  const more = error.total - error.candidates.length;
  const first = `oracle: ${inert(JSON.stringify(error.phrase))} names ${error.total} products, not one: give one of their keys\n`;
  const table = fitColumns(
    [
      {
        head: 'product key',
        cells: error.candidates.map((c) => inert(c.product_key)),
        shrink: 0,
        min: 0,
        keep: true,
      },
      {
        head: 'name',
        cells: error.candidates.map((c) =>
          inert(
            [`${c.product_name} ${c.subtitle}`.trim(), c.set_name, c.printing ?? '']
              .filter((t) => t !== '')
              .join(' | '),
          ),
        ),
        shrink: 1,
        min: 24,
      },
    ],
    width - INDENT.length,
  );
  const lines = table
    .trimEnd()
    .split('\n')
    .map((line) => `${INDENT}${line}`);
  const rest =
    more > 0
      ? `${INDENT}... and ${more} more: oracle catalog --search ${inert(shellWord(error.phrase))}\n`
      : '';
  return `${first}${lines.join('\n')}\n${rest}`;
}

const INDENT = '  ';

/** `phrase` as one shell word: bare when it is letters, digits and `-./`, else single-quoted. */
function shellWord(phrase: string): string {
  return /^[\w./-]+$/.test(phrase) ? phrase : `'${phrase.replaceAll("'", "'\\''")}'`;
}
