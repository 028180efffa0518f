/**
 * `oracle demo`: the sample data for someone who installed oracle and has no clone. Generates
 * the seeded sample history (sample/, bundled with this command only) up to the current hour in
 * a temporary folder, ingests it into the command's database (idempotent: a rerun adds only the
 * hours that passed), calibrates on it, prices the flagship card and names what to try next.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OUTLIER_STDDEVS, WINDOW_HOURS } from '../../domain/bundle.js';
import { DAY_MS, HOUR_MS, toIsoUtc, toUtcDate } from '../../domain/time.js';
import type { Oracle } from '../../service/oracle.js';
import { describeLocation } from '../../store/location.js';
import type { CommandContext } from '../context.js';
import { EXIT, exitCodeFor, worseExit } from '../exit-codes.js';
import { printBundle } from '../format/print-bundle.js';
import { inertAll } from '../format/inert.js';
import { reportError } from '../report-error.js';
import { withService } from '../open-service.js';
import { summaryLines } from './ingest.js';

/** The card the demo prices, and the README's tour starts from. */
export const DEMO_PRODUCT = 'pokemon-base-set-charizard-4-102';

export async function run(_args: unknown[], ctx: CommandContext): Promise<number> {
  // The generator is imported here, so only this command's run loads it (scripts/build.js).
  const [{ planSample }, { writeSample }] = await Promise.all([
    import('../../../sample/generate.js'),
    import('../../../sample/write-csv.js'),
  ]);
  // The history ends at the start of the current hour, as `npm run sample` does by default.
  const end = Math.floor(ctx.now / HOUR_MS) * HOUR_MS;
  const plan = planSample({ end });
  const dir = mkdtempSync(join(tmpdir(), 'oracle-demo-'));
  let code: number = EXIT.ok;
  try {
    const files = { catalog: join(dir, 'catalog.csv'), observations: join(dir, 'observations.csv.gz') };
    const rows = await writeSample(plan, files);
    ctx.stdout.write(
      `Sample: ${plan.products.length} products, ${rows.toLocaleString('en-US')} observations from ` +
        `${toIsoUtc(plan.start)} to ${toIsoUtc(end)}\nDatabase: ${describeLocation(ctx.dbPath)}\n`,
    );
    const startedAt = Date.now();
    await withService(
      ctx,
      async (service) => {
        await service.ingestAll({
          sources: [files.catalog, files.observations],
          maxRejects: 0,
          runAt: ctx.now,
          clock: () => ctx.now + (Date.now() - startedAt),
          stdin: ctx.stdin,
          onResult: (result) => {
            ctx.stdout.write(`${summaryLines(result, ctx.terminal.width)}\n`);
            if (result.failure !== null) {
              reportError(result.failure, ctx);
              code = worseExit(code, exitCodeFor(result.failure));
            }
          },
        });
        if (code !== EXIT.ok) return;
        const calibration = await service.calibrate({ asOf: ctx.now, now: ctx.now });
        ctx.stdout.write(`calibrated the grade ratios on the history before ${calibration.as_of}\n\n`);
        const bundle = await service.price({
          ref: { productKey: DEMO_PRODUCT },
          query: { windowHours: WINDOW_HOURS.default, outlierStddevs: OUTLIER_STDDEVS.default },
          now: ctx.now,
        });
        printBundle(inertAll(bundle), false, ctx.stdout, ctx.terminal);
        await addDemoIndexes(service, ctx.now);
      },
      { create: true },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (code === EXIT.ok) ctx.stdout.write(nextSteps());
  return code;
}

/**
 * The sample's market indexes (docs/indexes.md), based a year before the first demo: vintage
 * PSA 10, modern ungraded, sealed. A rerun keeps the ones there (a definition is never edited).
 */
async function addDemoIndexes(service: Oracle, now: number): Promise<void> {
  const taken = new Set((await service.indexes()).map((i) => i.name));
  const baseDate = toUtcDate(now - 365 * DAY_MS);
  const demo = [
    { name: 'vintage-psa10', label: 'Vintage PSA 10', era: 'vintage', slot: 'psa10' },
    { name: 'modern-ungraded', label: 'Modern ungraded', era: 'modern', slot: 'ungraded' },
    { name: 'sealed', label: 'Sealed booster boxes', productType: 'booster_box', slot: 'ungraded' },
  ];
  for (const definition of demo)
    if (!taken.has(definition.name)) await service.addIndex({ definition: { ...definition, baseDate }, now });
}

/** What to try next, each command with why. */
function nextSteps(): string {
  const next = [
    ['find a card (typos forgiven)', 'oracle catalog --search "charzard 4/102"'],
    ['why that price', `oracle explain ${DEMO_PRODUCT} --slot psa10`],
    ['its last 90 days', `oracle history ${DEMO_PRODUCT}`],
    ['how vintage PSA 10s moved (a market index)', 'oracle index show vintage-psa10'],
    ['the same prices for an AI assistant', 'oracle mcp   (docs/mcp.md)'],
  ];
  return `\nWorth trying next:\n${next.map(([why, command]) => `  # ${why}\n  ${command}\n`).join('')}`;
}
