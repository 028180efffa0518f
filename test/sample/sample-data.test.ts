// @module-tag sqlite-only: the sample generator: no store
/**
 * The bundled sample data and its seeded generator (issue 2, item 5): determinism, coverage
 * of every condition and data shape the engine must handle, size, the committed catalog,
 * scale mode for benchmarks and the script's command line.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../sample/cli.js';
import {
  observationRows,
  planSample,
  type ExactPlan,
  type ObservationRow,
  type SamplePlan,
} from '../../sample/generate.js';
import { SAMPLE_PRODUCTS } from '../../sample/products.js';
import { catalogCsv, observationChunks, writeSample } from '../../sample/write-csv.js';
import { GRADERS, MATRIX_GRADES } from '../../src/domain/conditions.js';
import { CsvParser } from '../../src/domain/csv.js';
import { DAY_MS, HOUR_MS } from '../../src/domain/time.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const END = Date.parse('2026-11-22T05:00:00Z');

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  const parser = new CsvParser('test', (fields) => rows.push(fields));
  parser.push(text);
  parser.end();
  return rows;
}

/** A scale-mode plan (exact row counts), or a failed assertion. */
function exactPlan(plan: SamplePlan): ExactPlan {
  if (plan.mode !== 'exact') throw new Error(`expected a scale-mode plan, got ${plan.mode}`);
  return plan;
}

/** The observation CSV of a plan as lines, header excluded. */
function observationLines(plan: SamplePlan): string[] {
  const decoder = new TextDecoder();
  const text = [...observationChunks(plan)].map((chunk) => decoder.decode(chunk)).join('');
  return text.split('\n').slice(1, -1);
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'oracle-sample-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function writeTo(name: string, plan: SamplePlan, gz = true) {
  const paths = {
    catalog: join(dir, `${name}-catalog.csv`),
    observations: join(dir, `${name}-observations.csv${gz ? '.gz' : ''}`),
  };
  const rows = await writeSample(plan, paths);
  return { ...paths, rows };
}

/** The sample files of the default seed ending at END, written once for the tests that read them. */
let defaultSample: ReturnType<typeof writeTo> | undefined;
const writeDefault = () => (defaultSample ??= writeTo('a', planSample({ end: END })));

describe('the sample files', () => {
  it('are byte-identical for the same seed and end, and stay under 10 MB', async () => {
    const a = await writeDefault();
    const b = await writeTo('b', planSample({ end: END }));
    expect(readFileSync(a.observations).equals(readFileSync(b.observations))).toBe(true);
    expect(readFileSync(a.catalog).equals(readFileSync(b.catalog))).toBe(true);
    expect(statSync(a.observations).size).toBeLessThan(10 * 1024 * 1024);

    const text = gunzipSync(readFileSync(a.observations)).toString('utf8');
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([
      'product_key',
      'source',
      'observed_at',
      'price_minor',
      'grader',
      'grade',
      'external_id',
    ]);
    expect(rows.length - 1).toBe(a.rows);
    expect(rows.length - 1).toBeGreaterThan(100_000);
    expect(rows[1]![2]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('change with the seed and the end, but the catalog does not', async () => {
    const other = await writeTo('c', planSample({ end: END + DAY_MS, seed: 'another' }));
    const base = await writeDefault();
    expect(readFileSync(other.observations).equals(readFileSync(base.observations))).toBe(false);
    expect(readFileSync(other.catalog).equals(readFileSync(base.catalog))).toBe(true);
  });

  it('repeat every row of the overlap when regenerated 30 hours later, and add only the new hours', async () => {
    const later = END + 30 * HOUR_MS;
    const laterPlan = planSample({ end: later });
    const inRange = (from: number, to: number) => (line: string) => {
      const at = Date.parse(line.split(',')[2]!);
      return at >= from && at < to;
    };
    const first = gunzipSync(readFileSync((await writeDefault()).observations))
      .toString('utf8')
      .split('\n')
      .slice(1, -1);
    const second = observationLines(laterPlan);
    const overlap = first.filter(inRange(laterPlan.start, END));
    expect(overlap.length).toBeGreaterThan(200_000);
    expect(second.filter(inRange(laterPlan.start, END)).sort()).toEqual(overlap.sort());
    // The later file holds the overlap plus the 30 new hours, nothing else.
    const added = second.filter(inRange(END, later));
    expect(added.length).toBeGreaterThan(500);
    expect(overlap.length + added.length).toBe(second.length);
    const ids = [...first, ...added].map((line) => line.split(',')[6]).filter((id) => id !== '');
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('include the committed data/catalog.csv byte for byte', () => {
    const committed = readFileSync(join(ROOT, 'data', 'catalog.csv'), 'utf8');
    expect(committed).toBe(catalogCsv(planSample({ end: END })));
  });
});

describe('the catalog', () => {
  const rows = parseCsv(catalogCsv({ products: planSample({ end: END }).products }));
  const [header, ...products] = rows;
  const field = (row: string[], name: string) => row[header!.indexOf(name)]!;

  it('has the canonical header and 40 to 60 real products of every kind', () => {
    expect(header).toEqual([
      'product_key',
      'refsource_id',
      'product_name',
      'subtitle',
      'set_name',
      'image_url',
      'product_type',
      'era',
      'release_date',
    ]);
    expect(products.length).toBeGreaterThanOrEqual(40);
    expect(products.length).toBeLessThanOrEqual(60);
    const keys = products.map((p) => field(p, 'product_key'));
    expect(keys.some((k) => k.startsWith('pokemon-'))).toBe(true);
    expect(keys.some((k) => k.startsWith('mtg-'))).toBe(true);
    for (const game of ['baseball', 'basketball', 'football'])
      expect(SAMPLE_PRODUCTS.some((p) => p.game === game)).toBe(true);
    for (const type of ['single_card', 'booster_box']) {
      for (const era of ['modern', 'vintage'])
        expect(products.some((p) => field(p, 'product_type') === type && field(p, 'era') === era)).toBe(true);
    }
  });

  it('has unique readable keys, unique digit refsource ids and https image URLs', () => {
    const keys = products.map((p) => field(p, 'product_key'));
    const ids = products.map((p) => field(p, 'refsource_id'));
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of products) {
      expect(field(p, 'product_key')).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(field(p, 'refsource_id')).toMatch(/^\d{6,7}$/);
      expect(field(p, 'image_url')).toMatch(/^https:\/\//);
      expect(field(p, 'release_date')).toMatch(/^(\d{4}-\d{2}-\d{2})?$/);
    }
  });

  it('round-trips names with commas and quotes through RFC 4180 quoting', () => {
    const byKey = new Map(products.map((p) => [field(p, 'product_key'), p]));
    expect(field(byKey.get('mtg-modern-horizons-2-ragavan-nimble-pilferer-138')!, 'product_name')).toBe(
      'Ragavan, Nimble Pilferer',
    );
    expect(field(byKey.get('pokemon-evolving-skies-umbreon-vmax-215-203')!, 'subtitle')).toBe(
      '215/203 "Moonbreon" Alternate Art',
    );
    expect(field(byKey.get('mtg-arabian-nights-juzam-djinn')!, 'product_name')).toBe('Juzám Djinn');
  });

  it('marks cards issued before 2003 vintage and the rest modern', () => {
    for (const p of SAMPLE_PRODUCTS) {
      const row = products.find((r) => field(r, 'product_key') === p.key)!;
      expect(field(row, 'era')).toBe(p.year < 2003 ? 'vintage' : 'modern');
    }
  });
});

describe('the observation history', () => {
  const plan = planSample({ end: END });
  const rows: ObservationRow[] = [...observationRows(plan)];
  const sales = rows.filter((r) => r.source === 'ebay');
  const byProduct = groupBy(rows, (r) => r.productKey);

  it('spans at least 400 days up to the end, oldest first', () => {
    const first = rows[0]!.observedAt;
    const last = rows.at(-1)!.observedAt;
    expect((END - first) / DAY_MS).toBeGreaterThanOrEqual(400);
    expect(last).toBeLessThan(END);
    expect(rows.every((r, i) => i === 0 || r.observedAt >= rows[i - 1]!.observedAt)).toBe(true);
  });

  it('comes from a marketplace and two price guides with the documented id rules', () => {
    expect(new Set(rows.map((r) => r.source))).toEqual(new Set(['ebay', 'pricecharting', 'tcgplayer']));
    expect(sales.every((r) => /^ebay-\d{12}$/.test(r.externalId ?? ''))).toBe(true);
    expect(new Set(sales.map((r) => r.externalId)).size).toBe(sales.length);
    expect(rows.filter((r) => r.source !== 'ebay').every((r) => r.externalId === null)).toBe(true);
    expect(rows.every((r) => Number.isSafeInteger(r.priceMinor) && r.priceMinor > 0)).toBe(true);
  });

  it('has sales in every grader x grade 7-10 cell, ungraded, and pooled ANY quotes', () => {
    const cells = new Set(sales.map((r) => `${r.grader}${r.grade ?? ''}`));
    for (const grader of GRADERS)
      for (const grade of MATRIX_GRADES) expect(cells).toContain(`${grader}${grade}`);
    expect(cells).toContain('');
    const quoted = new Set(
      rows.filter((r) => r.source === 'pricecharting').map((r) => `${r.grader}${r.grade ?? ''}`),
    );
    expect(quoted).toEqual(new Set(['', 'ANY7', 'ANY8', 'ANY9', 'PSA10', 'BGS10', 'CGC10', 'SGC10']));
  });

  it('quotes each guided product once a day per column', () => {
    const charizard = rows.filter(
      (r) =>
        r.productKey === 'pokemon-base-set-charizard-4-102' &&
        r.source === 'pricecharting' &&
        r.grader === 'PSA',
    );
    const days = charizard.map((r) => Math.floor(r.observedAt / DAY_MS));
    expect(new Set(days).size).toBe(days.length);
    expect(days.length).toBeGreaterThanOrEqual(400);
  });

  it('prices grade 10 above 9 above 8 above 7, with PSA and BGS 10 above CGC and SGC 10', () => {
    const key = 'pokemon-evolving-skies-umbreon-vmax-215-203';
    const price = (grader: string, grade: number) =>
      median(
        sales
          .filter((r) => r.productKey === key && r.grader === grader && r.grade === grade)
          .map((r) => r.priceMinor),
      );
    expect(price('PSA', 10)).toBeGreaterThan(price('PSA', 9));
    expect(price('PSA', 9)).toBeGreaterThan(price('PSA', 8));
    expect(price('PSA', 8)).toBeGreaterThan(price('PSA', 7));
    expect(Math.min(price('PSA', 10), price('BGS', 10))).toBeGreaterThan(
      Math.max(price('CGC', 10), price('SGC', 10)),
    );
  });

  it('leaves one product without observations and keeps sparse products weeks apart', () => {
    const catalogKeys = plan.products.map((p) => p.key);
    const silent = catalogKeys.filter((k) => !byProduct.has(k));
    expect(silent).toEqual(['pokemon-corocoro-pikachu-illustrator']);

    const sparse = SAMPLE_PRODUCTS.filter((p) => p.liquidity.kind === 'sparse').map((p) => p.key);
    expect(sparse.length).toBeGreaterThanOrEqual(3);
    let staleAtEnd = 0;
    for (const key of sparse) {
      const times = byProduct.get(key)!.map((r) => r.observedAt);
      expect(times.length).toBeGreaterThanOrEqual(3);
      expect(times.length).toBeLessThan(60);
      // Sales come alone or in pairs at most a day apart, with weeks between the pairs.
      const longGaps = times.slice(1).filter((t, i) => t - times[i]! >= 13 * DAY_MS).length;
      const shortGaps = times.slice(1).filter((t, i) => t - times[i]! <= DAY_MS).length;
      expect(longGaps + shortGaps).toBe(times.length - 1);
      expect(longGaps).toBeGreaterThanOrEqual(shortGaps);
      if (END - times.at(-1)! > 7 * DAY_MS) staleAtEnd++;
    }
    expect(staleAtEnd).toBeGreaterThanOrEqual(3);
  });

  it('contains mis-keyed prices and lot sales, of the flagship card too', () => {
    const medians = new Map<string, number>();
    for (const [cell, group] of groupBy(sales, (r) => `${r.productKey}|${r.grader}|${r.grade}`)) {
      medians.set(cell, median(group.map((r) => r.priceMinor)));
    }
    const ratio = (r: ObservationRow) =>
      r.priceMinor / medians.get(`${r.productKey}|${r.grader}|${r.grade}`)!;
    const miskeyed = sales.filter((r) => ratio(r) < 0.05 || ratio(r) > 7);
    const lots = sales.filter((r) => ratio(r) > 2.5 && ratio(r) < 7);
    expect(miskeyed.length).toBeGreaterThan(20);
    expect(lots.length).toBeGreaterThan(20);
    expect(
      miskeyed.filter((r) => r.productKey === 'pokemon-base-set-charizard-4-102').length,
    ).toBeGreaterThan(0);
    expect(lots.filter((r) => r.productKey === 'pokemon-base-set-charizard-4-102').length).toBeGreaterThan(0);
  });

  it('gives most products data in the default 24 h window and liquid ones sales in the last hours', () => {
    const recent = new Set(rows.filter((r) => END - r.observedAt <= 24 * HOUR_MS).map((r) => r.productKey));
    expect(recent.size / plan.products.length).toBeGreaterThan(0.8);
    const lastSale = (key: string) =>
      Math.max(...sales.filter((r) => r.productKey === key).map((r) => r.observedAt));
    expect(END - lastSale('pokemon-151-charizard-ex-199-165')).toBeLessThan(4 * HOUR_MS);
    expect(END - lastSale('pokemon-evolving-skies-umbreon-vmax-215-203')).toBeLessThan(4 * HOUR_MS);
  });
});

describe('scale mode', () => {
  it('writes exactly the requested observations over synthetic variants, with the hot product count exact', async () => {
    const plan = exactPlan(
      planSample({ end: END, products: 300, observations: 60_000, hotProductObservations: 5_000 }),
    );
    const paths = await writeTo('scale', plan, false);
    expect(paths.rows).toBe(60_000);
    const rows = parseCsv(readFileSync(paths.observations, 'utf8')).slice(1);
    expect(rows).toHaveLength(60_000);
    expect(rows.filter((r) => r[0] === SAMPLE_PRODUCTS[0]!.key)).toHaveLength(5_000);
    expect(rows.filter((r) => r[0] === SAMPLE_PRODUCTS[0]!.key).every((r) => r[1] === 'ebay')).toBe(true);

    const catalog = parseCsv(readFileSync(paths.catalog, 'utf8')).slice(1);
    expect(catalog).toHaveLength(300);
    expect(catalog.at(-1)![0]).toMatch(/-v\d+$/);
    expect(new Set(catalog.map((r) => r[1])).size).toBe(300);
    const known = new Set(catalog.map((r) => r[0]));
    expect(rows.every((r) => known.has(r[0]!))).toBe(true);
    const ids = rows.map((r) => r[6]).filter((id) => id !== '');
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('thins the daily quotes out when the requested total is small', () => {
    const plan = exactPlan(planSample({ end: END, products: 1000, observations: 100_000 }));
    expect(plan.totalRows).toBe(100_000);
    expect(plan.guideEvery).toBeGreaterThan(1);
    expect(plan.guideRows).toBeLessThanOrEqual(60_000);
  });

  it('rejects a total smaller than the hot product alone', () => {
    expect(() => planSample({ end: END, observations: 10, hotProductObservations: 100 })).toThrow(
      /observations must be at least/,
    );
  });
});

describe('the generate-sample-data command line', () => {
  const io = () => {
    const out = { stdout: '', stderr: '' };
    return {
      out,
      io: {
        stdout: (t: string) => void (out.stdout += t),
        stderr: (t: string) => void (out.stderr += t),
        now: () => END + 1234,
      },
    };
  };

  it('floors "now" to the hour and writes gzipped sample files into --out-dir', async () => {
    const { out, io: cliIo } = io();
    const target = join(dir, 'cli-sample');
    expect(await main(['--out-dir', target, '--end', 'now', '--days', '30'], cliIo)).toBe(0);
    expect(out.stdout).toContain('to 2026-11-22T05:00:00Z');
    expect(readFileSync(join(target, 'catalog.csv'), 'utf8')).toBe(
      readFileSync(join(ROOT, 'data', 'catalog.csv'), 'utf8'),
    );
    expect(statSync(join(target, 'observations.csv.gz')).size).toBeGreaterThan(0);
  });

  it.each([
    [['--end', '2026-11-22T05:00:00'], '--end "2026-11-22T05:00:00" has no time zone'],
    [['--products', '0'], '--products must be an integer from 1'],
    [['--bogus'], "Unknown option '--bogus'"],
  ])('exits 2 with one line naming the problem for %j', async (args, message) => {
    const { out, io: cliIo } = io();
    expect(await main(['--out-dir', join(dir, 'never'), ...args], cliIo)).toBe(2);
    expect(out.stderr).toContain(message);
    expect(out.stderr.split('\n')[0]).toMatch(/^generate-sample-data: /);
  });

  it('runs as scripts/generate-sample-data.js with every flag documented in --help', async () => {
    const { stdout } = await run(process.execPath, [
      join(ROOT, 'scripts', 'generate-sample-data.js'),
      '--help',
    ]);
    for (const flag of [
      '--out-dir',
      '--end',
      '--seed',
      '--days',
      '--gzip',
      '--products',
      '--observations',
      '--hot-product-observations',
    ]) {
      expect(stdout).toContain(flag);
    }
  });
});
