/** `oracle value <collection.csv>`: what a collection is worth, line by line, with its interval and gain. */
import { readFile } from 'node:fs/promises';
import { parseCollectionCsv } from '../../domain/collection.js';
import { SourceUnreadableError } from '../../domain/errors.js';
import { optionsOf, valueOptions } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { outputWidth } from '../format/columns.js';
import { renderValuation, renderValuationCsv } from '../format/valuation-view.js';
import { pricingParams } from '../pricing-options.js';
import { withService } from '../service.js';
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
  const { rows, problems } = parseCollectionCsv(await readText(path, ctx), path);
  const valuation = await withService(ctx, (service) => service.value(rows, problems, params));
  ctx.stdout.write(
    o.json ? `${JSON.stringify(valuation)}\n` : o.csv ? renderValuationCsv(valuation) : renderValuation(inertAll(valuation), outputWidth(ctx.stdout)),
  );
  for (const p of valuation.problems) ctx.stderr.write(`oracle: ${inert(`${path}:${p.line}: ${p.reason}`)}\n`);
  if (valuation.problems.length === 0) return EXIT.ok;
  const total = valuation.problems.length + valuation.lines.length;
  ctx.stderr.write(`oracle: ${valuation.problems.length} of ${total} row${total === 1 ? '' : 's'} could not be valued; the others are above\n`);
  return EXIT.tooManyRejects;
}
