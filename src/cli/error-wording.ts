/**
 * The CLI's words for the service's typed errors whose message cannot know the command line:
 * what to run instead, and how to load or define what was missing. A name that matches several
 * products has a report of its own (report-error.ts); every other error's message is its own.
 */
import { NotARefsourceIdError, UnknownCurrencyError, UnknownIndexError } from '../domain/errors.js';
import { toIsoUtc, toUtcDate } from '../domain/time.js';

/** The one line `oracle: <message>` reports for `error`. */
export function cliMessage(error: unknown): string {
  if (error instanceof NotARefsourceIdError) return notARefsourceId(error);
  if (error instanceof UnknownCurrencyError) return error.describe('oracle ingest eurofxref-hist.csv');
  if (error instanceof UnknownIndexError) return error.describe('oracle index add');
  return error instanceof Error ? error.message : String(error);
}

/**
 * A snapshot of something that is no refsource id, most often a product key: the two commands
 * that do what was meant (the product's snapshot by its refsource id, or `oracle price` over
 * the same 24 hours; for a day not yet over, the last 24 hours, as --at may not be later than now).
 */
function notARefsourceId({ given, product, day, dayEnded }: NotARefsourceIdError): string {
  if (product === null) {
    return `snapshot takes a refsource id (1 to 20 digits), not ${JSON.stringify(given)}, which is no product_key either (see oracle catalog --search)`;
  }
  const price = dayEnded
    ? `'oracle price ${given} --at ${toIsoUtc(day.end)}' (the same 24 hours)`
    : `'oracle price ${given}' (the last 24 hours)`;
  const snapshot =
    product.refsourceId === null
      ? ''
      : ` 'oracle snapshot ${product.refsourceId} --date ${toUtcDate(day.start)}' (its refsource id) or`;
  return `snapshot takes a refsource id, not a product_key: for ${given} run${snapshot} ${price}`;
}
