/** `oracle calibrate`: fits ratios from a real database, stores them with their date, shows them, and pricing uses them. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { PricingBundle } from '../../src/domain/bundle.js';
import type { CalibrationReport } from '../../src/service/calibration.js';
import { openStore } from '../../src/store/open-store.js';
import type { ResolvedObservation } from '../../src/store/store.js';
import { runOracle } from '../_cli.js';
import { tempDir } from '../_setup.js';
import { newTestDatabase } from '../_pg.js';
import { writeObservations, writeProducts } from '../_store.js';

const HOUR = 3_600_000;
const FIT_AT = '2026-10-15T00:00:00Z';
const FIT_AT_MS = Date.parse(FIT_AT);
const PRODUCTS = 12;

let db: string;

/**
 * Twelve modern cards at different price levels, each trading ungraded, PSA 10 and BGS 10 every
 * 3 hours for 4 days; BGS 10 always 1.4x PSA 10 and ungraded 0.2x (the priors say 1.1x and 0.15x).
 * One more card, `probe`, trades only PSA 10.
 */
beforeAll(async () => {
  db = await newTestDatabase(tempDir());
  const store = await openStore(db, { create: true });
  const product = (key: string) => ({
    productKey: key,
    refsourceId: null,
    productName: key,
    subtitle: '',
    setName: 'Test Set',
    imageUrl: '',
    productType: 'single_card' as const,
    era: 'modern' as const,
    releaseDate: null,
    tcgplayerId: null,
  });
  await writeProducts(store, [
    ...Array.from({ length: PRODUCTS }, (_, i) => product(`card-${i}`)),
    product('probe'),
  ]);
  const rows: ResolvedObservation[] = [];
  for (let i = 0; i <= PRODUCTS; i++) {
    const p = (await store.products.findByKey(i === PRODUCTS ? 'probe' : `card-${i}`))!;
    const psa10 = 10_000 * (i + 1);
    for (let h = 1; h <= 96; h += 3) {
      const observedAt = FIT_AT_MS - h * HOUR;
      const at = (grader: string, grade: number | null, priceMinor: number) =>
        rows.push({
          productId: p.id,
          productKey: p.productKey,
          source: 'ebay',
          observedAt,
          priceMinor: Math.round(priceMinor),
          grader,
          grade,
          externalId: `${p.productKey}-${grader}${grade}-${h}`,
        });
      at('PSA', 10, psa10);
      if (i === PRODUCTS) continue;
      at('BGS', 10, psa10 * 1.4);
      at('ungraded', null, psa10 * 0.2);
    }
  }
  await writeObservations(store, rows);
  await store.close();
});

async function cli(args: string[]) {
  const result = await runOracle(['--db', db, ...args]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

const bgs10 = async (at: string) =>
  (JSON.parse(await cli(['price', 'probe', '--at', at, '--json'])) as PricingBundle).graded.BGS['10']
    .price_minor!;

describe('oracle calibrate', () => {
  it('has nothing to show before a fit, and pricing uses the priors', async () => {
    expect(await cli(['calibrate', '--show', '--at', FIT_AT])).toMatch(
      /no calibration stored for that instant/,
    );
    expect(await cli(['calibrate', '--show', '--at', FIT_AT, '--json'])).toBe('null\n');
    // Prior: BGS 10 = 1.1 x PSA 10 (the probe's PSA 10 is 130000).
    expect(await bgs10(FIT_AT)).toBe(143000);
  });

  it('fits the ratios from the observations before --at, stores them with that date and prints them', async () => {
    const report = JSON.parse(await cli(['calibrate', '--at', FIT_AT, '--json'])) as CalibrationReport;
    expect(report.as_of).toBe(FIT_AT);
    expect(report.products.modern).toBe(PRODUCTS + 1);
    const row = (condition: string) => report.eras.modern.find((r) => r.condition === condition)!;
    // Each fit shrunk toward its prior by its 12 products (methodology §7.3): weight 12 / (12 + 4).
    const shrunk = (fitted: number, prior: number) =>
      Number(Math.exp(0.75 * Math.log(fitted) + 0.25 * Math.log(prior)).toFixed(4));
    expect(row('bgs10')).toMatchObject({
      ratio_vs_psa10: shrunk(1.4, 1.1),
      products: PRODUCTS,
      source: 'fitted',
    });
    expect(row('ungraded')).toMatchObject({
      ratio_vs_psa10: shrunk(0.2, 0.15),
      products: PRODUCTS,
      source: 'fitted',
    });
    // The probe has PSA 10 alone: it says nothing about a ratio, so the fit leaves it out.
    expect(row('psa10')).toMatchObject({ ratio_vs_psa10: 1, products: PRODUCTS });
    // CGC 10 never traded: the prior holds.
    expect(row('cgc10')).toMatchObject({ ratio_vs_psa10: 0.6, products: 0, source: 'prior' });
    const table = await cli(['calibrate', '--show', '--at', FIT_AT]);
    expect(table).toContain(`calibration fitted from observations before ${FIT_AT}`);
    expect(table).toMatch(/^bgs10 +1\.3181 +\d\.\d{3} +\d+ +fitted$/m);
  });

  it('prices with the newest fit made as of the instant priced, never a later one', async () => {
    // The probe's BGS 10, without own sales, now follows the fitted 1.4x shrunk toward the prior's 1.1x: 1.3181x.
    expect(await bgs10(FIT_AT)).toBe(171351);
    // An hour before the fit's date, no calibration existed yet.
    expect(await bgs10('2026-10-14T23:00:00Z')).toBe(143000);
  });

  it('history prices each instant with the calibration of that instant, as price does', async () => {
    const args = [
      'history',
      'probe',
      '--slots',
      'bgs10',
      '--from',
      '2026-10-14T23:00:00Z',
      '--to',
      FIT_AT,
      '--every',
      '1h',
      '--json',
    ];
    const history = JSON.parse(await cli(args)) as {
      points: { at: string; bgs10: { price_minor: number } }[];
    };
    expect(history.points.map((p) => [p.at, p.bgs10.price_minor])).toEqual([
      ['2026-10-14T23:00:00Z', 143000],
      [FIT_AT, 171351],
    ]);
  });
});
