/** `oracle index publish <name> [--to]`: store the index's daily values; a changed day becomes its next version. */
import { indexPublishOptions, optionsOf } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { withService } from '../open-service.js';

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const o = optionsOf(ctx, indexPublishOptions);
  const published = await withService(
    ctx,
    (service) => service.publishIndex({ name: args[0] as string, to: o.to, now: ctx.now }),
    { write: true },
  );
  if (o.json) {
    ctx.stdout.write(`${JSON.stringify(published)}\n`);
    return 0;
  }
  const { restated } = published;
  const lines = [
    `published index ${published.name}: ${published.days} days ${published.from.slice(0, 10)} to ${published.to.slice(0, 10)}, ${published.first_published} new, ${published.unchanged} unchanged, ${restated.length} restated`,
    // Each restatement said, so no published value changes without a word.
    ...restated.map(
      (r) =>
        `  ${r.at.slice(0, 10)} version ${r.version}: ${r.value.toFixed(2)} (version ${r.previous_version}: ${r.previous_value.toFixed(2)})`,
    ),
  ];
  ctx.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
