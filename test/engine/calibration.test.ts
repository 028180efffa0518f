// @module-tag sqlite-only: the pure engine: no store
/** Calibration that cannot make things worse (docs/methodology.md §7.3, issue 31 item 5). */
import { describe, expect, it } from 'vitest';
import type { PricePoint } from '../../src/domain/observation.js';
import { MATRIX_GRADES, PRICED_CONDITIONS } from '../../src/domain/conditions.js';
import {
  PRIOR_DISPERSION,
  PRIOR_PAIR_DISPERSION,
  calibrationFor,
  pairKey,
  type CalibratedEra,
  type Calibration,
} from '../../src/engine/calibration.js';
import { computeBundle } from '../../src/engine/index.js';
import { AS_OF, params, product, pt } from './fixtures.js';

const N = PRICED_CONDITIONS.length;
const at = (condition: string) => PRICED_CONDITIONS.indexOf(condition);

/** A calibration of the modern era with these fitted cells (ratio to PSA 10, products), spread 0.1. */
function calibration(
  cells: Record<string, [number, number]>,
  pairs: CalibratedEra['pairs'] = {},
): Calibration {
  const fitted: CalibratedEra = { cells: {}, pairs };
  for (const [condition, [ratio, products]] of Object.entries(cells))
    fitted.cells[condition] = { logRatio: Math.log(ratio), dispersion: 0.1, products };
  return { asOf: AS_OF - 1, eras: { modern: fitted, vintage: { cells: {}, pairs: {} } } };
}

const ratio = (cal: Calibration, condition: string) =>
  Math.exp(calibrationFor(cal, 'modern').logRatio[at(condition)]!);

describe('calibration', () => {
  it('keeps a grader seen on 3 cards near its place on the fitted PSA ladder, never at twice PSA', () => {
    // PSA 9 fitted at 0.2 of PSA 10 on 40 cards; CGC 9's 3 cards say 0.4, twice PSA 9.
    const cal = calibration({ psa9: [0.2, 40], psa10: [1, 40], cgc9: [0.4, 3] });
    const cgcOverPsa = ratio(cal, 'cgc9') / ratio(cal, 'psa9');
    expect(cgcOverPsa).toBeGreaterThan(1);
    expect(cgcOverPsa).toBeLessThan(1.4);
    // SGC 9, never seen: exactly PSA 9's fitted ratio (the prior premium of grade 9 is 1).
    expect(ratio(cal, 'sgc9')).toBeCloseTo(ratio(cal, 'psa9'), 12);
  });

  it('shrinks a fit toward its prior by the products it rests on', () => {
    const few = ratio(calibration({ psa9: [0.9, 2] }), 'psa9');
    const many = ratio(calibration({ psa9: [0.9, 200] }), 'psa9');
    expect(few).toBeGreaterThan(0.45); // the modern prior
    expect(few).toBeLessThan(many);
    expect(many).toBeGreaterThan(0.85);
  });

  it('never prices a grade-7 cell above grade 8 of its grader', () => {
    const cal = calibration({ psa7: [0.5, 30], psa8: [0.3, 30], bgs7: [0.6, 10], bgs8: [0.35, 10] });
    const table = calibrationFor(cal, 'modern');
    for (const grader of ['psa', 'bgs', 'cgc', 'sgc', 'any']) {
      const ladder = MATRIX_GRADES.map((g) => table.logRatio[at(`${grader}${g}`)]!);
      for (let g = 1; g < ladder.length; g++) expect(ladder[g]).toBeGreaterThanOrEqual(ladder[g - 1]!);
    }
  });

  it('never narrows a spread below its prior, whatever the fit', () => {
    const key = pairKey(at('psa9'), at('psa10'));
    const cal = calibration({ psa9: [0.45, 500] }, { [key]: { dispersion: 0.01, products: 500 } });
    const table = calibrationFor(cal, 'modern');
    expect(table.dispersion[at('psa9')]).toBe(PRIOR_DISPERSION);
    expect(table.pairDispersion[at('psa9') * N + at('psa10')]).toBe(PRIOR_PAIR_DISPERSION.sameGrader);
  });

  it("never overrides a product's own guide values for a grade with a fitted ratio", () => {
    // A PriceCharting-like product, two daily downloads: ungraded $4.00, Grade 8 $12.00,
    // Grade 9 $21.50, PSA 10 $80.00; the catalog's fit says grades 8 and 9 sit at 0.5 and 0.7 of PSA 10.
    const quote = (condition: string, hoursBefore: number, priceMinor: number): PricePoint => ({
      ...pt(condition, hoursBefore, priceMinor, 'pricecharting'),
      salesVolume: 40,
    });
    const points = [6, 30].flatMap((h) => [
      quote('ungraded', h, 400),
      quote('psa8', h, 1200),
      quote('psa9', h, 2150),
      quote('psa10', h, 8000),
    ]);
    const cal = calibration({ psa8: [0.5, 60], psa9: [0.7, 60], psa10: [1, 60], ungraded: [0.05, 60] });
    const b = computeBundle({ product: product(), points, params: params(), id: null, calibration: cal });
    expect(b.graded.PSA['8'].price_minor).toBe(1200);
    expect(b.graded.PSA['9'].price_minor).toBe(2150);
    expect(b.ungraded.price_minor).toBe(400);
  });
});
