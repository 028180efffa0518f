/**
 * The schemas of the collection-value routes: a collection given in the query (`csv`, the text
 * of a file like examples/collection.csv, URL-encoded), valued as `oracle value` and `oracle
 * value --history` value it; nothing is stored. The shapes of service/valuation.ts and
 * valuation-history.ts.
 */
import { z } from 'zod';
import type { Valuation } from '../service/valuation.js';
import type { ValuationHistory } from '../service/valuation-history.js';
import { apiComponents, field, historyQuery, pricingQuery, type Same } from './schemas.js';

/**
 * The most records a collection in a URL may hold: a line of a collection is 40 to 80
 * characters, 100 to 250 once URL-encoded, so 100 lines stay within the 16 KiB Node allows a
 * request's line and headers (larger collections: `oracle value`, or several requests).
 */
export const VALUE_MAX_LINES = 100;

const csv = field(z.string().min(1, 'csv is empty: give the collection, a header line first'), {
  description: `The collection as CSV text, URL-encoded: a header line naming \`product_key\` and/or \`refsource_id\`, \`condition\`, \`quantity\` and optionally \`cost_basis\` (dollars) or \`cost_basis_minor\` (cents), then at most ${VALUE_MAX_LINES} records (examples/collection.csv). Required.`,
});

const { window_hours, outlier_stddevs, at, currency } = pricingQuery.shape;
export const valueQuery = z.object({ csv, at, window_hours, outlier_stddevs, currency });
const { from, to, every } = historyQuery.shape;
export const valueHistoryQuery = z.object({ csv, from, to, every, window_hours, outlier_stddevs });

const cents = z.int().nullable();
const rateDates = z.object({ first: z.iso.date().nullable(), last: z.iso.date().nullable() });
const problem = z.object({ line: z.int(), reason: z.string() }).register(apiComponents, { id: 'RowProblem' });

export const valueResponse = z
  .object({
    at: z.iso.datetime(),
    lines: z.array(
      z.object({
        line: z.int().meta({ description: 'Line of the record in the CSV (the header is line 1).' }),
        product_key: z.string(),
        product_name: z.string(),
        refsource_id: z.string().nullable(),
        condition: z.string(),
        quantity: z.int(),
        unit_price_minor: cents,
        unpriced_reason: z.string().nullable(),
        unit_low_minor: cents,
        unit_high_minor: cents,
        level: z.number().nullable(),
        subtotal_minor: cents,
        subtotal_low_minor: cents,
        subtotal_high_minor: cents,
        cost_basis_minor: cents,
        gain_minor: cents,
        converted: z
          .object({
            unit_price_minor: cents,
            unit_low_minor: cents,
            unit_high_minor: cents,
            subtotal_minor: cents,
            subtotal_low_minor: cents,
            subtotal_high_minor: cents,
            rate_dates: rateDates,
          })
          .optional()
          .meta({
            description:
              "With `currency`: the line's figures in it, from its bundle's slot `meta.converted` (CONTRACT.md additions 20).",
          }),
      }),
    ),
    total: z.object({
      value_minor: z.int(),
      low_minor: cents,
      high_minor: cents,
      level: z.number().nullable(),
      priced_lines: z.int(),
      unpriced_lines: z.int(),
      cost_basis_minor: cents,
      gain_minor: cents,
      gain_pct: z.number().nullable(),
      converted: z
        .object({
          currency: z.string(),
          rate_source: z.string(),
          rate_dates: rateDates,
          value_minor: z.int(),
          low_minor: cents,
          high_minor: cents,
        })
        .optional()
        .meta({
          description:
            "With `currency`: the total and its interval in it (sums of the lines' converted figures), the first and last rate day of any line; cost basis and gain stay US cents (CONTRACT.md additions 20).",
        }),
    }),
    problems: z.array(problem).meta({ description: 'Records that could not be valued, with why.' }),
  })
  .register(apiComponents, { id: 'Valuation' });

export const valueHistoryResponse = z
  .object({
    from: z.iso.datetime(),
    to: z.iso.datetime(),
    every: z.string(),
    lines: z.int(),
    cost_basis_minor: cents,
    points: z.array(z.object({ at: z.iso.datetime(), value_minor: z.int(), priced_lines: z.int() })),
    change_minor: cents,
    change_pct: z.number().nullable(),
    gain_minor: cents,
    problems: z.array(problem),
  })
  .register(apiComponents, { id: 'ValuationHistory' });

const valueMatches: Same<z.output<typeof valueResponse>, Valuation> = true;
void valueMatches;
const valueHistoryMatches: Same<z.output<typeof valueHistoryResponse>, ValuationHistory> = true;
void valueHistoryMatches;
