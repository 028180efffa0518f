/**
 * The calibration step (docs/methodology.md §7): fit grader premiums and grade ratios from
 * the catalog's own observations before an instant, store them with that instant, and show
 * what is stored. The fit is pure engine code; this module only reads and writes the store.
 */
import type { Era } from '../domain/product.js';
import { ERAS } from '../domain/product.js';
import { toIsoUtc } from '../domain/time.js';
import {
  CALIBRATED_CONDITIONS,
  calibrationFor,
  conditionLevels,
  fitCalibration,
  levelsRequest,
  type Calibration,
  type ProductLevels,
} from '../engine/index.js';
import { PRICED_CONDITIONS } from '../domain/conditions.js';
import type { Store, StoredCalibration } from '../store/store.js';

/** One condition of a stored calibration as the command shows it. */
export interface CalibrationRow {
  condition: string;
  /** Price / PSA 10 price of the same card. */
  ratio_vs_psa10: number;
  /** Spread of ln(ratio) between cards (a robust standard deviation). */
  dispersion: number;
  /** Products the fit saw with this condition (0: prior). */
  products: number;
  /** `fitted`, or `prior` when the fit saw too few products (the documented prior holds). */
  source: 'fitted' | 'prior';
}

export interface CalibrationReport {
  as_of: string;
  created_at: string;
  products: Record<Era, number>;
  eras: Record<Era, CalibrationRow[]>;
}

/** A stored row as the engine's input (the dates come from the row, the tables from its body). */
export function parseCalibration(row: StoredCalibration): Calibration {
  const body = JSON.parse(row.body) as Pick<Calibration, 'eras'>;
  return { asOf: row.asOf, eras: body.eras };
}

function report(row: StoredCalibration, products: Record<Era, number>): CalibrationReport {
  const calibration = parseCalibration(row);
  const eras = {} as Record<Era, CalibrationRow[]>;
  for (const era of ERAS) {
    const table = calibrationFor(calibration, era);
    eras[era] = CALIBRATED_CONDITIONS.map((condition) => {
      const c = PRICED_CONDITIONS.indexOf(condition);
      const fitted = calibration.eras[era]?.cells[condition];
      return {
        condition,
        ratio_vs_psa10: Number(Math.exp(table.logRatio[c]!).toFixed(4)),
        dispersion: Number(table.dispersion[c]!.toFixed(4)),
        products: fitted?.products ?? 0,
        source: table.prior[c] ? 'prior' : 'fitted',
      };
    });
  }
  return { as_of: toIsoUtc(row.asOf), created_at: toIsoUtc(row.createdAt), products, eras };
}

function productCounts(body: string): Record<Era, number> {
  const parsed = JSON.parse(body) as { products?: Record<Era, number> };
  return parsed.products ?? { modern: 0, vintage: 0 };
}

/**
 * Fits the calibration from every single card's current levels at `asOf` (sealed products
 * have no grades to calibrate), stores it, and returns what was stored.
 */
export async function calibrate(store: Store, asOf: number, now: number): Promise<CalibrationReport> {
  const request = levelsRequest(asOf);
  const levels: ProductLevels[] = [];
  for (const product of await store.products.all()) {
    if (product.productType !== 'single_card') continue;
    levels.push(conditionLevels(await store.pricePoints.read(product.id, request), product.era, asOf));
  }
  const fit = fitCalibration(levels, asOf);
  const products = { modern: 0, vintage: 0 } as Record<Era, number>;
  for (const p of levels) if (p.levels.some((x) => !Number.isNaN(x))) products[p.era]++;
  const body = JSON.stringify({ eras: fit.eras, products });
  const id = await store.calibrations.insert(asOf, now, body);
  return report({ id, asOf, createdAt: now, body }, products);
}

/** The calibration the engine uses at `at` (the newest fitted as of then), or null. */
export async function showCalibration(store: Store, at: number): Promise<CalibrationReport | null> {
  const row = await store.calibrations.usableAt(at);
  return row === null ? null : report(row, productCounts(row.body));
}
