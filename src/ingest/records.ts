/**
 * The canonical observation and catalog records of CONTRACT.md as zod schemas: the one
 * definition of a valid record, whatever the container (CSV, NDJSON, JSON array) or the
 * feed format that produced it. Records reach the schemas normalised (see normalizeRecord):
 * every value is trimmed text, empty values are absent, so one schema of strings serves
 * CSV cells and JSON numbers alike. Every reject reason is a specific, readable message.
 */
import { z } from 'zod';
import { UNGRADED } from '../domain/conditions.js';
import { canonicalPrinting } from '../domain/printing.js';
import { ERAS, PRODUCT_TYPES, type Product } from '../domain/product.js';
import { parseCalendarDate, parseInstant } from '../domain/time.js';
import { CURRENCY, DIGITS, GRADE, GRADER, NO_CONTROL_200, NO_CONTROL_2000, PRICE, PRICE_MINOR, SOURCE, toCents } from './record-patterns.js';

/** A record as a format produced it: CONTRACT.md field names, values text or numbers. */
export type CanonicalRecord = Record<string, unknown>;

/** A value for a message: quoted, and cut short when long. */
function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  return typeof value === 'object' ? JSON.stringify(value)?.slice(0, 60) ?? String(value) : String(value);
}

/** A text field that must match `pattern`; `rule` completes "<field> must ...". */
function text(field: string, pattern: RegExp, rule: string) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined ? `${field} is required` : `${field} must be text or a number (got ${show(issue.input)})`,
    })
    .regex(pattern, { error: (issue) => `${field} ${rule} (got ${show(issue.input)})` });
}

const PRINTING = /^[^\u0000-\u001f\u007f]{1,64}$/;

const productKey = text('product_key', NO_CONTROL_200, 'must be 1 to 200 characters without control characters');
const digits = (field: string) => text(field, DIGITS, 'must be digits');

/** A text field a time.ts parser must accept; `keep` maps the text and the parsed instant to the value kept. */
function dateField<T>(field: string, parse: (value: string) => number | string, keep: (value: string, ms: number) => T) {
  return text(field, /^./, 'is required').transform((value, ctx) => {
    const parsed = parse(value);
    if (typeof parsed === 'number') return keep(value, parsed);
    ctx.addIssue({ code: 'custom', input: value, message: `${field} ${parsed}` });
    return z.NEVER;
  });
}

/** Epoch ms. Whether it is in the future is checked at ingest, which has the clock (domain/observation.ts). */
const observedAt = dateField('observed_at', parseInstant, (_, ms) => ms);

const positive = (field: string) => (cents: number) =>
  cents > 0 ? null : `${field} must be greater than 0 (got ${field === 'price' ? (cents / 100).toFixed(2) : cents})`;

function positiveAmount(field: 'price' | 'price_minor', pattern: RegExp, rule: string, toMinor: (s: string) => number) {
  return text(field, pattern, rule)
    .transform(toMinor)
    .refine((cents) => cents > 0, { error: (issue) => positive(field)(issue.input as number) ?? '' });
}

/**
 * Graders: empty or `ungraded` (any case) is ungraded; anything that looks like a grader's
 * name is kept upper case (PSA, BGS, CGC, SGC priced; ANY pooled; TAG, ACE... stored only).
 */
const grader = text('grader', GRADER, 'must be ungraded or a grader name such as PSA, BGS, CGC, SGC, ANY or TAG').transform(
  (value) => (value.toLowerCase() === UNGRADED ? UNGRADED : value.toUpperCase()),
);

const grade = text('grade', GRADE, 'must be a number from 1 to 10')
  .transform(Number)
  .refine((n) => n >= 1 && n <= 10 && Number.isInteger(n * 2), {
    error: (issue) => `grade must be 1 to 10 in steps of 0.5 (got ${show(issue.input)})`,
  });

function unknownFieldsMessage(issue: { code?: string; keys?: string[] }): string | undefined {
  if (issue.code !== 'unrecognized_keys') return undefined;
  const keys = issue.keys ?? [];
  return `unknown field${keys.length > 1 ? 's' : ''} ${keys.map((k) => show(k)).join(', ')}`;
}

/** The canonical observation record (CONTRACT.md), plus the internal `tcgplayer_id` resolution key. */
export const observationRecordSchema = z
  .strictObject(
    {
      product_key: productKey.optional(),
      refsource_id: digits('refsource_id').optional(),
      /** Internal: resolves a TCGplayer price row through products.tcgplayer_id ... */
      tcgplayer_id: digits('tcgplayer_id').optional(),
      /** ... and products.printing (docs/feeds.md, "Printings"). */
      printing: text('printing', PRINTING, 'must be 1 to 64 characters without control characters').optional(),
      source: text('source', SOURCE, 'must be 1 to 32 characters of a-z, 0-9, _ and -'),
      observed_at: observedAt,
      price_minor: positiveAmount('price_minor', PRICE_MINOR, 'must be a whole number of US cents', Number).optional(),
      price: positiveAmount('price', PRICE, 'must be a US dollar amount with at most 2 decimals', toCents).optional(),
      currency: text('currency', CURRENCY, 'must be USD, the only currency').optional(),
      grader: grader.optional(),
      grade: grade.optional(),
      external_id: text('external_id', NO_CONTROL_200, 'must be 1 to 200 characters without control characters').optional(),
    },
    { error: unknownFieldsMessage },
  )
  .superRefine((r, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', input: r, message });
    if (r.product_key === undefined && r.refsource_id === undefined && r.tcgplayer_id === undefined) {
      fail('the record names no product: give product_key or refsource_id');
    } else if (r.price_minor === undefined && r.price === undefined) {
      fail('the record has no price: give price_minor (cents) or price (dollars)');
    } else if (r.price_minor !== undefined && r.price !== undefined) {
      fail('give price_minor or price, not both');
    } else if (r.grade !== undefined && (r.grader === undefined || r.grader === UNGRADED)) {
      fail(`grade ${r.grade} needs a grader (PSA, BGS, CGC, SGC, ANY, ...)`);
    } else if (r.grade === undefined && r.grader !== undefined && r.grader !== UNGRADED) {
      fail(`grader ${r.grader} needs a grade (1 to 10)`);
    }
  });

export type ObservationRecord = z.output<typeof observationRecordSchema>;

/**
 * Columns a canonical CSV of observations may have, in CONTRACT.md's order. `printing` is
 * not one: only TCGplayer rows carry it, and the CSV fast path (observation-cells.ts) reads
 * none.
 */
export const OBSERVATION_FIELDS: readonly string[] = Object.keys(observationRecordSchema.shape).filter((name) => name !== 'printing');

const optionalText = (field: string) =>
  text(field, NO_CONTROL_2000, 'must be at most 2,000 characters without control characters').optional();

/**
 * The canonical catalog record (CONTRACT.md), plus `tcgplayer_id` and `printing`, which map
 * TCGplayer price rows onto the product of their printing.
 */
export const catalogRecordSchema = z.strictObject(
  {
    product_key: productKey,
    refsource_id: digits('refsource_id').optional(),
    product_name: text('product_name', NO_CONTROL_2000, 'must be 1 to 2,000 characters without control characters'),
    subtitle: optionalText('subtitle'),
    set_name: optionalText('set_name'),
    image_url: optionalText('image_url'),
    product_type: z
      .enum(PRODUCT_TYPES, { error: (issue) => `product_type must be ${PRODUCT_TYPES.join(' or ')} (got ${show(issue.input)})` })
      .optional(),
    era: z.enum(ERAS, { error: (issue) => `era must be ${ERAS.join(' or ')} (got ${show(issue.input)})` }).optional(),
    /** Kept as written: the store and the bundle's metadata hold the date as text. */
    release_date: dateField('release_date', parseCalendarDate, (value) => value).optional(),
    tcgplayer_id: digits('tcgplayer_id').optional(),
    printing: text('printing', PRINTING, 'must be 1 to 64 characters without control characters')
      .transform((value) => canonicalPrinting(value) as string)
      .optional(),
  },
  { error: unknownFieldsMessage },
);

export type CatalogRecord = z.output<typeof catalogRecordSchema>;

/** Fields a catalog record may have. */
export const CATALOG_FIELDS: readonly string[] = Object.keys(catalogRecordSchema.shape);

/** The product a valid catalog record describes; absent fields take the schema's defaults. */
export function toProduct(record: CatalogRecord): Product {
  return {
    productKey: record.product_key,
    refsourceId: record.refsource_id ?? null,
    productName: record.product_name,
    subtitle: record.subtitle ?? '',
    setName: record.set_name ?? '',
    imageUrl: record.image_url ?? '',
    productType: record.product_type ?? 'single_card',
    era: record.era ?? 'modern',
    releaseDate: record.release_date ?? null,
    tcgplayerId: record.tcgplayer_id ?? null,
    printing: record.printing ?? null,
  };
}

/**
 * A record as the schemas take it: text trimmed, numbers as text, empty and null values
 * absent. Other values (true, objects) stay as they are for the schema to reject.
 * The result has no prototype, so a `__proto__` key is just an unknown field.
 */
export function normalizeRecord(record: CanonicalRecord): CanonicalRecord {
  const out: CanonicalRecord = Object.create(null) as CanonicalRecord;
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (value === null || value === undefined) continue;
    if (typeof value === 'string') {
      const trimmed = value.trim();
      if (trimmed !== '') out[key] = trimmed;
    } else if (typeof value === 'number') out[key] = String(value);
    else out[key] = value;
  }
  return out;
}

/** The reason of a rejected record: the first issue's message. */
export function rejectReason(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'invalid record';
}
