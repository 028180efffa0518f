/**
 * The zod schemas of the API: its input (path and query parameters through input.ts, the key
 * headers through auth.ts), its response headers, and its response bodies (the routes'
 * declared return types, checked against the domain types below). The OpenAPI document is
 * generated from these same objects.
 */
import { z } from 'zod';
import { OUTLIER_STDDEVS, WINDOW_HOURS, type PricingBundle } from '../domain/bundle.js';
import { GRADERS, MATRIX_GRADES } from '../domain/conditions.js';
import { InvalidParameterError } from '../domain/errors.js';
import { parseAsOf, parseDateParam, parseIntInRange, REFSOURCE_ID, refsourceIdProblem } from '../domain/params.js';
import { ERAS, PRODUCT_TYPES } from '../domain/product.js';
import { SEARCH_LIMIT, type CatalogBody, type SearchBody } from '../service/catalog.js';
import { MAX_SEARCH_CHARS, parseSearchText } from '../domain/search.js';
import {
  HISTORY_DEFAULT_DAYS,
  HISTORY_DEFAULT_EVERY,
  HISTORY_DEFAULT_SLOTS,
  HISTORY_MAX_POINTS,
  parseEvery,
  parseSlots,
  SLOT_KEYS,
  STEP,
} from '../domain/history.js';
import type { HistoryBody } from '../service/history.js';
import type { PricingQuery } from '../service/oracle-service.js';
import { parseSlot, type EvidenceBody } from '../domain/evidence.js';
import { parseCalendarDate, parseInstant } from '../domain/time.js';
import { unprocessableInputs } from './input.js';

/**
 * Words a field's failure as the shared domain parser words it for the CLI (CONTRACT.md
 * decision 1: the detail names the parameter and its range), from the raw value zod refused.
 * The schema decides what is valid; test/http/input.test.ts checks that the parser refuses
 * the same values, so there is always such a message.
 */
function wording(parse: (raw: string | undefined) => unknown) {
  return (issue: { input?: unknown }): string | undefined => {
    try {
      parse(issue.input === undefined ? undefined : String(issue.input));
    } catch (error) {
      if (error instanceof InvalidParameterError) return error.message;
      throw error;
    }
    return undefined;
  };
}

/**
 * A decimal integer as a program prints it (no sign but a minus, no spaces, leading zeros,
 * decimals or exponent: domain/params.ts says why), short enough to be exact as a number.
 */
const DECIMAL_INTEGER = /^(0|-?[1-9]\d{0,14})$/;

function intQuery(name: string, range: { min: number; max: number; default: number }, description: string) {
  const error = wording((raw) => parseIntInRange(name, raw, range));
  return z
    .string({ error })
    .regex(DECIMAL_INTEGER, { error })
    .transform(Number)
    .pipe(z.int().min(range.min, { error }).max(range.max, { error }))
    .default(range.default)
    .meta({ description });
}

const windowHours = intQuery('window_hours', WINDOW_HOURS, 'TWAP lookback in hours.');
const outlierStddevs = intQuery('outlier_stddevs', OUTLIER_STDDEVS, 'Observations beyond this many standard deviations are dropped.');

/**
 * An ISO-8601 instant with a zone, as time.ts reads it (RFC 3339, plus a space or lower-case
 * `t` for `T`, optional seconds, `+hhmm` offsets). Whether it is later than now is the
 * route's check: it has the request's clock.
 */
function instantQuery(name: string, description: string) {
  const error = wording((raw) => raw !== undefined && parseAsOf(raw, Number.POSITIVE_INFINITY, name));
  return z
    .string({ error })
    .refine((raw) => typeof parseInstant(raw) === 'number', { error })
    .optional()
    .meta({ format: 'date-time', description });
}

const at = instantQuery(
  'at',
  'Price as of this ISO-8601 instant with `Z` or an offset, not later than now (default: now). Not in SPEC.md: point-in-time by key.',
);

export const pricingQuery = z.object({ window_hours: windowHours, outlier_stddevs: outlierStddevs, at });

/**
 * The service's query of a parsed pricing query (pricing, refsource and evidence routes): `at`
 * is checked against the request's clock here, since a schema has no clock.
 */
export function pricingQueryOf(query: z.output<typeof pricingQuery>, now: number): PricingQuery {
  return {
    windowHours: query.window_hours,
    outlierStddevs: query.outlier_stddevs,
    asOf: query.at === undefined ? undefined : parseAsOf(query.at, now, 'at'),
  };
}

const slotWording = wording(parseSlot);
const slotKey = (raw: string) => raw.trim().toLowerCase();

export const evidenceQuery = z.object({
  // Any case, spaces around it ignored, as parseSlot takes it.
  slot: z
    .string({ error: slotWording })
    .refine((raw) => SLOT_KEYS.includes(slotKey(raw)), { error: slotWording })
    .transform(slotKey)
    .pipe(z.enum(SLOT_KEYS as [string, ...string[]]))
    .meta({ description: 'The slot to explain: `ungraded` or a grader and grade 7-10 (`psa9`), any case. Required.' }),
  at,
  window_hours: windowHours,
  outlier_stddevs: outlierStddevs,
});

/** `word` in any case, as a pattern without flags (JSON Schema patterns have none). */
const anyCase = (word: string) => word.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);
const ANY_SLOT = `(?:${SLOT_KEYS.map(anyCase).join('|')})`;
/** What parseSlots takes: slots in any case, comma-separated, spaces around each ignored. */
const SLOT_LIST = new RegExp(`^\\s*${ANY_SLOT}\\s*(?:,\\s*${ANY_SLOT}\\s*)*$`);

const everyWording = wording((raw) => parseEvery(raw));
const slotsWording = wording((raw) => parseSlots(raw));

export const historyQuery = z.object({
  from: instantQuery('from', `First instant, ISO-8601 with zone (default: ${HISTORY_DEFAULT_DAYS} days before \`to\`).`),
  to: instantQuery('to', 'Last instant, ISO-8601 with zone, not later than now (default: now). Points step back from it.'),
  every: z
    .string({ error: everyWording })
    .regex(STEP, { error: everyWording })
    .default(HISTORY_DEFAULT_EVERY)
    .meta({ description: `Step between points: \`<n>h\`, \`<n>d\` or \`<n>w\`. At most ${HISTORY_MAX_POINTS} points a request.` }),
  slots: z
    .string({ error: slotsWording })
    .regex(SLOT_LIST, { error: slotsWording })
    .default(HISTORY_DEFAULT_SLOTS.join(','))
    .meta({ description: `Comma-separated slots, any case: ${SLOT_KEYS.join(', ')}.` }),
  window_hours: windowHours,
  outlier_stddevs: outlierStddevs,
});

const dateWording = wording((raw) => parseDateParam(raw));
export const snapshotQuery = z.object({
  // A bad date is a 422 (CONTRACT.md decision 2); a future one is the service's check, which has the clock.
  date: z
    .string({ error: dateWording })
    .refine((raw) => typeof parseCalendarDate(raw) === 'number', { error: dateWording })
    .meta({
      format: 'date',
      description: 'UTC date YYYY-MM-DD, today at the latest. Window: 00:00Z of the date to 00:00Z of the next day.',
    })
    .register(unprocessableInputs, {}),
  outlier_stddevs: outlierStddevs,
});

const searchWording = wording(parseSearchText);

export const searchQuery = z.object({
  q: z
    .string({ error: searchWording })
    .max(MAX_SEARCH_CHARS, { error: searchWording })
    .regex(/\S/, { error: searchWording })
    .meta({
      description:
        'Words to find, in any order, each a prefix, across key, name, set and subtitle (e.g. `base charizard 4/102`, `char 4/102`). Punctuation is not syntax. Required, not blank.',
    }),
  limit: intQuery('limit', SEARCH_LIMIT, 'Most results returned, best match first.'),
});

export const productKeyPath = z.object({
  product_key: z.string().min(1).meta({ description: 'Catalog key, URL-encoded.' }),
});

const refsourceIdWording = (issue: { input?: unknown }) => refsourceIdProblem('refsource_id', issue.input);

export const refsourceIdPath = z.object({
  refsource_id: z
    .string({ error: refsourceIdWording })
    .regex(REFSOURCE_ID, { error: refsourceIdWording })
    .meta({ description: 'Upstream reference-source product id (digits).' }),
});

/** `Authorization: Bearer <key>` (RFC 6750 section 2.1), the scheme's name in any case. */
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The key headers (SPEC.md section 5), as auth.ts reads them and the document's security
 * schemes describe them. A blank X-API-Key, or an Authorization of another scheme, presents
 * no key: the answer is the 401 for a missing key, never a 400.
 */
export const keyHeaders = z.object({
  'x-api-key': z.string().trim().min(1).optional().catch(undefined).meta({ description: 'The API key. Wins over Authorization when both are sent.' }),
  authorization: z
    .string()
    .regex(BEARER)
    .transform((value) => (BEARER.exec(value) as RegExpExecArray)[1] as string)
    .optional()
    .catch(undefined)
    .meta({ description: 'The API key as a bearer token: `Authorization: Bearer <key>`.' }),
});

/** The WWW-Authenticate challenge of a 401 (RFC 9110 section 11.6.1). */
export const BEARER_CHALLENGE = 'Bearer realm="oracle"';

/** The named response schemas: `components.schemas` of the OpenAPI document. */
export const apiComponents = z.registry<{ id: string }>();

const slot = z
  .object({
    price_minor: z.int().nullable(),
    currency: z.literal('USD'),
    condition_key: z.string(),
    methodology: z.string(),
    window_start: z.iso.datetime(),
    window_end: z.iso.datetime(),
    included_points: z.int().nonnegative(),
    excluded_points: z.int().nonnegative(),
    error: z.literal('no_observations').nullable(),
    meta: z.record(z.string(), z.unknown()),
  })
  .register(apiComponents, { id: 'Slot' });

const gradedSlot = slot
  .extend({ company: z.enum(GRADERS), grade: z.literal(MATRIX_GRADES) })
  .register(apiComponents, { id: 'GradedSlot' });

const gradeMap = z.object({ '7': gradedSlot, '8': gradedSlot, '9': gradedSlot, '10': gradedSlot });

export const pricingBundle = z
  .object({
    id: z.string().nullable(),
    product_key: z.string(),
    window_hours: z.int(),
    outlier_stddevs: z.int(),
    ungraded: slot,
    graded: z.object({ PSA: gradeMap, BGS: gradeMap, CGC: gradeMap, SGC: gradeMap }),
    metadata: z.object({
      product_name: z.string(),
      subtitle: z.string(),
      set_name: z.string(),
      image_url: z.string(),
      product_type: z.enum(PRODUCT_TYPES),
      era: z.enum(ERAS),
      release_date: z.iso.date().nullable(),
    }),
  })
  .register(apiComponents, { id: 'OracleCardPricingResponse' });

const catalogProduct = z.object({
  product_key: z.string(),
  refsource_id: z.string().nullable(),
  product_name: z.string(),
  product_type: z.enum(PRODUCT_TYPES),
  era: z.enum(ERAS),
  earliest_observation: z.iso.date().nullable(),
});

export const catalogResponse = z
  .object({ total: z.int().nonnegative(), products: z.array(catalogProduct) })
  .register(apiComponents, { id: 'Catalog' });

export const searchResponse = z
  .object({
    q: z.string(),
    limit: z.int(),
    products: z.array(catalogProduct.extend({ subtitle: z.string(), set_name: z.string() })),
  })
  .register(apiComponents, { id: 'CatalogSearch' });

const confidence = z
  .object({ level: z.number(), low_minor: z.int(), high_minor: z.int() })
  .nullable()
  .meta({ description: "The slot's interval (meta.confidence of pricing v2); null when the bundle carries none." });

export const historyResponse = z
  .object({
    product_key: z.string(),
    slots: z.array(z.string()),
    every: z.string(),
    points: z.array(
      z
        .object({ at: z.iso.datetime() })
        .catchall(z.union([z.string(), z.object({ price_minor: z.int().nullable(), confidence })]))
        .meta({ description: 'The instant, then one `{price_minor, confidence}` per requested slot, keyed by slot.' }),
    ),
  })
  .register(apiComponents, { id: 'History' });

const evidencePoint = z.object({
  condition: z.string(),
  observed_at: z.iso.datetime(),
  source: z.string(),
  price_minor: z.int(),
  kept: z.boolean(),
  reason: z.string().nullable().meta({ description: 'Why it was left out (`outlier: ...`, `outside_reference_set: ...`, `before_regime_change: ...`, `cross_check: ...`, `older_than_30_days: ...`); null when kept.' }),
  z: z.number().nullable().meta({ description: "Its robust z against the filter's median and scale; null when it was not filtered." }),
  weight: z.number().meta({ description: "Its share of its condition's own estimate (ŷ = Σ weight · ln price_minor); 0 when not kept." }),
  sales_volume: z.int().optional().meta({ description: "A price guide's quote: how many sales it summarises, which weighs it (docs/methodology.md §4.1); absent for a sale." }),
});

const evidenceStep = z.object({
  name: z.string().meta({ description: 'reference_set, filter, own_estimate (per condition), cross_check, prediction, blend, clamp, rounding, tier, interval, freshness.' }),
  condition: z.string().optional(),
  section: z.string().meta({ description: 'Section of docs/methodology.md.' }),
  doc: z.string(),
  text: z.string().meta({ description: 'The step in words and numbers.' }),
  value_minor: z.number().nullable().optional().meta({ description: "The step's result in cents, unrounded except in `rounding`." }),
  value_ln: z.number().optional(),
  inputs: z.record(z.string(), z.unknown()).optional().meta({ description: 'Every number the step used, exact.' }),
});

export const evidenceResponse = z
  .object({
    id: z.string().nullable(),
    product_key: z.string(),
    slot: z.string(),
    as_of: z.iso.datetime(),
    window_hours: z.int(),
    outlier_stddevs: z.int(),
    price_minor: z.int().nullable(),
    methodology: z.string(),
    points: z.array(evidencePoint),
    steps: z.array(evidenceStep),
  })
  .register(apiComponents, { id: 'Evidence' });

export const healthResponse = z.object({ status: z.literal('ok') }).register(apiComponents, { id: 'Health' });

export const readyResponse = z
  .object({
    status: z.literal('ready'),
    products: z.number().int().meta({ description: 'Products in the catalog.' }),
    observations: z.number().int().meta({ description: 'Observations stored.' }),
    keys: z.number().int().meta({ description: 'API keys that can call the API: stored and not revoked, plus ORACLE_API_KEYS.' }),
    refsource: z.enum(['upstream', 'offline', 'unconfigured']).meta({
      description: 'How reference-source ids are resolved; `unconfigured`: the refsource and snapshot routes answer 503.',
    }),
  })
  .register(apiComponents, { id: 'Ready' });

export const errorResponse = z.object({ detail: z.string() }).register(apiComponents, { id: 'Error' });

/** The rate-limit headers (draft-ietf-httpapi-ratelimit-headers; CONTRACT.md decision 4), as rate-limit.ts computes them. */
export const rateLimitHeaders = z.object({
  'RateLimit-Limit': z.int().positive().meta({ description: "Size of the key's token bucket: the requests a minute it refills (serve --rate-limit)." }),
  'RateLimit-Remaining': z.int().nonnegative().meta({ description: 'Whole tokens left in the bucket after this request.' }),
  'RateLimit-Reset': z.int().nonnegative().meta({ description: 'Seconds until the bucket is full again.' }),
});

export const retryAfterHeader = z.int().positive().meta({ description: 'Seconds until the bucket has a token again: retry no sooner.' });

export const wwwAuthenticateHeader = z
  .literal(BEARER_CHALLENGE)
  .meta({ description: 'How to authenticate: a bearer token (`Authorization: Bearer <key>`), or the key in X-API-Key.' });

export const openApiResponse = z.record(z.string(), z.unknown()).register(apiComponents, { id: 'OpenApiDocument' });

// The schemas and the domain types must describe the same bodies: these fail to compile otherwise.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const bundleMatches: Same<z.output<typeof pricingBundle>, PricingBundle> = true;
const catalogMatches: Same<z.output<typeof catalogResponse>, CatalogBody> = true;
void bundleMatches;
void catalogMatches;
const historyMatches: Same<z.output<typeof historyResponse>['product_key'], HistoryBody['product_key']> = true;
void historyMatches;
const evidenceMatches: Same<z.output<typeof evidenceResponse>, EvidenceBody> = true;
void evidenceMatches;
const searchMatches: Same<z.output<typeof searchResponse>, SearchBody> = true;
void searchMatches;
