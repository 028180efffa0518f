/** `oracle value <collection.csv>`: what a collection is worth, line by line, with its interval and gain. */
import { readFile } from 'node:fs/promises';
import { parseCollectionCsv, type RowProblem } from '../../domain/collection.js';
import { parseHistoryRequest } from '../../domain/history.js';
import { SourceUnreadableError } from '../../domain/errors.js';
import { optionsOf, valueOptions } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { renderValuation, renderValuationCsv } from '../format/valuation-view.js';
import { renderValuationHistory, renderValuationHistoryCsv } from '../format/valuation-history-view.js';
import { pricingParams, seriesParams } from '../pricing-options.js';
import { withService } from '../open-service.js';
import { inert, inertAll } from '../format/inert.js';

async function readText(path: string, ctx: CommandContext): Promise<string> {
  try {
    if (path !== '-') return await readFile(path, 'utf8');
    let text = '';
    for await (const chunk of ctx.stdin) text += String(chunk);
    return text;
  } catch (error) {
    throw new SourceUnreadableError(`cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
}

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const path = args[0] as string;
  const o = optionsOf(ctx, valueOptions);
  const params = pricingParams(o);
  if (!o.history && (o.from ?? o.to ?? o.every) !== undefined)
    throw new UsageError('--from, --to and --every go with --history');
  const request = o.history
    ? parseHistoryRequest(o, ctx.now, { from: '--from', to: '--to', every: '--every', slots: '--slots' })
    : null;
  const { rows, problems } = parseCollectionCsv(await readText(path, ctx), path);
  let valued: { problems: readonly RowProblem[]; lines: number };
  if (request === null) {
    const valuation = await withService(ctx, (service) => service.value({ rows, problems, params }));
    ctx.stdout.write(
      o.json
        ? `${JSON.stringify(valuation)}\n`
        : o.csv
          ? renderValuationCsv(valuation)
          : renderValuation(inertAll(valuation), ctx.terminal),
    );
    valued = { problems: valuation.problems, lines: valuation.lines.length };
  } else {
    const history = await withService(ctx, (service) =>
      service.valueHistory({ rows, problems, params: seriesParams(o), request }),
    );
    ctx.stdout.write(
      o.json
        ? `${JSON.stringify(history)}\n`
        : o.csv
          ? renderValuationHistoryCsv(history)
          : renderValuationHistory(inertAll(history), ctx.terminal),
    );
    valued = { problems: history.problems, lines: history.lines };
  }
  for (const p of valued.problems) ctx.stderr.write(`oracle: ${inert(`${path}:${p.line}: ${p.reason}`)}\n`);
  if (valued.problems.length === 0) return EXIT.ok;
  const total = valued.problems.length + valued.lines;
  ctx.stderr.write(
    `oracle: ${valued.problems.length} of ${total} row${total === 1 ? '' : 's'} could not be valued; the others are above\n`,
  );
  return EXIT.tooManyRejects;
}
