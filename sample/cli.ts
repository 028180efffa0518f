/**
 * Command line of scripts/generate-sample-data.js: parses flags, plans a run, writes the
 * catalog and the observation history. `main` returns the exit code (0, 1 failure, 2 usage).
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { InvalidParameterError } from '../src/domain/errors.js';
import { integerInRange, readInput } from '../src/domain/input.js';
import { HOUR_MS, parseInstant, toIsoUtc, toUtcDate } from '../src/domain/time.js';
import { HISTORY_EPOCH } from './feed-model.js';
import { DEFAULT_DAYS, DEFAULT_SEED, planSample, type SampleOptions } from './generate.js';
import { SAMPLE_PRODUCTS } from './products.js';
import { writeSample } from './write-csv.js';

export const HELP = `Usage: node scripts/generate-sample-data.js [options]

Writes the bundled sample data: <out-dir>/catalog.csv (the real products, byte-identical
on every run) and a deterministic observation history ending at --end. Same seed, same
--end and same options give byte-identical files.

Sample (no scale flags): ${SAMPLE_PRODUCTS.length} real products, ${DEFAULT_DAYS} days of eBay sold listings, daily
PriceCharting quotes and TCGplayer market prices, written to observations.csv.gz.
The sample is a function of absolute time (days counted from ${toUtcDate(HISTORY_EPOCH)}, its
earliest start): a later --end repeats every row of the overlapping period byte for
byte and only adds rows, so re-ingesting it adds only the hours that passed.

Options:
  --out-dir <dir>       output directory (default: the package's data/ directory)
  --end <time|now>      end of the history, ISO-8601 with Z or an offset, or "now"
                        (default: now, floored to the start of the current UTC hour,
                        so two runs within the same hour write the same files)
  --seed <text>         seed of every random choice (default: ${DEFAULT_SEED})
  --days <n>            whole UTC days of history before the day of --end (default: ${DEFAULT_DAYS})
  --gzip                gzip observations.csv (always on for the sample)
  -h, --help            print this help

Scale mode (benchmarks); any of these writes plain observations.csv unless --gzip.
--observations or --hot-product-observations plan exact row counts from --end, so
their rows are NOT stable across different --end values (--products alone keeps the
sample's time-stable model):
  --products <n>        number of products: the real catalog first, then synthetic
                        variants of its liquid products keyed <product_key>-v<n>
  --observations <n>    exact number of observation rows; daily guide quotes take at
                        most 60% of them and thin out to every k days to fit
  --hot-product-observations <n>
                        the first product (${SAMPLE_PRODUCTS[0]!.key}) gets exactly n
                        eBay sales spread over the history, and no other feed

Example: node scripts/generate-sample-data.js --out-dir /tmp/bench --end 2026-11-22T00:00:00Z \\
           --products 10000 --observations 10000000 --hot-product-observations 100000
`;

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The clock, read once for `--end now`. */
  now: () => number;
}

const defaultIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  now: () => Date.now(),
};

function optionalInt(name: string, raw: string | undefined, max: number, min = 1): number | undefined {
  return raw === undefined ? undefined : readInput(integerInRange({ min, max }), raw, name);
}

function parseEnd(raw: string | undefined, now: () => number): number {
  if (raw === undefined || raw === 'now') return Math.floor(now() / HOUR_MS) * HOUR_MS;
  const ms = parseInstant(raw);
  if (typeof ms === 'string') throw new InvalidParameterError('--end', `--end ${ms}`);
  return Math.floor(ms / 1000) * 1000;
}

/**
 * Runs the generator with command-line arguments (without node and script); returns the exit
 * code. `defaultOutDir` is where files go without --out-dir: the script passes the package's
 * data/, which it knows from its own location (this module runs from source and from a bundle).
 */
export async function main(
  args: readonly string[],
  io: CliIo = defaultIo,
  defaultOutDir = 'data',
): Promise<number> {
  let options: SampleOptions;
  let outDir: string;
  let gzip: boolean;
  try {
    const { values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        'out-dir': { type: 'string' },
        end: { type: 'string' },
        seed: { type: 'string' },
        days: { type: 'string' },
        products: { type: 'string' },
        observations: { type: 'string' },
        'hot-product-observations': { type: 'string' },
        gzip: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      io.stdout(HELP);
      return 0;
    }
    options = {
      end: parseEnd(values.end, io.now),
      seed: values.seed ?? DEFAULT_SEED,
      days: optionalInt('--days', values.days, 36_500) ?? DEFAULT_DAYS,
      products: optionalInt('--products', values.products, 10_000_000),
      observations: optionalInt('--observations', values.observations, 1e12, 0),
      hotProductObservations: optionalInt(
        '--hot-product-observations',
        values['hot-product-observations'],
        1e12,
      ),
    };
    const scale = [options.products, options.observations, options.hotProductObservations].some(
      (v) => v !== undefined,
    );
    gzip = !scale || values.gzip === true;
    outDir = resolve(values['out-dir'] ?? defaultOutDir);
  } catch (error) {
    io.stderr(
      `generate-sample-data: ${error instanceof Error ? error.message : String(error)}\n(run with --help for usage)\n`,
    );
    return 2;
  }

  try {
    const started = performance.now();
    const plan = planSample(options);
    mkdirSync(outDir, { recursive: true });
    const paths = {
      catalog: join(outDir, 'catalog.csv'),
      observations: join(outDir, gzip ? 'observations.csv.gz' : 'observations.csv'),
    };
    const rows = await writeSample(plan, paths);
    const seconds = (performance.now() - started) / 1000;
    io.stdout(
      `wrote ${paths.catalog} (${plan.products.length} products) and ${paths.observations} ` +
        `(${rows} observations from ${toIsoUtc(plan.start)} to ${toIsoUtc(plan.end)}) in ${seconds.toFixed(1)} s\n`,
    );
    return 0;
  } catch (error) {
    if (process.env.ORACLE_DEBUG === '1')
      io.stderr(`${error instanceof Error ? error.stack : String(error)}\n`);
    io.stderr(`generate-sample-data: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof RangeError ? 2 : 1;
  }
}
