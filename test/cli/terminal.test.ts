// @module-tag sqlite-only: the views' widths and colours: what they show is read alike on both stores (price,
// history and catalog run on both)
/**
 * Every table view as a terminal of 60, 80 and 120 columns shows it (COLUMNS, the harness's
 * stdout being a pipe): no line wider, the keys whole; `--wide` cuts nothing; colour only when
 * asked for, and never under NO_COLOR or --no-color; estimated cells marked; sealed products
 * without a grade grid; a date axis under each chart.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { isEstimated, type Slot } from '../../src/domain/bundle.js';
import { colourOn, joinWrapped, outputWidth, wrapLine } from '../../src/cli/format/terminal.js';
import { runOracle } from '../_cli.js';
import { databaseWith, testProduct } from '../_setup.js';

const HOUR = 3_600_000;
const AS_OF = '2026-10-15T12:00:00Z';
const AS_OF_MS = Date.parse(AS_OF);
/** 59 characters: a 60-column terminal has no room beside it. */
const LONG_KEY = 'pokemon-brilliant-stars-trainer-gallery-charizard-vstar-tg03';
const BOX_KEY = 'pokemon-evolving-skies-booster-box';

let db: string;
const oracle = (args: readonly string[], env: Record<string, string> = {}, input?: string) =>
  runOracle(['--db', db, ...args], { env, now: AS_OF_MS, input });

beforeAll(async () => {
  const rows = [];
  // Twenty days of ungraded sales rising to $450 and PSA 10 sales around $123,456 (six-digit cells), nothing else graded.
  for (let h = 1; h <= 480; h += 4) {
    const observedAt = AS_OF_MS - h * HOUR;
    rows.push({
      productKey: LONG_KEY,
      source: 'ebay',
      observedAt,
      priceMinor: 45_000 - h * 20 + (h % 7) * 300,
      grader: 'ungraded',
      grade: null,
      externalId: `u${h}`,
    });
    if (h % 12 === 1)
      rows.push({
        productKey: LONG_KEY,
        source: 'ebay',
        observedAt,
        priceMinor: 12_345_678 + (h % 5) * 10_000,
        grader: 'PSA',
        grade: 10,
        externalId: `p${h}`,
      });
    if (h % 8 === 1)
      rows.push({
        productKey: BOX_KEY,
        source: 'ebay',
        observedAt,
        priceMinor: 98_000 + (h % 3) * 500,
        grader: 'ungraded',
        grade: null,
        externalId: `b${h}`,
      });
  }
  db = await databaseWith(
    [
      testProduct({
        productKey: LONG_KEY,
        refsourceId: '7001',
        productName: 'Charizard VSTAR',
        subtitle: 'TG03 Trainer Gallery Holo Rare',
        setName: 'SWSH09: Brilliant Stars Trainer Gallery',
        era: 'modern',
      }),
      testProduct({
        productKey: BOX_KEY,
        refsourceId: '7002',
        productName: 'Evolving Skies Booster Box',
        subtitle: '',
        setName: 'SWSH07: Evolving Skies',
        productType: 'booster_box',
        era: 'modern',
      }),
    ],
    rows,
  );
  expect((await oracle(['keys', 'create', '--label', 'the analyst team laptop'])).code).toBe(0);
  expect((await oracle(['calibrate'])).code).toBe(0);
});

const COLLECTION = `product_key,condition,quantity,cost_basis_minor\n${LONG_KEY},PSA 10,1,10000000\n${BOX_KEY},ungraded,3,400000\n`;

const VIEWS: readonly (readonly [string, readonly string[], boolean])[] = [
  ['price', ['price', LONG_KEY], true],
  ['catalog', ['catalog'], true],
  ['catalog --search', ['catalog', '--search', 'charizard'], true],
  ['history', ['history', LONG_KEY, '--from', '2026-10-01T00:00:00Z', '--every', '1d'], true],
  ['value', ['value', '-'], true],
  ['explain', ['explain', LONG_KEY, '--slot', 'psa10'], true],
  ['keys list', ['keys', 'list'], false],
  ['calibrate --show', ['calibrate', '--show'], false],
];

describe('every view in 60, 80 and 120 columns', () => {
  it.each([60, 80, 120])('fits %i columns (COLUMNS of a pipe) with every key whole', async (width) => {
    for (const [name, args, showsKey] of VIEWS) {
      const result = await oracle(args, { COLUMNS: String(width) }, COLLECTION);
      expect(result.code, `${name}: ${result.stderr}`).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      for (const line of lines)
        expect(line.length, `${name} at ${width}: ${line}`).toBeLessThanOrEqual(width);
      if (showsKey)
        expect(
          lines.some((l) => l.includes(LONG_KEY)),
          `${name} at ${width}`,
        ).toBe(true);
      expect(result.stdout, name).not.toContain('\x1b[');
    }
    const keys = JSON.parse((await oracle(['keys', 'list', '--json'])).stdout) as { id: string }[];
    expect((await oracle(['keys', 'list'], { COLUMNS: String(width) })).stdout).toMatch(
      new RegExp(`^${keys[0]!.id} `, 'm'),
    );
  });

  it('uses the room it is given: the matrix on one line a grader in 120 columns, two in 80', async () => {
    const wide = (await oracle(['price', LONG_KEY], { COLUMNS: '120' })).stdout;
    expect(wide).toMatch(
      /^PSA +~\$[\d,]+\.\d\d ±\d+% \(0\) +~\$[\d,]+\.\d\d ±\d+% \(0\) +~\$[\d,]+\.\d\d ±\d+% \(0\) +\$123,\d{3}\.\d\d ±\d+% \(\d+\)$/m,
    );
    const narrow = (await oracle(['price', LONG_KEY], { COLUMNS: '80' })).stdout;
    expect(narrow).toMatch(
      /^PSA +~\$[\d,]+\.\d\d +~\$[\d,]+\.\d\d +~\$[\d,]+\.\d\d +\$123,\d{3}\.\d\d\n +±\d+% \(0\) +±\d+% \(0\) +±\d+% \(0\) +±\d+% \(\d+\)$/m,
    );
    expect(narrow).toMatch(/~ an\s+estimate:\s+rests\s+on\s+the\s+card's\s+other\s+cells/);
  });

  it('--wide cuts nothing: the whole name and set beside the key, lines as long as they are', async () => {
    const table = (await oracle(['--wide', 'catalog'], { COLUMNS: '60' })).stdout;
    expect(table).not.toContain('…');
    expect(table).toMatch(
      new RegExp(
        `^${LONG_KEY} +Charizard VSTAR TG03 Trainer Gallery Holo Rare +SWSH09: Brilliant Stars Trainer Gallery `,
        'm',
      ),
    );
    const narrow = (await oracle(['catalog'], { COLUMNS: '60' })).stdout;
    expect(narrow).not.toContain('Charizard VSTAR TG03 Trainer Gallery Holo Rare');
  });
});

describe('colour', () => {
  const ESC = '\x1b[';
  it('is off in a pipe, on with FORCE_COLOR, and off again with NO_COLOR or --no-color', async () => {
    expect((await oracle(['price', LONG_KEY])).stdout).not.toContain(ESC);
    const forced = (await oracle(['price', LONG_KEY], { FORCE_COLOR: '1' })).stdout;
    // Estimated cells dim, the change over 7 days green or red.
    expect(forced).toMatch(/\x1b\[2m~\$[\d,]+\.\d\d\x1b\[22m/);
    expect(forced).toMatch(/7d \x1b\[3[12]m[+-]\$/);
    expect((await oracle(['price', LONG_KEY, '--no-color'], { FORCE_COLOR: '1' })).stdout).not.toContain(ESC);
    expect((await oracle(['price', LONG_KEY], { NO_COLOR: '1' })).stdout).not.toContain(ESC);
    // Colour codes take no columns: the coloured view fits as the plain one does.
    for (const line of forced.split('\n'))
      expect(line.replace(/\x1b\[\d+m/g, '').length).toBeLessThanOrEqual(80);
  });

  it.each([
    [{ isTTY: true }, {}, {}, true],
    [{ isTTY: true }, { NO_COLOR: '1' }, {}, false],
    [{ isTTY: true }, { NO_COLOR: '' }, {}, true],
    [{ isTTY: true }, { TERM: 'dumb' }, {}, false],
    [{ isTTY: true }, {}, { color: false }, false],
    [{ isTTY: false }, {}, {}, false],
    [{ isTTY: false }, { FORCE_COLOR: '1' }, {}, true],
    [{ isTTY: false }, { FORCE_COLOR: '0' }, {}, false],
    [{ isTTY: false }, { FORCE_COLOR: '1' }, { color: false }, false],
  ])('stream %j, environment %j, flags %j: colour %s', (out, env, flags, on) => {
    expect(colourOn(out, env, flags)).toBe(on);
  });
});

describe('width', () => {
  it.each([
    [{ isTTY: true, columns: 132 }, { COLUMNS: '60' }, 132],
    [{ isTTY: false }, { COLUMNS: '60' }, 60],
    [{ isTTY: false }, { COLUMNS: 'wide' }, 80],
    [{ isTTY: false }, { COLUMNS: '0' }, 80],
    [{ isTTY: false }, {}, 80],
  ])('stream %j, environment %j: %i columns', (out, env, width) => {
    expect(outputWidth(out, env)).toBe(width);
  });

  it('wraps prose under its label and joins parts without breaking one', () => {
    expect(
      wrapLine('window:      2026-10-14T12:00:00Z -> 2026-10-15T12:00:00Z (24 h requested)', 50),
    ).toEqual(['window:      2026-10-14T12:00:00Z ->', '             2026-10-15T12:00:00Z (24 h requested)']);
    expect(
      joinWrapped([LONG_KEY.slice(0, 40), 'Base Set', 'single_card', 'released 1999-01-09'], ' | ', 60),
    ).toEqual([`${LONG_KEY.slice(0, 40)} | Base Set`, 'single_card | released 1999-01-09']);
    // A coloured line keeps its indent too (value's dimmed interval lines).
    expect(
      wrapLine('\x1b[2m      interval 80% $11,879.89-$14,836.46 (unit $11,879.89-$14,836.46)\x1b[22m', 60),
    ).toEqual([
      '\x1b[2m      interval 80% $11,879.89-$14,836.46 (unit',
      '      $11,879.89-$14,836.46)\x1b[22m',
    ]);
  });
});

describe('the price view', () => {
  it('shows a sealed product its price alone, no grade grid', async () => {
    const out = (await oracle(['price', BOX_KEY])).stdout;
    expect(out).toMatch(/^Price \(sealed\): \$9\d\d\.\d\d/m);
    expect(out).not.toContain('grade 10');
    expect(out).not.toMatch(/^PSA /m);
  });

  it('reads meta.basis when the engine gives it, else a fallback tier or no point of its own', () => {
    const slot = (meta: Record<string, unknown>, included = 3) =>
      ({ included_points: included, meta }) as Slot;
    expect(isEstimated(slot({ basis: 'estimated' }))).toBe(true);
    expect(isEstimated(slot({ basis: 'own', oracle_fallback_tier: 'cross_check' }))).toBe(false);
    expect(isEstimated(slot({ oracle_fallback_tier: 'grade_ratio' }))).toBe(true);
    expect(isEstimated(slot({}, 0))).toBe(true);
    expect(isEstimated(slot({}))).toBe(false);
  });
});

describe('the history chart', () => {
  it('has a date axis under it: the first date under the first column, the last ending under the last', async () => {
    const out = (
      await oracle(
        ['history', LONG_KEY, '--slots', 'ungraded', '--from', '2026-10-01T12:00:00Z', '--every', '6h'],
        { COLUMNS: '80' },
      )
    ).stdout;
    const lines = out.split('\n');
    const axis = lines.findIndex((l) => /^ +2026-10-01 +2026-10-08 +2026-10-15$/.test(l));
    expect(axis).toBeGreaterThan(0);
    const lastChartRow = lines[axis - 1]!;
    expect(lines[axis]!.indexOf('2026-10-01')).toBe(lastChartRow.search(/[┤┼]/));
    const chartEnd = Math.max(...lines.slice(axis - 11, axis).map((l) => l.length)); // 11 rows: CHART_HEIGHT 10
    expect(lines[axis]!.length).toBe(chartEnd);
  });
});
