/**
 * The value of a collection: each line's unit price and interval from its product's bundle
 * (one bundle per product, whatever its number of lines), times its quantity; the total and
 * its interval; the gain against cost basis. Prices come from the bundles, never from here.
 *
 * The total's interval is the sum of the lines' lows and the sum of their highs: exact at the
 * bundles' level when the lines' errors move together (one market lifting or sinking every
 * card), wider than needed when they are independent, so it never claims more precision than
 * the lines have. It is given only when every priced line has an interval.
 */
import type { ConvertedFigures, ConvertedRates, PricingBundle, PricingParams } from '../domain/bundle.js';
import type { CollectionRow, RowProblem } from '../domain/collection.js';
import { InvalidParameterError } from '../domain/errors.js';
import { toIsoUtc } from '../domain/time.js';
import type { StoredProduct } from '../store/store.js';
import { confidenceOf, findSlot } from './history.js';
import { conditionLabel, isExtraCondition } from '../domain/conditions.js';
import { NO_PRICE_LIMITS, NO_PRICE_REASON } from '../engine/methodology.js';
import type { PointConverter } from './currency.js';

export interface ValuedLine {
  line: number;
  product_key: string;
  product_name: string;
  refsource_id: string | null;
  condition: string;
  quantity: number;
  /** Null when the slot has no price (no observations). */
  unit_price_minor: number | null;
  /** Why the line has no price, null when it has one. */
  unpriced_reason: string | null;
  unit_low_minor: number | null;
  unit_high_minor: number | null;
  /** The interval's level (e.g. 0.8), null without one. */
  level: number | null;
  subtotal_minor: number | null;
  subtotal_low_minor: number | null;
  subtotal_high_minor: number | null;
  cost_basis_minor: number | null;
  /** subtotal - cost basis, when both are known. */
  gain_minor: number | null;
  /** With `--currency`: the unit price, subtotal and their intervals in it, from its bundle's `meta.converted`. */
  converted?: ConvertedLine;
}

/** A line's figures in another currency (CONTRACT.md additions 20); null where the US-cent figure is null. */
export interface ConvertedLine {
  unit_price_minor: number | null;
  unit_low_minor: number | null;
  unit_high_minor: number | null;
  subtotal_minor: number | null;
  subtotal_low_minor: number | null;
  subtotal_high_minor: number | null;
  rate_dates: ConvertedRates['rate_dates'];
}

export interface ValuationTotal {
  value_minor: number;
  /** Sums of the lines' lows and highs; null unless every priced line has an interval. */
  low_minor: number | null;
  high_minor: number | null;
  level: number | null;
  priced_lines: number;
  unpriced_lines: number;
  /** Cost basis and gain over the priced lines that have a cost basis. */
  cost_basis_minor: number | null;
  gain_minor: number | null;
  /** Gain in percent of that cost basis, one decimal. */
  gain_pct: number | null;
  /**
   * With `--currency`: the total and its interval in it, the sums of the lines' converted
   * subtotals, and the first and last rate day of any line. Cost basis and gain stay US cents.
   */
  converted?: ConvertedRates & { value_minor: number; low_minor: number | null; high_minor: number | null };
}

export interface Valuation {
  at: string;
  lines: ValuedLine[];
  total: ValuationTotal;
  /** Lines that could not be valued, with why: bad records and unknown products. */
  problems: RowProblem[];
}

export interface ProductLookup {
  productByKey(productKey: string): Promise<StoredProduct>;
  productByRefsource(refsourceId: string): Promise<StoredProduct>;
  price(
    product: StoredProduct,
    params: PricingParams,
    id: string | null,
    extraGrades?: boolean,
  ): Promise<PricingBundle>;
}

/**
 * The largest amount in cents a valuation holds: every line's subtotal, interval and gain and
 * every total must be at most 2^53 - 1 cents ($90,071,992,547,409.91), where a JSON number is
 * still an exact integer. A line over it is a problem of its own; totals over it refuse the
 * collection (exit 2), where they used to print rounded in exponent form.
 */
export const MAX_EXACT_CENTS = Number.MAX_SAFE_INTEGER;

/** A sum of cents, added in BigInt, as a number once checked exact (MAX_EXACT_CENTS); else the collection is refused. */
export function exactCents(value: bigint): number {
  if (value > BigInt(MAX_EXACT_CENTS) || value < -BigInt(MAX_EXACT_CENTS)) {
    throw new InvalidParameterError(
      'collection',
      `the collection's total is more than ${MAX_EXACT_CENTS} cents, the largest amount oracle adds exactly: value it in parts`,
    );
  }
  return Number(value);
}

// A product past MAX_EXACT_CENTS is caught by `exact` below, rounded or not, and made a problem of its line.
const times = (a: number | null, n: number) => (a === null ? null : a * n);

const exact = (cents: number | null) => cents === null || Math.abs(cents) <= MAX_EXACT_CENTS;

/** The product a collection row names by key or refsource id, or null with the row's problem added to `failed`. */
export async function productOfRow(
  lookup: Pick<ProductLookup, 'productByKey' | 'productByRefsource'>,
  row: CollectionRow,
  failed: RowProblem[],
): Promise<StoredProduct | null> {
  try {
    return await (row.productKey !== null
      ? lookup.productByKey(row.productKey)
      : lookup.productByRefsource(row.refsourceId!));
  } catch (error) {
    failed.push({ line: row.line, reason: (error as Error).message });
    return null;
  }
}

export async function valueCollection(
  oracle: ProductLookup,
  rows: readonly CollectionRow[],
  problems: readonly RowProblem[],
  params: PricingParams,
  converter: Pick<PointConverter, 'rates'> | null = null,
): Promise<Valuation> {
  const bundles = new Map<number, PricingBundle>();
  // Extra grades (CONTRACT.md additions 6) are read only when some line holds one.
  const extraGrades = rows.some((r) => isExtraCondition(r.condition));
  const lines: ValuedLine[] = [];
  const failed: RowProblem[] = [...problems];
  for (const row of rows) {
    const product = await productOfRow(oracle, row, failed);
    if (product === null) continue;
    let bundle = bundles.get(product.id);
    if (!bundle) bundles.set(product.id, (bundle = await oracle.price(product, params, null, extraGrades)));
    const slot = findSlot(bundle, row.condition);
    const price = slot?.price_minor ?? null;
    const confidence = slot === null || price === null ? null : confidenceOf(slot);
    const subtotal = times(price, row.quantity);
    const inCurrency = slot?.meta.converted as ConvertedFigures | undefined;
    if (![subtotal, times(confidence?.high_minor ?? null, row.quantity)].every(exact)) {
      failed.push({
        line: row.line,
        reason: `quantity ${row.quantity} times the unit price is more than ${MAX_EXACT_CENTS} cents, the largest amount oracle adds exactly`,
      });
      continue;
    }
    lines.push({
      line: row.line,
      product_key: product.productKey,
      product_name: product.productName,
      refsource_id: product.refsourceId,
      condition: row.condition,
      quantity: row.quantity,
      unit_price_minor: price,
      unpriced_reason:
        price !== null
          ? null
          : unpricedReason(row.condition, slot === null, slot?.meta.no_price_reason ?? null),
      unit_low_minor: confidence?.low_minor ?? null,
      unit_high_minor: confidence?.high_minor ?? null,
      level: confidence?.level ?? null,
      subtotal_minor: subtotal,
      subtotal_low_minor: times(confidence?.low_minor ?? null, row.quantity),
      subtotal_high_minor: times(confidence?.high_minor ?? null, row.quantity),
      cost_basis_minor: row.costBasisMinor,
      gain_minor:
        subtotal === null || row.costBasisMinor === null
          ? null
          : exactCents(BigInt(subtotal) - BigInt(row.costBasisMinor)),
      ...(inCurrency && { converted: convertedLine(inCurrency, row.quantity) }),
    });
  }
  failed.sort((a, b) => a.line - b.line);
  const sums = total(lines);
  if (converter !== null) sums.converted = convertedTotal(lines, converter);
  return { at: toIsoUtc(params.asOf), lines, total: sums, problems: failed };
}

function convertedLine(c: ConvertedFigures, quantity: number): ConvertedLine {
  return {
    unit_price_minor: c.price_minor,
    unit_low_minor: c.low_minor,
    unit_high_minor: c.high_minor,
    subtotal_minor: times(c.price_minor, quantity),
    subtotal_low_minor: times(c.low_minor, quantity),
    subtotal_high_minor: times(c.high_minor, quantity),
    rate_dates: c.rate_dates,
  };
}

/** The total in the currency: the same sums as the US-cent total (`total`), over the lines' converted figures. */
function convertedTotal(
  lines: readonly ValuedLine[],
  converter: Pick<PointConverter, 'rates'>,
): NonNullable<ValuationTotal['converted']> {
  const inCurrency = lines.map((l) => ({ ...l, ...l.converted }));
  const { value_minor, low_minor, high_minor } = total(inCurrency);
  const rates = converter.rates(lines.map((l) => l.converted));
  return { ...rates, value_minor, low_minor, high_minor };
}

/** Why a line has no price: an estimate withheld (methodology §9.1), its slot's `no_observations`, or an extra grade without data, absent. */
function unpricedReason(condition: string, absent: boolean, withheld: string | null): string {
  const label = conditionLabel(condition);
  if (withheld !== null) {
    return withheld === NO_PRICE_REASON.stale
      ? `${label} could only be estimated, from data older than ${NO_PRICE_LIMITS.staleAge}: no price (${withheld})`
      : `${label} could only be estimated, too uncertainly to publish: no price (${withheld})`;
  }
  return absent
    ? `no ${label} observation in the 30 days (an extra grade: own sales only)`
    : `no observation of the product to price ${label} from`;
}

function total(lines: readonly ValuedLine[]): ValuationTotal {
  const priced = lines.filter((l) => l.subtotal_minor !== null);
  const sum = (pick: (l: ValuedLine) => number | null, of: readonly ValuedLine[]) =>
    exactCents(of.reduce((s, l) => s + BigInt(pick(l) ?? 0), 0n));
  const withInterval = priced.every((l) => l.subtotal_low_minor !== null && l.subtotal_high_minor !== null);
  const levels = new Set(priced.map((l) => l.level));
  const withCost = priced.filter((l) => l.cost_basis_minor !== null);
  const cost = withCost.length === 0 ? null : sum((l) => l.cost_basis_minor, withCost);
  const gain = cost === null ? null : sum((l) => l.gain_minor, withCost);
  return {
    value_minor: sum((l) => l.subtotal_minor, priced),
    low_minor: priced.length > 0 && withInterval ? sum((l) => l.subtotal_low_minor, priced) : null,
    high_minor: priced.length > 0 && withInterval ? sum((l) => l.subtotal_high_minor, priced) : null,
    level: priced.length > 0 && withInterval && levels.size === 1 ? [...levels][0]! : null,
    priced_lines: priced.length,
    unpriced_lines: lines.length - priced.length,
    cost_basis_minor: cost,
    gain_minor: gain,
    gain_pct: cost === null || gain === null || cost === 0 ? null : Math.round((gain / cost) * 1000) / 10,
  };
}
