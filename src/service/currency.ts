/**
 * Prices in another currency than USD (docs/methodology.md §16): every point the store reads
 * is in US cents; for `currency` it is converted at the reference rate of its own day before
 * the engine sees it, so the engine stays currency-agnostic. The bundle keeps its US cents
 * (SPEC.md) and carries the converted figures beside them, in each slot's
 * `meta.converted` (CONTRACT.md additions 20).
 */
import type { ConvertedFigures, ConvertedRates, PricingBundle, Slot } from '../domain/bundle.js';
import { InvalidParameterError, UnknownCurrencyError } from '../domain/errors.js';
import type { ConditionPoints, PricePoint } from '../domain/observation.js';
import { toIsoUtc } from '../domain/time.js';
import { convertMinor, rateOn, type RateTable } from '../engine/currency.js';
import { RATE_CARRY_DAYS } from '../engine/methodology.js';

/** The rates a conversion used: the first and last rate days, and who published them. */
export interface RatesUsed {
  source: string;
  first: string | null;
  last: string | null;
}

export type { ConvertedFigures, ConvertedRates } from '../domain/bundle.js';

/** The currency is priced from US cents converted point by point; one per request. */
export class PointConverter {
  readonly used: RatesUsed;

  constructor(
    private readonly table: RateTable,
    readonly currency: string,
  ) {
    if (!table.series.has(currency) && currency !== 'EUR')
      throw new UnknownCurrencyError(currency, [...table.series.keys(), 'EUR'].sort());
    this.used = { source: table.source, first: null, last: null };
  }

  /** One amount of US cents observed at `at`, in the currency's minor units. */
  convert(cents: number, at: number): number {
    const converted = convertMinor(this.table, cents, 'USD', this.currency, at);
    if (converted === null) {
      const missing = rateOn(this.table, 'USD', at) === null ? 'USD' : this.currency;
      throw new InvalidParameterError(
        'currency',
        `no reference rate for ${missing} on ${toIsoUtc(at).slice(0, 10)} or the ${RATE_CARRY_DAYS} days before: ingest the ECB's rates for that day (docs/feeds.md#currencies)`,
      );
    }
    const day = converted.rateDay;
    if (this.used.first === null || day < this.used.first) this.used.first = day;
    if (this.used.last === null || day > this.used.last) this.used.last = day;
    return converted.amountMinor;
  }

  /** The rates this converter used so far, or those of `figures` (bundles each priced by a converter of their own) too. */
  rates(figures: readonly (Pick<ConvertedFigures, 'rate_dates'> | null | undefined)[] = []): ConvertedRates {
    let { first, last } = this.used;
    for (const f of figures) {
      const d = f?.rate_dates;
      if (d?.first != null && (first === null || d.first < first)) first = d.first;
      if (d?.last != null && (last === null || d.last > last)) last = d.last;
    }
    return { currency: this.currency, rate_source: this.used.source, rate_dates: { first, last } };
  }

  points(points: readonly PricePoint[]): PricePoint[] {
    return points.map((p) => ({ ...p, priceMinor: this.convert(p.priceMinor, p.observedAt) }));
  }

  columns(groups: readonly ConditionPoints[]): ConditionPoints[] {
    return groups.map((g) => ({
      ...g,
      priceMinor: g.priceMinor.map((cents, i) => this.convert(cents, g.observedAt[i]!)),
    }));
  }
}

/** `usd` with each slot's `meta.converted` from the same slot of `converted` (the bundle priced from converted points). */
export function withConverted(
  usd: PricingBundle,
  converted: PricingBundle,
  used: RatesUsed,
  currency: string,
): PricingBundle {
  const figures = (slot: Slot): ConvertedFigures => {
    const confidence = slot.meta.confidence as { low_minor?: number; high_minor?: number } | undefined;
    return {
      currency,
      price_minor: slot.price_minor,
      low_minor: confidence?.low_minor ?? null,
      high_minor: confidence?.high_minor ?? null,
      rate_source: used.source,
      rate_dates: { first: used.first, last: used.last },
    };
  };
  usd.ungraded.meta.converted = figures(converted.ungraded);
  for (const [grader, grades] of Object.entries(usd.graded)) {
    for (const [grade, slot] of Object.entries(grades))
      slot.meta.converted = figures(
        (converted.graded as Record<string, Record<string, Slot>>)[grader]![grade]!,
      );
  }
  for (const [grader, grades] of Object.entries(usd.extra_grades ?? {})) {
    for (const [grade, slot] of Object.entries(grades)) {
      const other = converted.extra_grades?.[grader]?.[grade];
      if (other !== undefined) slot.meta.converted = figures(other);
    }
  }
  return usd;
}
