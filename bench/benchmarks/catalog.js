// @ts-check
/** Issue 6.5: `oracle catalog --json` over the big pricing database, under 200 ms. */
import { loadedDatabase } from '../lib/data.js';
import { hottestProduct } from '../lib/db-query.js';
import { figure } from '../lib/results.js';
import { describeScale } from '../lib/scales.js';
import { round } from '../lib/stats.js';
import { HEAVY_PACKAGES, packagesLoaded, timeAgainstNode } from '../lib/startup.js';

/**
 * @param {import('../lib/data.js').BenchContext} ctx
 * @returns {Promise<import('../lib/results.js').BenchResult>}
 */
export async function catalogBenchmark(ctx) {
  const shape = ctx.scale.pricing.big;
  const built = await loadedDatabase(ctx, shape);
  const { products } = hottestProduct(built.db);
  const args = ['--db', built.db, 'catalog', '--json'];
  let bytes = 0;
  const { commandMs, nodeMs, commandCpuMs, nodeCpuMs, samples } = await timeAgainstNode(
    args,
    ctx.scale.catalog.runs,
    (stdout) => {
      bytes = stdout.length;
      const total = JSON.parse(stdout).total;
      if (total !== products) throw new Error(`oracle catalog listed ${total} of ${products} products`);
    },
  );
  const heavy = (await packagesLoaded(args)).filter((p) => HEAVY_PACKAGES.includes(p));
  return {
    name: 'catalog',
    title: '5. Catalog',
    scale: describeScale(ctx.scale),
    date: new Date().toISOString(),
    setup: [
      `\`node bin/oracle.js --db big.db catalog --json\` over ${products.toLocaleString('en-US')} products and ${shape.observations.toLocaleString('en-US')} observations (the pricing benchmark's big database); output ${(bytes / 1024).toFixed(0)} KiB.`,
      `${samples} runs alternated with \`node -e 0\` after a warm-up pair; medians of the whole process wall time, and of its CPU time (GNU time, 10 ms resolution).`,
    ],
    figures: [
      figure({
        figure: '`oracle catalog --json` wall time',
        value: round(commandMs, 1),
        unit: 'ms',
        baseline: '`node -e 0`',
        baselineValue: round(nodeMs, 1),
        ratio: round(commandMs / nodeMs, 2),
        ratioDefinition: 'oracle / node -e 0',
        target: '< 200 ms',
        pass: commandMs < 200,
      }),
      figure({
        figure: '`oracle catalog --json` CPU time (user + system)',
        value: commandCpuMs,
        unit: 'ms',
        baseline: '`node -e 0`',
        baselineValue: nodeCpuMs,
        ratioDefinition: 'oracle / node -e 0 (less sensitive to a busy machine than wall time)',
        target: null,
      }),
    ],
    notes: heavy.length > 0 ? [`\`oracle catalog\` imports ${heavy.join(', ')}.`] : [],
  };
}
