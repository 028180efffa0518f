/**
 * What the pricing commands share: the product named by a key or `--refsource` (exactly
 * one), and the pricing parameters `--window-hours`, `--outlier-stddevs`, `--at` as their
 * options (options.ts) parsed them.
 */
import type { PricingParams } from '../domain/bundle.js';
import type { ProductRef, SeriesParams } from '../service/pricing.js';
import type * as z from 'zod/mini';
import type { priceOptions } from './command-options.js';
import { UsageError } from './exit-codes.js';

/** `--refsource`, `--window-hours`, `--outlier-stddevs` and `--at` (epoch ms, now when not given). */
export type PricingOptions = Pick<
  z.output<typeof priceOptions>,
  'refsource' | 'windowHours' | 'outlierStddevs' | 'at' | 'currency'
>;

/**
 * The product the command names: a key, or a name or search phrase that matches one product
 * (`oracle price "charizard base 4/102"`), or `--refsource`; a usage error unless exactly one
 * of the argument and `--refsource` is given.
 */
export function productRef(
  command: string,
  productKey: string | undefined,
  o: { refsource?: string },
): ProductRef {
  if ((productKey === undefined) === (o.refsource === undefined)) {
    throw new UsageError(
      `${command} takes either a product_key or --refsource <id>, not both and not neither`,
    );
  }
  return o.refsource === undefined
    ? { productKey: productKey as string, orName: true }
    : { refsourceId: o.refsource };
}

/** `--window-hours` and `--outlier-stddevs`: the parameters of a series (history), which has no single `--at`. */
export function seriesParams(
  o: Pick<PricingOptions, 'windowHours' | 'outlierStddevs' | 'currency'>,
): SeriesParams {
  const params: SeriesParams = { windowHours: o.windowHours, outlierStddevs: o.outlierStddevs };
  if (o.currency !== undefined && o.currency !== 'USD') params.currency = o.currency;
  return params;
}

export function pricingParams(o: PricingOptions): PricingParams {
  return { ...seriesParams(o), asOf: o.at };
}
