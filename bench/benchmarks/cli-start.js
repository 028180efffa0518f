// @ts-check
/**
 * Issue 6.4: wall time of `oracle price <key> --json` on the sample database against `node -e 0`;
 * and (issue 13) the same command in the build layout the product does not ship, one file per
 * module, in the same rounds, so the bundle's gain is measured rather than assumed.
 */
import { sampleDatabase } from '../lib/data.js';
import { hottestProduct } from '../lib/db-query.js';
import { perModuleBin } from '../lib/layouts.js';
import { ORACLE_BIN } from '../lib/oracle.js';
import { figure } from '../lib/results.js';
import { describeScale } from '../lib/scales.js';
import { round } from '../lib/stats.js';
import { HEAVY_PACKAGES, packagesLoaded, timeAgainstNode, timeBinsAgainstNode } from '../lib/startup.js';

/**
 * @param {import('../lib/data.js').BenchContext} ctx
 * @returns {Promise<import('../lib/results.js').BenchResult>}
 */
export async function cliStartBenchmark(ctx) {
  const sample = await sampleDatabase(ctx);
  const { productKey } = hottestProduct(sample.db);
  const args = ['--db', sample.db, 'price', productKey, '--json'];
  const perModule = await perModuleBin();
  const [bundled, unbundled] = await timeBinsAgainstNode([ORACLE_BIN, perModule], args, ctx.scale.cliStart.pairs, (stdout) => {
    if (JSON.parse(stdout).product_key !== productKey) throw new Error('oracle price printed another product');
  });
  if (!bundled || !unbundled) throw new Error('no timing');
  const { commandMs, nodeMs, commandCpuMs, nodeCpuMs, samples } = bundled;
  const version = await timeAgainstNode(['--version'], ctx.scale.cliStart.pairs, () => {});
  const packages = await packagesLoaded(args);
  const heavy = packages.filter((p) => HEAVY_PACKAGES.includes(p));
  const ratio = commandMs / nodeMs;
  return {
    name: 'cli-start',
    title: '4. CLI start',
    scale: describeScale(ctx.scale),
    date: new Date().toISOString(),
    setup: [
      `\`node bin/oracle.js --db sample.db price ${productKey} --json\` on the sample database (real catalog, history ending ${sample.end}).`,
      `${samples} rounds of \`oracle price\` as built (the bundle of dist/), the same command built one file per module (as tsc emits src/; bench/.work/layouts/per-module/) and \`node -e 0\`, the order rotated round by round after a warm-up round; medians of the whole process wall time, and of its CPU time (GNU time, 10 ms resolution).`,
      `Packages the command imports: ${packages.join(', ') || 'none'}.`,
    ],
    figures: [
      figure({
        figure: '`oracle price --json` wall time',
        value: round(commandMs, 1),
        unit: 'ms',
        baseline: '`node -e 0`',
        baselineValue: round(nodeMs, 1),
        ratio: round(ratio, 2),
        ratioDefinition: 'oracle / node -e 0',
        target: 'ratio < 2',
        pass: ratio < 2,
      }),
      figure({
        figure: '`oracle price --json` CPU time (user + system)',
        value: commandCpuMs,
        unit: 'ms',
        baseline: '`node -e 0`',
        baselineValue: nodeCpuMs,
        ratioDefinition: 'oracle / node -e 0 (less sensitive to a busy machine than wall time)',
        target: null,
      }),
      figure({
        figure: '`oracle price --json` wall time, one file per module (the layout not shipped)',
        value: round(unbundled.commandMs, 1),
        unit: 'ms',
        baseline: '`node -e 0`',
        baselineValue: round(unbundled.nodeMs, 1),
        ratio: round(unbundled.commandMs / unbundled.nodeMs, 2),
        ratioDefinition: 'per-module / node -e 0 (compare with the first figure: same rounds)',
        target: null,
      }),
      figure({
        figure: '`oracle price --json` CPU time, one file per module',
        value: unbundled.commandCpuMs,
        unit: 'ms',
        baseline: '`node -e 0`',
        baselineValue: unbundled.nodeCpuMs,
        ratioDefinition: 'per-module / node -e 0',
        target: null,
      }),
      figure({
        figure: '`oracle --version` wall time (commander only)',
        value: round(version.commandMs, 1),
        unit: 'ms',
        baseline: '`node -e 0`',
        baselineValue: round(version.nodeMs, 1),
        ratio: round(version.commandMs / version.nodeMs, 2),
        ratioDefinition: 'oracle / node -e 0',
        target: null,
      }),
      figure({
        figure: 'Heavy packages imported (zod, drizzle-orm)',
        value: heavy.length,
        unit: '',
        baseline: null,
        baselineValue: null,
        ratio: null,
        ratioDefinition: null,
        target: '0',
        pass: heavy.length === 0,
      }),
    ],
    notes: heavy.length > 0 ? [`\`oracle price\` imports ${heavy.join(', ')}: lazy-load it where it is used.`] : [],
  };
}
