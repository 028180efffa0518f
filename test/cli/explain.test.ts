/** `oracle explain`, run as a child process over a real SQLite file. */
import { beforeAll, describe, expect, it } from 'vitest';
import { toIsoUtc } from '../../src/domain/time.js';
import { runOracle } from '../_cli.js';
import { databaseWith, testProduct } from '../_setup.js';

const HOUR = 3_600_000;
const AT_MS = Date.parse('2026-10-15T12:00:00Z');
const AT = toIsoUtc(AT_MS);
const KEY = 'pokemon-base-set-charizard-4-102';

const card = testProduct({ productKey: KEY });
/** A card with title-matched sales (matched_by) beside keyed ones alike in condition, source, time and price. */
const MATCHED_KEY = 'pokemon-base-set-blastoise-2-102';
const HOW = 'title: number 2/102 + name blastoise + set base';
const matchedCard = testProduct({
  productKey: MATCHED_KEY,
  refsourceId: '631246',
  productName: 'Blastoise',
  subtitle: '2/102 Holo',
});

/** Ungraded: 12 sales in the 24 h window around $100 and one x10 typo 3 h before AT; PSA 9: 2 sales; PSA 10: 3. */
const UNGRADED = [10_000, 10_200, 9_900, 10_100, 9_800, 10_300, 10_000, 9_950, 10_050, 10_150, 9_850, 10_000];
let db: string;
const cli = (...args: string[]) => runOracle(['--db', db, ...args]);

beforeAll(async () => {
  const row = (
    i: number,
    hours: number,
    priceMinor: number,
    grader: string,
    grade: number | null,
    source = 'ebay',
    productKey = KEY,
  ) => ({
    productKey,
    source,
    observedAt: AT_MS - hours * HOUR,
    priceMinor,
    grader,
    grade,
    externalId: `x${i}`,
  });
  db = await databaseWith(
    [card, matchedCard],
    [
      row(200, 2, 50_000, 'PSA', 10, 'ebay', MATCHED_KEY),
      { ...row(201, 2, 50_000, 'PSA', 10, 'ebay', MATCHED_KEY), matchedBy: HOW },
      row(202, 6, 52_000, 'PSA', 10, 'ebay', MATCHED_KEY),
      row(203, 2, 80_000, 'TAG', 10, 'ebay', MATCHED_KEY),
      { ...row(204, 2, 80_000, 'TAG', 10, 'ebay', MATCHED_KEY), matchedBy: HOW },
      ...UNGRADED.map((p, i) => row(i, 2 * i + 1.5, p, 'ungraded', null, i % 2 ? 'tcgplayer' : 'ebay')),
      row(100, 3, 100_000, 'ungraded', null),
      row(101, 5, 90_000, 'PSA', 9),
      row(102, 30, 95_000, 'PSA', 9),
      row(103, 4, 400_000, 'PSA', 10),
      row(104, 10, 410_000, 'PSA', 10),
      row(105, 20, 390_000, 'PSA', 10),
      // After AT: never read.
      row(106, -1, 1, 'ungraded', null),
    ],
  );
});

describe.concurrent('oracle explain', () => {
  it('--json: the price of `oracle price` at the same instant, every point read with why the typo was left out', async () => {
    const [explained, priced] = await Promise.all([
      cli('explain', KEY, '--slot', 'ungraded', '--at', AT, '--json'),
      cli('price', KEY, '--at', AT, '--json'),
    ]);
    expect(explained.stderr).toBe('');
    expect(explained.code).toBe(0);
    const body = JSON.parse(explained.stdout);
    const bundle = JSON.parse(priced.stdout);
    expect(body).toMatchObject({
      product_key: KEY,
      slot: 'ungraded',
      as_of: AT,
      window_hours: 24,
      outlier_stddevs: 2,
      id: null,
    });
    expect(body.price_minor).toBe(bundle.ungraded.price_minor);
    const own = body.points.filter((p: { condition: string }) => p.condition === 'ungraded');
    expect(own).toHaveLength(13);
    const typo = own.find((p: { price_minor: number }) => p.price_minor === 100_000);
    expect(typo).toMatchObject({
      observed_at: toIsoUtc(AT_MS - 3 * HOUR),
      source: 'ebay',
      kept: false,
      weight: 0,
    });
    expect(typo.reason).toMatch(/^outlier: robust z \+\d+\.\d\d beyond the threshold ±2/);
    expect(typo.z).toBeGreaterThan(2);
    const kept = own.filter((p: { kept: boolean }) => p.kept);
    expect(kept.map((p: { price_minor: number }) => p.price_minor).sort()).toEqual([...UNGRADED].sort());
    // Recency: a newer point weighs more; the weights of the kept points sum to 1.
    expect(kept[0].weight).toBeGreaterThan(kept.at(-1).weight);
    expect(kept.reduce((a: number, p: { weight: number }) => a + p.weight, 0)).toBeCloseTo(1, 12);
    expect(body.steps.find((s: { name: string }) => s.name === 'rounding').value_minor).toBe(
      bundle.ungraded.price_minor,
    );
  });

  it('names how a title match brought a sale in on that point alone, not on a keyed sale alike in condition, source, time and price', async () => {
    for (const slot of ['psa10', 'tag10']) {
      const result = await cli('explain', MATCHED_KEY, '--slot', slot, '--at', AT, '--json');
      expect(result.code, result.stderr).toBe(0);
      const points: { price_minor: number; matched_by?: string }[] = JSON.parse(result.stdout).points;
      const twins = points.filter((p) => p.price_minor === (slot === 'psa10' ? 50_000 : 80_000));
      expect(twins, slot).toHaveLength(2);
      expect(twins.map((p) => p.matched_by ?? 'keyed').sort(), slot).toEqual(['keyed', HOW]);
      expect(
        points.filter((p) => p.matched_by !== undefined),
        slot,
      ).toHaveLength(1);
    }
  });

  it('--refsource and the pricing parameters reach the explanation', async () => {
    const result = await cli(
      'explain',
      '--refsource',
      '631245',
      '--slot',
      'psa9',
      '--at',
      AT,
      '--window-hours',
      '6',
      '--outlier-stddevs',
      '3',
      '--json',
    );
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout);
    const bundle = JSON.parse(
      (
        await cli(
          'price',
          '--refsource',
          '631245',
          '--at',
          AT,
          '--window-hours',
          '6',
          '--outlier-stddevs',
          '3',
          '--json',
        )
      ).stdout,
    );
    expect(body).toMatchObject({ id: '631245', slot: 'psa9', window_hours: 6, outlier_stddevs: 3 });
    expect(body.price_minor).toBe(bundle.graded.PSA['9'].price_minor);
    // PSA 9 has 2 sales, one outside the 6 h window: the card model's prediction entered its price.
    expect(body.steps.map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining(['prediction', 'blend', 'clamp', 'rounding']),
    );
  });

  it('prints the points, the reasons and the steps for people', async () => {
    // --wide: each step whole on its line; in 80 columns the same text is wrapped (test/cli/terminal.test.ts).
    const result = await cli('explain', KEY, '--slot', 'ungraded', '--at', AT, '--wide');
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain(`${KEY} · ungraded · as of ${AT}`);
    expect(out).toMatch(/\$1,000\.00 +outlier/);
    expect(out).toMatch(/Left out:\n {2}ungraded 2026-10-15T09:00:00Z \$1,000\.00: outlier: robust z/);
    expect(out).toMatch(/^ *\d+\. rounding, §12: [^]* = \d+\.$/m);
  });

  /** The summary's sentences: the lines between the heading and the first blank line, unwrapped. */
  const summaryOf = (out: string) =>
    (out.split('\n\n')[0] ?? '').split('\n').slice(1).join(' ').replace(/ +/g, ' ').trim();

  it('opens with a plain summary, and no line runs past the terminal', async () => {
    const result = await cli('explain', KEY, '--slot', 'ungraded', '--at', AT);
    expect(result.stdout.split('\n')[0]).toBe(`${KEY} · ungraded · as of ${AT}`);
    // 12 sales kept (6 on each source, the newest 1.5 h old) and the x10 typo left out.
    expect(summaryOf(result.stdout)).toMatch(
      /^ungraded: \$\d{2,3}\.\d\d \(80 % interval \$[\d.]+ to \$[\d.,]+\)\. From 12 observations of its own \(6 ebay, 6 tcgplayer\), the newest 2 hours old\. Left out of its own: 1 far from the others \(outliers\)\./,
    );
    for (const line of result.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('says when a grade has no sales of its own and is estimated from the others', async () => {
    const out = (await cli('explain', KEY, '--slot', 'bgs9', '--at', AT)).stdout;
    expect(summaryOf(out)).toMatch(
      /No observation of its own counts: it is estimated from the card's other conditions \(psa9\)\. Fallback: grader_premium/,
    );
  });

  it('rejects a missing or unknown slot, a bad --at and an unknown key, naming what is wrong', async () => {
    const cases: [string[], RegExp][] = [
      [['explain', KEY], /--slot is required/],
      [
        ['explain', KEY, '--slot', 'psa11'],
        /--slot must be ungraded, or a grader and a grade 1-10 .*got "psa11"/,
      ],
      [
        ['explain', KEY, '--slot', 'psa9', '--at', '2026-02-30T00:00:00Z'],
        /--at .*February 2026 has 28 days/,
      ],
      [
        ['explain', 'pokemon-base-set-charzard-4-102', '--slot', 'psa9'],
        /did you mean "pokemon-base-set-charizard-4-102"/,
      ],
      [['explain', '--slot', 'psa9'], /either a product_key or --refsource/],
    ];
    for (const [args, message] of cases) {
      const result = await cli(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stdout).toBe('');
    }
  });
});
