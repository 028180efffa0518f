/**
 * The canonical observation record of CONTRACT.md as a zod schema: the one definition of a
 * valid observation, whatever the container (CSV, NDJSON, JSON array) or the feed format
 * that produced it. observation-fast.ts checks canonical CSV cells without it, and is held
 * equal to it by test/ingest/validate/observation-fast.test.ts.
 */
import { z } from 'zod';
import { isPlayedGrader, UNGRADED } from '../../domain/conditions.js';
import { parseInstant } from '../../domain/time.js';
import {
  dateField,
  digits,
  identityField,
  PRINTING,
  productKey,
  show,
  text,
  unknownFieldsMessage,
} from './fields.js';
import type { ObservationValues } from './observation-values.js';
import {
  CURRENCY,
  GRADE,
  GRADER,
  NO_CONTROL_200,
  NO_CONTROL_2000,
  PRICE,
  PRICE_MINOR,
  SALES_VOLUME,
  SOURCE,
  toCents,
} from './patterns.js';
import { minorDigits } from '../../engine/currency.js';
import { normalizeRecord, rejectReason, type CanonicalRecord } from './record.js';

/** Epoch ms. Whether it is in the future is checked at ingest, which has the clock (domain/observation.ts). */
const observedAt = dateField('observed_at', parseInstant, (_, ms) => ms);

const positive = (field: string) => (cents: number) =>
  cents > 0
    ? null
    : `${field} must be greater than 0 (got ${field === 'price' ? (cents / 100).toFixed(2) : cents})`;

function positiveAmount(
  field: 'price' | 'price_minor',
  pattern: RegExp,
  rule: string,
  toMinor: (s: string) => number,
) {
  return text(field, pattern, rule)
    .transform(toMinor)
    .refine((cents) => cents > 0, { error: (issue) => positive(field)(issue.input as number) ?? '' });
}

/**
 * Graders: empty or `ungraded` (any case) is ungraded; anything that looks like a grader's
 * name is kept upper case (PSA, BGS, CGC, SGC priced; ANY pooled; TAG, ACE... stored only;
 * RAW-LP, RAW-MP, RAW-HP, RAW-DMG a played raw card, without a grade).
 */
const grader = text(
  'grader',
  GRADER,
  'must be ungraded or a grader name such as PSA, BGS, CGC, SGC, ANY or TAG (a played raw card: RAW-LP, RAW-MP, RAW-HP, RAW-DMG)',
).transform((value) => (value.toLowerCase() === UNGRADED ? UNGRADED : value.toUpperCase()));

const grade = text('grade', GRADE, 'must be a number from 1 to 10')
  .transform(Number)
  .refine((n) => n >= 1 && n <= 10 && Number.isInteger(n * 2), {
    error: (issue) => `grade must be 1 to 10 in steps of 0.5 (got ${show(issue.input)})`,
  });

/** The canonical observation record (CONTRACT.md), plus the internal `tcgplayer_id` resolution key. */
export const observationRecordSchema = z
  .strictObject(
    {
      product_key: productKey.optional(),
      refsource_id: digits('refsource_id').optional(),
      /** Internal: resolves a TCGplayer price row through products.tcgplayer_id ... */
      tcgplayer_id: digits('tcgplayer_id').optional(),
      /** ... and products.printing (docs/feeds.md, "Printings"). */
      printing: text(
        'printing',
        PRINTING,
        'must be 1 to 64 characters without control characters',
      ).optional(),
      /** Internal: resolves a Cardmarket price guide's row through the identity crosswalk (`274235`, `274235:foil`). */
      cardmarket_id: identityField('cardmarket_id'),
      source: text('source', SOURCE, 'must be 1 to 32 characters of a-z, 0-9, _ and -'),
      observed_at: observedAt,
      price_minor: positiveAmount(
        'price_minor',
        PRICE_MINOR,
        "must be a whole number of the currency's minor units (US cents)",
        Number,
      ).optional(),
      price: positiveAmount(
        'price',
        PRICE,
        'must be an amount with at most 2 decimals (US dollars unless currency says otherwise)',
        toCents,
      ).optional(),
      currency: text('currency', CURRENCY, 'must be an ISO 4217 code such as USD, EUR, GBP, JPY')
        .transform((code) => code.toUpperCase())
        .optional(),
      grader: grader.optional(),
      grade: grade.optional(),
      external_id: text(
        'external_id',
        NO_CONTROL_200,
        'must be 1 to 200 characters without control characters',
      ).optional(),
      /** A price guide's quote: how many sales it summarises (docs/cli.md, input formats). */
      sales_volume: text('sales_volume', SALES_VOLUME, 'must be a whole number of sales, 0 or more')
        .transform(Number)
        .optional(),
      /** Internal: a sold listing's title, when it names no product: the product is matched from it (title-matcher.ts). */
      title: text(
        'title',
        NO_CONTROL_2000,
        'must be at most 2,000 characters without control characters',
      ).optional(),
    },
    { error: unknownFieldsMessage },
  )
  .superRefine((r, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', input: r, message });
    if (
      r.product_key === undefined &&
      r.refsource_id === undefined &&
      r.tcgplayer_id === undefined &&
      r.cardmarket_id === undefined &&
      r.title === undefined
    ) {
      fail('the record names no product: give product_key or refsource_id');
    } else if (r.price_minor === undefined && r.price === undefined) {
      fail('the record has no price: give price_minor (cents) or price (dollars)');
    } else if (r.price_minor !== undefined && r.price !== undefined) {
      fail('give price_minor or price, not both');
    } else if (r.grade !== undefined && (r.grader === undefined || r.grader === UNGRADED)) {
      fail(`grade ${r.grade} needs a grader (PSA, BGS, CGC, SGC, ANY, ...)`);
    } else if (r.grade !== undefined && r.grader !== undefined && isPlayedGrader(r.grader)) {
      fail(`grader ${r.grader} is a raw card's played condition: give no grade (got ${r.grade})`);
    } else if (
      r.grade === undefined &&
      r.grader !== undefined &&
      r.grader !== UNGRADED &&
      !isPlayedGrader(r.grader)
    ) {
      fail(`grader ${r.grader} needs a grade (1 to 10)`);
    } else if (
      r.price !== undefined &&
      r.currency !== undefined &&
      minorDigits(r.currency) === 0 &&
      r.price % 100 !== 0
    ) {
      fail(
        `${r.currency} has no minor unit: give price as a whole number (got ${(r.price / 100).toFixed(2)})`,
      );
    } else if (r.sales_volume !== undefined && r.external_id !== undefined) {
      fail("sales_volume is for a price guide's quote, which has no external_id: give one or the other");
    }
  });

export type ObservationRecord = z.output<typeof observationRecordSchema>;

/**
 * Columns a canonical CSV of observations may have, in CONTRACT.md's order. `printing` is
 * not one: only TCGplayer rows carry it, and the CSV fast path (observation-fast.ts) reads
 * none.
 */
export const OBSERVATION_FIELDS: readonly string[] = Object.keys(observationRecordSchema.shape).filter(
  (name) => name !== 'printing' && name !== 'title' && name !== 'cardmarket_id',
);

/**
 * Checks one observation record against the schema and fills `out` from it: the reason the
 * record is rejected, or null. `normalized`: the record is normalizeRecord's already (the
 * cells of a canonical CSV row).
 */
export function checkObservation(
  record: CanonicalRecord,
  out: ObservationValues,
  normalized = false,
): string | null {
  const result = observationRecordSchema.safeParse(normalized ? record : normalizeRecord(record));
  if (!result.success) return rejectReason(result.error);
  const r = result.data;
  out.set(
    r.product_key,
    r.refsource_id,
    r.tcgplayer_id,
    r.source,
    r.observed_at,
    r.price_minor ?? (r.currency !== undefined && minorDigits(r.currency) === 0 ? r.price! / 100 : r.price!),
    r.grader,
    r.grade,
    r.external_id,
  );
  out.printing = r.printing;
  out.identity = r.cardmarket_id === undefined ? undefined : { scheme: 'cardmarket', value: r.cardmarket_id };
  out.salesVolume = r.sales_volume ?? null;
  out.currency = r.currency ?? 'USD';
  out.title =
    r.product_key === undefined &&
    r.refsource_id === undefined &&
    r.tcgplayer_id === undefined &&
    r.cardmarket_id === undefined
      ? r.title
      : undefined;
  return null;
}
