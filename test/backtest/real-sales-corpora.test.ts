// @module-tag sqlite-only: the backtest harness on small real corpora, each loaded into a SQLite file of its own
/**
 * The real-data backtest (issue 31, docs/backtest.md "Real sales: five corpora, walk-forward") on
 * the committed small cuts of the five corpora (test/fixtures/README.md, "Corpora"): the
 * converters, the walk-forward rule (nothing of a point's own day), every method's count, the
 * fit / held-out split, and the command line. Structural truths, not today's figures.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { convertPsa10History } from '../../backtest/corpora/psa10-history.js';
import { convertPsaRegister, psaDate } from '../../backtest/corpora/psa-register.js';
import { directorySource } from '../../backtest/corpora/source.js';
import { nextSaleCoverage } from '../../backtest/lib/held-out-seeds.js';
import { CORPUS_SPLITS, HELD_OUT_SEEDS, splitOf, TUNING_SEEDS } from '../../backtest/corpora/splits.js';
import { csv } from '../../backtest/lib/built.js';
import { runRealSales, UsageError } from '../../backtest/lib/real-sales.js';
import {
  ASKED_MIN_EARLIER,
  corpusDirs,
  readCorpus,
  residualRecord,
  scoreCorpus,
  summarizeBySplit,
  WF_METHODS,
} from '../../backtest/lib/walk-forward.js';
import { ROOT, tempDir } from '../_setup.js';

const run = promisify(execFile);
const CUTS = join(ROOT, 'test', 'fixtures', 'corpora');
const DAY = 86_400_000;
const method = (id: string) => WF_METHODS.findIndex((m) => m.id === id);

type Scored = Awaited<ReturnType<typeof scoreCorpus>>;

/** A corpus's observations as written: [product, slot, epoch ms, cents], independent of the harness. */
function rows(dir: string): [string, string, number, number][] {
  const lines = readFileSync(join(dir, 'observations.csv'), 'utf8').trim().split('\n').slice(1);
  return lines.map((line) => {
    const [product, , at, price, grader, grade] = line.split(',');
    const slot = grader === '' ? 'ungraded' : `${grader!.toLowerCase()}${grade}`;
    return [product!, slot, Date.parse(at!), Number(price)];
  });
}

function parseCsv(text: string, label: string): string[][] {
  const out: string[][] = [];
  const parser = new csv.CsvParser(label, (fields) => out.push(fields));
  parser.push(text);
  parser.end();
  return out;
}

describe('corpus converters', () => {
  it('reads M/D/YYYY dates and refuses days that do not exist', () => {
    expect(psaDate('6/19/2020')).toBe('2020-06-19');
    expect(psaDate('2/29/2020')).toBe('2020-02-29');
    expect(psaDate('2/30/2020')).toBeNull();
    expect(psaDate('2020-06-19')).toBeNull();
  });

  it('keeps the PSA 7-10 sales of each register file and counts the others by reason', () => {
    const source = directorySource(join(ROOT, 'test', 'fixtures', 'psa-sales'));
    const converted = convertPsaRegister(source, { paths: ['.'], parseCsv });
    // Noctowl: 50 x 10, 38 x 9, 16 x 8, 6 x 7 and 8 others; Gengar: 19, 15, 5 and one PSA 3.
    expect(converted.observations).toHaveLength(110 + 39);
    expect(converted.skipped).toEqual({ 'grade outside PSA 7-10 (lower, half or authentic)': 9 });
    expect(converted.catalog.map((line) => line.split(',')[7])).toEqual(['vintage', 'vintage']);
    expect(converted.observations.filter((line) => line.includes(',PSA,10,'))).toHaveLength(50 + 19);
  });
  it('keeps one sale per pokemon-psa10-history row, slotted by grader and grade, and counts the rows the source marks', () => {
    const source = directorySource(join(ROOT, 'test', 'fixtures', 'psa10-history'));
    const converted = convertPsa10History(source, { parseCsv });
    // 5 + 1 + 2 rows of 2020 and 73 of 2021-02 (one RELISTED); 2021-02 adds the alt_tx_id column.
    expect(converted.files).toBe(4);
    expect(converted.observations).toHaveLength(5 + 1 + 2 + 72);
    expect(converted.skipped).toEqual({ 'marked skipped by the source (RELISTED)': 1 });
    expect(converted.observations.join('\n')).not.toContain('4415157a-17a3-4db9-b599-2ab0f35e70a2');
    const charizard = converted.observations.filter((l) =>
      l.startsWith('04b9a372-2539-4cce-b750-c403263dd5ef,'),
    );
    expect(charizard.map((l) => l.split(',').slice(2, 7).join(','))).toEqual([
      '2021-02-15T12:00:00.000Z,18000,PSA,10,alt-b78f47e7-37a4-4cd1-9931-14b495a4f5b1',
      '2021-02-20T12:00:00.000Z,10550,PSA,9,alt-34f86fcf-2034-48c8-b566-f4ccd4129a52',
      '2021-02-20T12:00:00.000Z,20250,PSA,10,alt-1c447972-1ecf-4f88-ac09-3094133ec7d3',
    ]);
    // Rows of 2020 have no transaction id: they are named by their month and line.
    expect(converted.observations).toContainEqual(expect.stringMatching(/,alt-2020-06\.2,$/));
    expect(new Set(converted.observations.map((l) => l.split(',')[0])).size).toBe(converted.catalog.length);
  });

  it('leaves out a psa10-history row marked subject to change, a bad date, another grader and a half grade', () => {
    const header =
      'asset_id,date,price,grading_company,grade,source,sale_type,url,label,subject_to_change,skipped_reason';
    const file = [
      header,
      'a1,2021-02-20,10.00,PSA,9.0,eBay,AUCTION,u,,True,',
      'a1,2021-02-30,10.00,PSA,9.0,eBay,AUCTION,u,,False,',
      'a1,2021-02-20,10.00,TAG,9.0,eBay,AUCTION,u,,False,',
      'a1,2021-02-20,10.00,PSA,9.5,eBay,AUCTION,u,,False,',
      'a1,2021-02-20,10.00,cgc,8.0,eBay,AUCTION,u,,False,',
      '',
    ].join('\r\n');
    const source = { label: 'rows', list: () => ['history/sales/2021-02.csv'], read: () => file };
    const converted = convertPsa10History(source, { parseCsv });
    expect(converted.observations).toEqual([
      'a1,psa10-history,2021-02-20T12:00:00.000Z,1000,CGC,8,alt-2021-02.6,',
    ]);
    expect(Object.values(converted.skipped)).toEqual([1, 1, 1, 1]);
    expect(() => convertPsa10History({ ...source, read: () => 'asset,date\r\n' }, { parseCsv })).toThrow(
      /not a pokemon-psa10-history sales file/,
    );
  });
});

describe('walk-forward on the five small cuts', () => {
  const scored = new Map<string, Scored>();
  beforeAll(async () => {
    for (const dir of corpusDirs(CUTS)) {
      const corpus = readCorpus(dir);
      scored.set(corpus.name, await scoreCorpus(corpus, tempDir('oracle-wf-')));
    }
  }, 60_000);

  it('finds the five corpora, two kinds, each with its provenance', () => {
    const corpora = corpusDirs(CUTS).map(readCorpus);
    expect(corpora.map((c) => [c.name, c.kind])).toEqual([
      ['psa-register', 'sales'],
      ['psa10-history', 'sales'],
      ['tcgcsv-magic', 'guide'],
      ['tcgcsv-pokemon', 'guide'],
      ['tcgcsv-pokemon-japan', 'guide'],
    ]);
    for (const c of corpora)
      expect(c.meta).toMatchObject({
        repo: expect.any(String),
        commit: expect.stringMatching(/^[0-9a-f]{40}$/),
        licence: expect.any(String),
      });
  });

  it.each(['psa-register', 'psa10-history', 'tcgcsv-pokemon', 'tcgcsv-pokemon-japan', 'tcgcsv-magic'])(
    '%s: scores exactly the points with 2+ earlier points of their slot before their day, each method from those only',
    (name) => {
      const all = rows(join(CUTS, name));
      const result = scored.get(name)!;
      const earlier = (p: string, slot: string, t: number) =>
        all
          .filter((r) => r[0] === p && r[1] === slot && r[2] < Math.floor(t / DAY) * DAY)
          .sort((a, b) => a[2] - b[2]);
      const asked = all.filter(([p, slot, t]) => earlier(p, slot, t).length >= ASKED_MIN_EARLIER);
      expect(result.scored).toHaveLength(asked.length);
      expect(result.scored.length + result.notAsked).toBe(all.length);
      for (const s of result.scored) {
        const before = earlier(s.product, s.slot, s.t);
        expect(s.points).toBe(before.length);
        // The collectors' methods price every asked point; the last sale is the last before the day.
        expect(s.prices[method('last')]).toBe(before.at(-1)![3]);
        const last3 = before
          .slice(-3)
          .map((r) => r[3])
          .sort((a, b) => a - b);
        expect(s.prices[method('median3')]).toBe(last3.length === 3 ? last3[1] : (last3[0]! + last3[1]!) / 2);
        const cut = Math.floor(s.t / DAY) * DAY;
        const month = before.filter((r) => r[2] >= cut - 30 * DAY);
        expect(Number.isNaN(s.prices[method('median30d')]!)).toBe(month.length === 0);
      }
      const summary = summarizeBySplit(result.scored).find((x) => x.split === 'all')!;
      for (const id of ['last', 'median3', 'median5']) expect(summary.methods[method(id)]!.priced).toBe(100);
      expect(summary.methods.every((m) => m.common.n === summary.common)).toBe(true);
      expect(summary.bases.reduce((n, b) => n + b.n, 0) + summary.withheld).toBe(summary.asked);
    },
  );

  it("honours the split: every point is fit before its corpus's date and held out from it", () => {
    for (const [name, result] of scored) {
      const fitBefore = CORPUS_SPLITS[name]!.fitBefore;
      for (const s of result.scored) {
        expect(s.split).toBe(
          fitBefore !== null && s.t < Date.parse(`${fitBefore}T00:00:00Z`) ? 'fit' : 'held out',
        );
        expect(s.split).toBe(splitOf(name, s.t));
      }
      const bySplit = summarizeBySplit(result.scored);
      const parts = bySplit.filter((x) => x.split !== 'all').reduce((n, x) => n + x.asked, 0);
      expect(parts).toBe(result.scored.length);
    }
    expect(scored.get('tcgcsv-pokemon-japan')!.scored.every((s) => s.split === 'held out')).toBe(true);
    expect(new Set(scored.get('psa-register')!.scored.map((s) => s.split))).toEqual(
      new Set(['fit', 'held out']),
    );
    expect(TUNING_SEEDS.filter((seed) => (HELD_OUT_SEEDS as readonly string[]).includes(seed))).toEqual([]);
    expect(HELD_OUT_SEEDS.length).toBeGreaterThanOrEqual(3);
  });

  it.each([false, true])(
    'looks nothing ahead (calibrate: %s): a point is priced the same when every later point is removed',
    async (calibrate) => {
      const dir = join(CUTS, 'psa-register');
      const full = calibrate
        ? await scoreCorpus(readCorpus(dir), tempDir('oracle-wf-'), { calibrate })
        : scored.get('psa-register')!;
      const cut = Date.parse('2019-01-01T00:00:00Z');
      const copy = tempDir('oracle-wf-cut-');
      const kept = readFileSync(join(dir, 'observations.csv'), 'utf8')
        .split('\n')
        .filter((line, i) => i === 0 || (line !== '' && Date.parse(line.split(',')[2]!) < cut));
      writeFileSync(join(copy, 'observations.csv'), `${kept.join('\n')}\n`);
      writeFileSync(join(copy, 'catalog.csv'), readFileSync(join(dir, 'catalog.csv')));
      writeFileSync(join(copy, 'corpus.json'), readFileSync(join(dir, 'corpus.json')));
      const truncated = await scoreCorpus(readCorpus(copy), tempDir('oracle-wf-'), { calibrate });
      expect(truncated.calibrated === null).toBe(!calibrate);
      const before = full.scored.filter((s) => s.t < cut);
      expect(before.length).toBeGreaterThan(20);
      expect(truncated.scored.map((s) => [s.product, s.slot, s.t, s.prices, s.low, s.high])).toEqual(
        before.map((s) => [s.product, s.slot, s.t, s.prices, s.low, s.high]),
      );
    },
    30_000,
  );

  it('calibrates only a corpus with a fit span, and only on it', async () => {
    const japan = await scoreCorpus(readCorpus(join(CUTS, 'tcgcsv-pokemon-japan')), tempDir('oracle-wf-'), {
      calibrate: true,
    });
    expect(japan.calibrated).toBeNull();
    expect(japan.scored.map((s) => s.prices)).toEqual(
      scored.get('tcgcsv-pokemon-japan')!.scored.map((s) => s.prices),
    );
  });

  it('writes a residual record with the prediction, its interval, basis, age, points and the realised price', () => {
    const s = scored.get('psa-register')!.scored.find((x) => !Number.isNaN(x.prices[0]!))!;
    const record = residualRecord('psa-register', 'sales', s);
    expect(record).toMatchObject({
      corpus: 'psa-register',
      kind: 'sales',
      split: s.split,
      realised_minor: s.sale,
      price_minor: s.prices[0],
      basis: expect.stringMatching(/^(own|estimated)$/),
      points: s.points,
      newest_age_days: expect.any(Number),
    });
    expect(record.newest_age_days).toBeGreaterThan(0);
    expect(Object.keys(record.methods)).toEqual(['last', 'median3', 'median5', 'median30d']);
  });
});

describe('npm run backtest -- --real-sales', () => {
  const backtest = (args: string[]) => run(process.execPath, [join(ROOT, 'backtest', 'run.js'), ...args]);

  it('rejects a path that does not exist, and a corpus that is not there, with exit 2', async () => {
    await expect(backtest(['--real-sales', join(CUTS, 'nope')])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('no such file or directory'),
    });
    const options = { path: CUTS, out: null, residuals: null, keepDb: null, calibrate: false, log: () => {} };
    await expect(runRealSales({ ...options, corpora: ['nope'] })).rejects.toThrow(UsageError);
    await expect(runRealSales({ ...options, corpora: ['nope'] })).rejects.toThrow(/--corpus nope: not under/);
  });

  it('prints fit and held-out tables, writes the JSON and one residual line per scored point', async () => {
    const out = tempDir('oracle-wf-out-');
    mkdirSync(out, { recursive: true });
    const residuals = join(out, 'r', 'residuals.ndjson');
    const { stdout } = await backtest([
      '--real-sales',
      CUTS,
      '--corpus',
      'psa-register',
      '--out',
      out,
      '--residuals',
      residuals,
    ]);
    expect(stdout).toContain('### psa-register');
    expect(stdout).toMatch(/\| fit \| ours \|/);
    expect(stdout).toMatch(/\| held out \| ours \|/);
    const json = JSON.parse(readFileSync(join(out, 'real-sales.json'), 'utf8'));
    expect(json.corpora.map((c: { corpus: { name: string } }) => c.corpus.name)).toEqual(['psa-register']);
    const lines = readFileSync(residuals, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(scoredCount(json));
  }, 30_000);
});

/** Points scored in a real-sales.json (its "all" split). */
function scoredCount(json: { corpora: { splits: { split: string; asked: number }[] }[] }): number {
  return json.corpora.reduce((n, c) => n + c.splits.find((s) => s.split === 'all')!.asked, 0);
}

describe('held-out seeds: the coverage of the next sale', () => {
  it("counts an interval as holding when the cell's first sale at or after the instant lies in it, skipping quotes", () => {
    const series = {
      t: Float64Array.from([10, 20, 30, 40]),
      price: Float64Array.from([100, 500, 120, 300]),
      source: Uint8Array.from([0, 1, 0, 0]), // the 500 is a quote
    };
    const market = { products: [{ plan: { scenario: 'a' }, cells: [series] }] };
    const scores = {
      instants: [15, 35, 45],
      rows: {
        length: 3,
        product: Int32Array.from([0, 0, 0]),
        instant: Int32Array.from([0, 1, 2]),
        cell: Uint8Array.from([0, 0, 0]),
        low: Float64Array.from([110, 90, 90]),
        high: Float64Array.from([130, 110, 110]),
      },
    };
    // Instant 15: next sale 120 (the quote skipped), held; 35: next sale 300, not held; 45: no later sale.
    const coverage = nextSaleCoverage(market as never, scores as never);
    expect(coverage).toEqual({ overall: 50, n: 2, scenarios: [{ id: 'a', value: 50, n: 2 }] });
  });
});
