/**
 * What the pricing commands share: the product named by a key or `--refsource` (exactly
 * one), and the pricing parameters `--window-hours`, `--outlier-stddevs`, `--at` as their
 * options (options.ts) parsed them.
 */
import type { PricingParams } from '../domain/bundle.js';
import type { Oracle } from '../service/oracle.js';
import type { StoredProduct } from '../store/store.js';
import { UsageError } from './exit-codes.js';

export interface PricingOptions {
  refsource?: string;
  windowHours: number;
  outlierStddevs: number;
  /** Epoch ms, now when not given. */
  at: number;
}

/** Throws a usage error unless exactly one of a product key and `--refsource` is given. */
export function checkProductChoice(command: string, productKey: string | undefined, o: PricingOptions): void {
  if ((productKey === undefined) === (o.refsource === undefined)) {
    throw new UsageError(`${command} takes either a product_key or --refsource <id>, not both and not neither`);
  }
}

export function pricingParams(o: PricingOptions): PricingParams {
  return { windowHours: o.windowHours, outlierStddevs: o.outlierStddevs, asOf: o.at };
}

/** The product the command names (after checkProductChoice). */
export function chosenProduct(oracle: Oracle, productKey: string | undefined, o: PricingOptions): StoredProduct {
  return o.refsource === undefined ? oracle.productByKey(productKey as string) : oracle.productByRefsource(o.refsource);
}
