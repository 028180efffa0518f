// @ts-check
/**
 * Issue 6.4: wall time of `oracle price <key> --json` on the sample database against `node -e 0`;
 * and (issue 13) the same command in the build layouts the product does not ship (bench/lib/layouts.js),
 * in the same rounds, so the shipped layout's gain is measured rather than assumed.
 */
import { sampleDatabase } from '../lib/data.js';
import { hottestProduct } from '../lib/db-query.js';
import { esmChunksBin, noCodeCacheBin, perModuleBin } from '../lib/layouts.js';
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
  const layouts = [
    {
      name: 'no code cache',
      what: 'the same bundle compiled at every start, without its code cache',
      bin: noCodeCacheBin(),
    },
    {
      name: 'ES module chunks',
      what: 'ES modules with code splitting, each command a chunk (dist/ before the code cache)',
      bin: await esmChunksBin(),
    },
    {
      name: 'one file per module',
      what: 'one ES module per source file, as tsc emits src/',
      bin: await perModuleBin(),
    },
  ];
  const [shipped, ...others] = await timeBinsAgainstNode(
    [ORACLE_BIN, ...layouts.map((l) => l.bin)],
    args,
    ctx.scale.cliStart.pairs,
    (stdout) => {
      if (JSON.parse(stdout).product_key !== productKey)
        throw new Error('oracle price printed another product');
    },
  );
  if (!shipped || others.length !== layouts.length) throw new Error('no timing');
  const { commandMs, nodeMs, commandCpuMs, nodeCpuMs, samples } = shipped;
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
      `${samples} rounds of \`oracle price\` as built (dist/: one CommonJS bundle compiled from the V8 code cache the build saved), the same command in three layouts not shipped (bench/.work/layouts/: ${layouts.map((l) => `${l.name}, ${l.what}`).join('; ')}) and \`node -e 0\`, the order rotated round by round after a warm-up round; medians of the whole process wall time, and of its CPU time (GNU time, 10 ms resolution).`,
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
        ratioDefinition: 'oracle / node -e 0 (next goal: < 1.3)',
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
      ...layouts.flatMap((layout, i) => {
        const timing = /** @type {import('../lib/startup.js').Timing} */ (others[i]);
        return [
          figure({
            figure: `\`oracle price --json\` wall time, ${layout.name} (not shipped)`,
            value: round(timing.commandMs, 1),
            unit: 'ms',
            baseline: '`node -e 0`',
            baselineValue: round(timing.nodeMs, 1),
            ratio: round(timing.commandMs / timing.nodeMs, 2),
            ratioDefinition: `${layout.name} / node -e 0 (compare with the first figure: same rounds)`,
            target: null,
          }),
          figure({
            figure: `\`oracle price --json\` CPU time, ${layout.name}`,
            value: timing.commandCpuMs,
            unit: 'ms',
            baseline: '`node -e 0`',
            baselineValue: timing.nodeCpuMs,
            ratioDefinition: `${layout.name} / node -e 0`,
            target: null,
          }),
        ];
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
    notes:
      heavy.length > 0
        ? [`\`oracle price\` imports ${heavy.join(', ')}: lazy-load it where it is used.`]
        : [],
  };
}
