/**
 * The fast path of canonical CSV observations: the cells of a row are checked with
 * precompiled patterns (patterns.ts, the schema's own) and written into an
 * ObservationValues, with no record object and no zod call. A row that fails any check is
 * handed to the schema (observation.ts), which words the reason; the schema stays the one
 * definition of validity, and test/ingest/validate/observation-fast.test.ts asserts both agree
 * (a property test over generated rows, valid and not, and the sample files).
 *
 * Why a second validator is kept (issue 32): it is the one place where validation runs per row
 * of an ingest of millions, where the schema's record object and zod parse per row are the
 * cost; the API's inputs, a few per request, have no fast path (issue 13 removed theirs). The
 * patterns are the schema's own (patterns.ts), so the two cannot drift on what a cell may hold,
 * only on which checks run, and that is what the property test holds equal.
 */
import { minorDigits } from '../../engine/currency.js';
import { isPlayedGrader, UNGRADED } from '../../domain/conditions.js';
import { parseInstant } from '../../domain/time.js';
import type { ObservationValues } from './observation-values.js';
import {
  CURRENCY,
  DIGITS,
  GRADE,
  GRADER,
  NO_CONTROL_200,
  PRICE,
  PRICE_MINOR,
  SALES_VOLUME,
  SOURCE,
  toCents,
} from './patterns.js';
import type { CanonicalRecord } from './record.js';

/** Where each observation field is in a row (-1 when the header lacks it). */
export interface ObservationColumns {
  readonly names: readonly string[];
  readonly productKey: number;
  readonly refsourceId: number;
  readonly tcgplayerId: number;
  readonly source: number;
  readonly observedAt: number;
  readonly priceMinor: number;
  readonly price: number;
  readonly currency: number;
  readonly grader: number;
  readonly grade: number;
  readonly externalId: number;
  readonly salesVolume: number;
}

/** The columns of a header whose names are already checked (canonical-csv.ts). */
export function observationColumns(names: readonly string[]): ObservationColumns {
  const at = (name: string) => names.indexOf(name);
  return {
    names,
    productKey: at('product_key'),
    refsourceId: at('refsource_id'),
    tcgplayerId: at('tcgplayer_id'),
    source: at('source'),
    observedAt: at('observed_at'),
    priceMinor: at('price_minor'),
    price: at('price'),
    currency: at('currency'),
    grader: at('grader'),
    grade: at('grade'),
    externalId: at('external_id'),
    salesVolume: at('sales_volume'),
  };
}

/** A cell as the schema sees it: trimmed, and absent when empty. */
function cell(fields: readonly string[], i: number): string | undefined {
  if (i < 0) return undefined;
  const value = (fields[i] as string).trim();
  return value === '' ? undefined : value;
}

/**
 * Checks a row of `columns.names.length` cells and fills `out` when it is a valid
 * observation; false when it is not (or may not be): ask the schema why.
 */
export function readObservationCells(
  fields: readonly string[],
  columns: ObservationColumns,
  out: ObservationValues,
): boolean {
  const productKey = cell(fields, columns.productKey);
  if (productKey !== undefined && !NO_CONTROL_200.test(productKey)) return false;
  const refsourceId = cell(fields, columns.refsourceId);
  if (refsourceId !== undefined && !DIGITS.test(refsourceId)) return false;
  const tcgplayerId = cell(fields, columns.tcgplayerId);
  if (tcgplayerId !== undefined && !DIGITS.test(tcgplayerId)) return false;
  if (productKey === undefined && refsourceId === undefined && tcgplayerId === undefined) return false;

  const source = cell(fields, columns.source);
  if (source === undefined || !SOURCE.test(source)) return false;
  const observedAtText = cell(fields, columns.observedAt);
  if (observedAtText === undefined) return false;
  const observedAt = parseInstant(observedAtText);
  if (typeof observedAt !== 'number') return false;

  const priceMinorText = cell(fields, columns.priceMinor);
  const priceText = cell(fields, columns.price);
  let priceMinor: number;
  if (priceMinorText !== undefined) {
    if (priceText !== undefined || !PRICE_MINOR.test(priceMinorText)) return false;
    priceMinor = Number(priceMinorText);
  } else {
    if (priceText === undefined || !PRICE.test(priceText)) return false;
    priceMinor = toCents(priceText);
  }
  if (!(priceMinor > 0)) return false;
  const currencyText = cell(fields, columns.currency);
  let currency = 'USD';
  if (currencyText !== undefined) {
    if (!CURRENCY.test(currencyText)) return false;
    currency = currencyText.toUpperCase();
  }
  // A price of a currency without minor units (JPY) is whole units: its hundredths must be 0.
  if (priceMinorText === undefined && minorDigits(currency) === 0) {
    if (priceMinor % 100 !== 0) return false;
    priceMinor /= 100;
  }

  let grader = cell(fields, columns.grader);
  if (grader !== undefined) {
    if (!GRADER.test(grader)) return false;
    grader = grader.toLowerCase() === UNGRADED ? UNGRADED : grader.toUpperCase();
  }
  const gradeText = cell(fields, columns.grade);
  let grade: number | undefined;
  if (gradeText !== undefined) {
    if (!GRADE.test(gradeText)) return false;
    grade = Number(gradeText);
    if (!(grade >= 1 && grade <= 10 && Number.isInteger(grade * 2))) return false;
  }
  // A grade needs a grader, and a grader a grade; a played raw card (RAW-LP) has none.
  const graded = grader !== undefined && grader !== UNGRADED && !isPlayedGrader(grader);
  if (graded !== (grade !== undefined)) return false;

  const externalId = cell(fields, columns.externalId);
  if (externalId !== undefined && !NO_CONTROL_200.test(externalId)) return false;
  const salesVolume = cell(fields, columns.salesVolume);
  if (salesVolume !== undefined && (!SALES_VOLUME.test(salesVolume) || externalId !== undefined))
    return false;

  out.set(productKey, refsourceId, tcgplayerId, source, observedAt, priceMinor, grader, grade, externalId);
  out.salesVolume = salesVolume === undefined ? null : Number(salesVolume);
  out.currency = currency;
  return true;
}

/** The row as the schema and the rejects file take it: named cells, trimmed, empty ones left out. */
export function cellsRecord(fields: readonly string[], columns: ObservationColumns): CanonicalRecord {
  const record: CanonicalRecord = {};
  const names = columns.names;
  for (let i = 0; i < names.length; i += 1) {
    const value = (fields[i] as string).trim();
    if (value !== '') record[names[i] as string] = value;
  }
  return record;
}
