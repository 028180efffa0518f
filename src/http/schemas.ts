/**
 * The zod schemas of the API: its input (path and query parameters through input.ts, made of
 * the domain's input schemas, which the CLI's options use too; the key headers through
 * auth.ts), its response headers, and its response bodies (the routes' declared return types,
 * checked against the domain types below). The OpenAPI document is generated from these same
 * objects.
 */
import { z } from 'zod';
import type { PricingBundle } from '../domain/bundle.js';
import { GRADERS, MATRIX_GRADES } from '../domain/conditions.js';
import {
  asOf,
  extraGradesFlag,
  currencyCode,
  instant,
  INSTANT_PATTERN,
  outlierStddevs,
  productKey,
  refsourceId,
  snapshotDate,
  windowHours,
} from '../domain/params.js';
import { ERAS, PRODUCT_TYPES } from '../domain/product.js';
import type { CatalogPageBody, SearchBody } from '../service/catalog.js';
import { CATALOG_PAGE, catalogCursor, catalogLimit, searchLimit, searchText } from '../domain/search.js';
import { every, HISTORY_DEFAULT_DAYS, HISTORY_MAX_POINTS, slots, SLOT_KEYS } from '../domain/history.js';
import type { HistoryBody } from '../service/history.js';
import type { PricingQuery } from '../service/oracle.js';
import { slot as slotInput, SLOT_PATTERN, type EvidenceBody } from '../domain/evidence.js';
import { unprocessableInputs } from './input.js';
import { SALES_LIMIT, salesLimit, span, type SalesBody } from '../domain/sales.js';
import {
  MOVERS_CONDITION_PATTERN,
  MOVERS_DEFAULT_SPAN,
  MOVERS_LIMIT,
  moversCondition,
  moversLimit,
  moversSpan,
  type MoversBody,
} from '../domain/movers.js';

/**
 * A domain input schema (domain/params.ts and its siblings) as one field of a request schema,
 * with what the document says of it here. A copy carries the metadata: the same input is a
 * field of several routes (and `instant` of three fields), each described on its own.
 */
export function field<S extends z.core.$ZodType>(
  schema: S,
  meta: { description: string; format?: string; pattern?: string },
): S {
  const copy = z.core.clone(schema);
  z.globalRegistry.add(copy, meta);
  return copy;
}

export const windowHoursField = field(windowHours, { description: 'TWAP lookback in hours.' });
export const outlierStddevsField = field(outlierStddevs, {
  description: 'Observations beyond this many standard deviations are dropped.',
});

/**
 * An instant field, as people write it (time.ts parseInstantInput), described by its pattern. No
 * JSON Schema `format`: `date-time` would refuse `30d` and `2026-10-28`, which the field takes. Whether it is later
 * than now is the route's check: it has the request's clock.
 */
export const instantField = (description: string) =>
  field(z.optional(instant), { pattern: INSTANT_PATTERN, description });

/** How every instant field is written, for its description. */
export const INSTANT_FORMS =
  'An ISO-8601 instant with `Z` or an offset (`2026-10-28T12:00:00Z`), a UTC date alone (`2026-10-28`), a span before now (`30d`, `12h`, `2w`: hours, days, weeks, 0-9999) or `now`. A date that does not exist or a year before 1000 is a 400.';

const at = instantField(
  `Price as of this instant, not later than now (default: now). ${INSTANT_FORMS} A date alone is the end of that UTC day (23:59:59.999Z: the price at its close), or now when the date is today. Not in SPEC.md: point-in-time by key (CONTRACT.md additions 2 and 8).`,
);

const extraGrades = field(z.optional(extraGradesFlag), {
  description:
    "`true` adds `extra_grades` to the body: every grade outside the matrix with sales of its own in the 30 days (half grades, grades below 7, other graders, CGC Pristine, BGS Black Label, pooled `ANY`), each priced from its own data alone. Default `false`: SPEC.md's body. Not in SPEC.md (CONTRACT.md additions 6).",
});

const currency = field(z.optional(currencyCode), {
  pattern: '^[A-Za-z]{3}$',
  description:
    "An ISO 4217 code (`EUR`, `GBP`, `JPY`, any case): every slot's `meta.converted` then holds its price and 80 % interval in that currency, each observation converted at the ECB reference rate of its own day (the last one before on weekends and holidays), with the rate source and the first and last rate dates used. `price_minor` and `currency` stay US cents and `USD`. A currency without stored rates is a 400. Not in SPEC.md (CONTRACT.md additions 20).",
});

export const pricingQuery = z.object({
  window_hours: windowHoursField,
  outlier_stddevs: outlierStddevsField,
  at,
  extra_grades: extraGrades,
  currency,
});

/**
 * The service's query of a parsed pricing query (pricing, refsource and evidence routes): `at`
 * is checked against the request's clock here, since a schema has no clock.
 */
export function pricingQueryOf(
  query: Omit<z.output<typeof pricingQuery>, 'extra_grades'> & { extra_grades?: string },
  now: number,
): PricingQuery {
  return {
    windowHours: query.window_hours,
    outlierStddevs: query.outlier_stddevs,
    asOf: query.at === undefined ? undefined : asOf(query.at, now, 'at'),
    ...('extra_grades' in query && query.extra_grades === 'true' ? { extraGrades: true } : {}),
    ...('currency' in query && query.currency !== undefined
      ? { currency: query.currency.toUpperCase() }
      : {}),
  };
}

export const evidenceQuery = z.object({
  slot: field(slotInput, {
    pattern: SLOT_PATTERN,
    description:
      'The slot to explain: `ungraded`, a grader and grade 7-10 (`psa9`), or an extra grade (`BGS 9.5`, `bgs9.5`, `TAG 10`, `CGC Pristine 10`), any case. Required.',
  }),
  at,
  window_hours: windowHoursField,
  outlier_stddevs: outlierStddevsField,
});

const listCurrency = field(z.optional(currencyCode), {
  pattern: '^[A-Za-z]{3}$',
  description:
    "An ISO 4217 code (`EUR`, `GBP`, `JPY`, any case): the figures also in that currency (`converted_minor`, `converted`), each converted at the ECB reference rate of its own day, the body's `converted` naming the currency, the rate source and the first and last rate dates used; the US-cent figures stay. A currency without stored rates is a 400. CONTRACT.md additions 20.",
});

export const salesQuery = z.object({
  condition: field(z.optional(slotInput), {
    pattern: SLOT_PATTERN,
    description:
      'Only this condition, as `slot` of the evidence route takes it (`ungraded`, `psa10`, `PSA 10`, `BGS 9.5`). Default: every condition and extra grade.',
  }),
  span: field(z.optional(span), {
    description:
      'Only the observations of this span before `at`: `<n>h`, `<n>d` or `<n>w`. Default: everything the price read.',
  }),
  limit: field(salesLimit, {
    description: `The most observations listed, newest first (${SALES_LIMIT.min}-${SALES_LIMIT.max}).`,
  }),
  at,
  window_hours: windowHoursField,
  outlier_stddevs: outlierStddevsField,
  currency: listCurrency,
});

export const moversQuery = z.object({
  condition: field(moversCondition, {
    pattern: MOVERS_CONDITION_PATTERN,
    description:
      'The slot, any case, with or without a space: `ungraded` (default), or a grader and a grade 7-10 (`psa10`, `PSA 10`, `bgs9`).',
  }),
  span: field(moversSpan, {
    description: `How far back from \`at\` the move is measured: \`<n>h\`, \`<n>d\` or \`<n>w\` (default ${MOVERS_DEFAULT_SPAN}).`,
  }),
  limit: field(moversLimit, {
    description: `Products listed on each side (${MOVERS_LIMIT.min}-${MOVERS_LIMIT.max}).`,
  }),
  at,
  window_hours: windowHoursField,
  outlier_stddevs: outlierStddevsField,
  currency: listCurrency,
});

export const historyQuery = z.object({
  from: instantField(
    `First instant (default: ${HISTORY_DEFAULT_DAYS} days before \`to\`). ${INSTANT_FORMS} A date alone is the start of that UTC day (00:00:00Z).`,
  ),
  to: instantField(
    `Last instant, not later than now (default: now); points step back from it. ${INSTANT_FORMS} A date alone is the end of that UTC day (23:59:59.999Z), or now when the date is today.`,
  ),
  every: field(every, {
    description: `Step between points: \`<n>h\`, \`<n>d\` or \`<n>w\`. At most ${HISTORY_MAX_POINTS} points a request.`,
  }),
  slots: field(slots, {
    description: `Comma-separated slots, any case, a space allowed between grader and grade (\`PSA 10\`), \`raw\` for ungraded: ${SLOT_KEYS.join(', ')}.`,
  }),
  window_hours: windowHoursField,
  outlier_stddevs: outlierStddevsField,
});

/** A bad date is a 422 (CONTRACT.md decision 2); a future one is the route's check, which has the clock. */
const dateField = field(snapshotDate, {
  format: 'date',
  description:
    'UTC date YYYY-MM-DD, today at the latest. Window: 00:00Z of the date to 00:00Z of the next day.',
});
unprocessableInputs.add(dateField, {});

export const snapshotQuery = z.object({ date: dateField, outlier_stddevs: outlierStddevsField });

export const searchQuery = z.object({
  q: field(searchText, {
    description:
      'Words to find, in any order, each a prefix, across key, name, set and subtitle (e.g. `base charizard 4/102`, `char 4/102`). Punctuation is not syntax. Required, not blank.',
  }),
  limit: field(searchLimit, { description: 'Most results returned, best match first.' }),
});

export const productKeyPath = z.object({
  product_key: field(productKey, { description: 'Catalog key, URL-encoded.' }),
});

export const refsourceIdPath = z.object({
  refsource_id: field(refsourceId, { description: 'Upstream reference-source product id (digits).' }),
});

/** `Authorization: Bearer <key>` (RFC 6750 section 2.1), the scheme's name in any case. */
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The key headers (SPEC.md section 5), as auth.ts reads them and the document's security
 * schemes describe them. A blank X-API-Key, or an Authorization of another scheme, presents
 * no key: the answer is the 401 for a missing key, never a 400.
 */
export const keyHeaders = z.object({
  'x-api-key': z
    .string()
    .trim()
    .min(1)
    .optional()
    .catch(undefined)
    .meta({ description: 'The API key. Wins over Authorization when both are sent.' }),
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

/** A slot's meta: SPEC.md's free-form keys, with the additions documented here (CONTRACT.md additions 13). */
const slotMeta = z
  .object({
    basis: z.enum(['own', 'estimated']).optional().meta({
      description:
        "On every priced slot (docs/methodology.md §6.6): `own` when the price rests on the cell's own observations of the 30 days, `estimated` when it came from the card's other conditions, older data, the card's carried move or pooling. Absent on a slot without a price.",
    }),
    basis_reason: z.enum(['other_conditions', 'last_known', 'carried', 'pooled']).optional().meta({
      description:
        "Only on an `estimated` slot: `other_conditions` (no usable own data in the 30 days), `last_known` (data older than 30 days), `carried` (own data moved by the card's move), `pooled` (thin own data outweighed by the card model).",
    }),
    no_price_reason: z.enum(['stale_estimate', 'wide_estimate', 'sources_disagree']).optional().meta({
      description:
        "Only on a slot without a price whose cell could only be estimated (docs/methodology.md §9.1; `error` is then `no_observations`, `newest_observation_at` the newest observation the estimate would rest on): `stale_estimate` (that observation is older than 7 days), `wide_estimate` (its 80 % interval would span more than 2.2-fold: the ratio from the card's other conditions is not supported); on the ungraded slot, `sources_disagree` (its sources' prices differ beyond the cross-source check, `cross_source`: docs/methodology.md §18).",
    }),
    cross_source: z
      .object({
        agree: z.boolean(),
        ratio: z.string(),
        max_ratio: z.number(),
        medians_minor: z.record(z.string(), z.int()),
        out_of_line: z.string().nullable(),
      })
      .optional()
      .meta({
        description:
          "Only on the ungraded slot when two or more sources priced it in the 30 days (docs/methodology.md §18): each source's median in US cents, the highest over the lowest (`ratio`), and `agree` false when that exceeds `max_ratio` (and the gap $5): the price is then withheld (`no_price_reason` `sources_disagree`), `out_of_line` naming the source furthest from the median of all points.",
      }),
  })
  .catchall(z.unknown());

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
    meta: slotMeta,
  })
  .register(apiComponents, { id: 'Slot' });

const gradedSlot = slot
  .extend({ company: z.enum(GRADERS), grade: z.literal(MATRIX_GRADES) })
  .register(apiComponents, { id: 'GradedSlot' });

const gradeMap = z.object({ '7': gradedSlot, '8': gradedSlot, '9': gradedSlot, '10': gradedSlot });

/** A product's identity beside SPEC.md's fields (CONTRACT.md additions 7): in catalog entries and the bundle's metadata. */
const identity = {
  tcgplayer_id: z.string().nullable().meta({
    description:
      'Addition: the TCGplayer product id (digits), shared by the printings of a card; null when the catalog has none.',
  }),
  printing: z.string().nullable().meta({
    description:
      'Addition: the printing as TCGplayer names it (`1st Edition Holofoil`, `Reverse Holofoil`); null: the regular printing.',
  }),
  language: z.string().nullable().meta({
    description:
      'Addition: the language the card is printed in, as its feed names it (`Japanese`); null: English.',
  }),
};

const extraGradeSlot = slot
  .extend({ company: z.string(), grade: z.number().check(z.gte(1), z.lte(10), z.multipleOf(0.5)) })
  .register(apiComponents, { id: 'ExtraGradeSlot' });

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
      ...identity,
    }),
    extra_grades: z.optional(
      z.record(z.string(), z.record(z.string(), extraGradeSlot)).register(z.globalRegistry, {
        description:
          'Present only with `extra_grades=true` (CONTRACT.md additions 6): grader (`BGS`, `TAG`, `CGC-PRISTINE`, `BGS-BLACK`, `ANY` for a grade pooled across graders) -> grade (`"9.5"`, `"10"`) -> slot, priced from that grade\'s own observations of the 30 days alone (no card model, no fallback tier). A grade without such an observation is absent.',
      }),
    ),
  })
  .register(apiComponents, { id: 'OracleCardPricingResponse' });

const catalogProduct = z.object({
  product_key: z.string(),
  refsource_id: z.string().nullable().meta({
    description:
      "The reference source's product id: PriceCharting's id after a PriceCharting catalog ingest; null when the catalog has none.",
  }),
  product_name: z.string(),
  product_type: z.enum(PRODUCT_TYPES),
  era: z.enum(ERAS),
  earliest_observation: z.iso.date().nullable(),
  ...identity,
});

export const catalogResponse = z
  .object({
    total: z.int().nonnegative().meta({ description: 'Products in the whole catalog (not on this page).' }),
    products: z.array(catalogProduct).meta({ description: 'This page of the catalog, by product_key.' }),
    next_cursor: z.string().nullable().meta({
      description:
        'Pass as `cursor` to read the next page; null on the last page (a catalog of up to `limit` products is one page).',
    }),
  })
  .register(apiComponents, { id: 'Catalog' });

export const catalogQuery = z.object({
  cursor: z.optional(
    field(catalogCursor, {
      description: "The previous page's `next_cursor`, as given; absent: the first page.",
    }),
  ),
  limit: field(catalogLimit, {
    description: `Most products on this page (1 to ${CATALOG_PAGE.max}, default ${CATALOG_PAGE.default}).`,
  }),
});

export const searchResponse = z
  .object({
    q: z.string(),
    limit: z.int(),
    products: z.array(catalogProduct.extend({ subtitle: z.string(), set_name: z.string() })),
    did_you_mean: z.string().optional().meta({
      description:
        'Present only when `q` matched no product: the spelling-corrected text whose matches `products` are (`charzard` -> `charizard`).',
    }),
  })
  .register(apiComponents, { id: 'CatalogSearch' });

const confidence = z.object({ level: z.number(), low_minor: z.int(), high_minor: z.int() }).nullable().meta({
  description: "The slot's interval (meta.confidence of pricing v2); null when the bundle carries none.",
});

export const historyResponse = z
  .object({
    product_key: z.string(),
    slots: z.array(z.string()),
    every: z.string(),
    points: z.array(
      z
        .object({ at: z.iso.datetime() })
        .catchall(z.union([z.string(), z.object({ price_minor: z.int().nullable(), confidence })]))
        .meta({
          description: 'The instant, then one `{price_minor, confidence}` per requested slot, keyed by slot.',
        }),
    ),
  })
  .register(apiComponents, { id: 'History' });

const evidencePoint = z.object({
  condition: z.string(),
  observed_at: z.iso.datetime(),
  source: z.string(),
  price_minor: z.int(),
  kept: z.boolean(),
  reason: z.string().nullable().meta({
    description:
      'Why it was left out (`outlier: ...`, `outside_reference_set: ...`, `before_regime_change: ...`, `cross_check: ...`, `older_than_30_days: ...`); null when kept.',
  }),
  z: z.number().nullable().meta({
    description: "Its robust z against the filter's median and scale; null when it was not filtered.",
  }),
  weight: z.number().meta({
    description:
      "Its share of its condition's own estimate (ŷ = Σ weight · ln price_minor); 0 when not kept.",
  }),
  sales_volume: z.int().optional().meta({
    description:
      "A price guide's quote: how many sales it summarises, which weighs it (docs/methodology.md §4.1); absent for a sale.",
  }),
  matched_by: z.string().optional().meta({
    description:
      'How a sold listing that named no product was matched to this one by its title (`title: number 4/102 + name charizard + set base`); absent when the record named its product.',
  }),
});

const evidenceStep = z.object({
  name: z.string().meta({
    description:
      'reference_set, filter, own_estimate (per condition), cross_check, prediction, blend, own_range, then no_price (an estimate withheld, §9.1: the last step) or clamp, rounding, tier, interval, freshness.',
  }),
  condition: z.string().optional(),
  section: z.string().meta({ description: 'Section of docs/methodology.md.' }),
  doc: z.string(),
  text: z.string().meta({ description: 'The step in words and numbers.' }),
  value_minor: z
    .number()
    .nullable()
    .optional()
    .meta({ description: "The step's result in cents, unrounded except in `rounding`." }),
  value_ln: z.number().optional(),
  inputs: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: 'Every number the step used, exact.' }),
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

const convertedRates = z
  .object({
    currency: z.string(),
    rate_source: z.string(),
    rate_dates: z.object({ first: z.iso.date().nullable(), last: z.iso.date().nullable() }),
  })
  .meta({ description: 'With `currency`: which, the rate source, and the first and last rate day used.' });

export const salesResponse = z
  .object({
    id: z.string().nullable(),
    product_key: z.string(),
    product_name: z.string(),
    condition: z
      .string()
      .nullable()
      .meta({ description: 'The condition listed, or null for every condition.' }),
    as_of: z.iso.datetime(),
    window_hours: z.int(),
    outlier_stddevs: z.int(),
    since: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'The oldest instant listed with `span`; null: everything the price read.' }),
    total: z
      .int()
      .nonnegative()
      .meta({ description: 'Observations matching `condition` and `span`, before `limit`.' }),
    kept: z.int().nonnegative().meta({ description: 'How many of them entered the price.' }),
    limit: z.int(),
    sales: z.array(evidencePoint.extend({ converted_minor: z.int().optional() })).meta({
      description:
        'The newest `limit` of them, newest first: the points of the evidence route; with `currency`, `converted_minor` is the price in it.',
    }),
    converted: convertedRates.optional(),
  })
  .register(apiComponents, { id: 'Sales' });

const mover = z.object({
  product_key: z.string(),
  product_name: z.string(),
  set_name: z.string(),
  refsource_id: z.string().nullable(),
  observations: z.int().meta({ description: "Observations of the slot's condition in the span." }),
  from_minor: z.int().meta({ description: "The slot's price at the span's start." }),
  to_minor: z.int().meta({ description: "The slot's price at its end." }),
  change_minor: z.int(),
  change_pct: z.number().meta({ description: 'Percent of `from_minor`, one decimal.' }),
  converted: z
    .object({ from_minor: z.int(), to_minor: z.int(), change_minor: z.int(), change_pct: z.number() })
    .nullable()
    .optional()
    .meta({ description: "With `currency`: the same move in it, each end at its own days' rates." }),
});

export const moversResponse = z
  .object({
    condition: z.string(),
    span: z.string(),
    from: z.iso.datetime(),
    to: z.iso.datetime(),
    min_observations: z
      .int()
      .meta({ description: 'Observations of the condition a product needs in the span to be listed.' }),
    candidates: z.int().nonnegative().meta({ description: 'Products with that many.' }),
    priced: z.int().nonnegative().meta({ description: 'How many of them have a price at both ends.' }),
    limit: z.int(),
    gainers: z.array(mover).meta({ description: 'The largest rises in percent, largest first.' }),
    losers: z.array(mover).meta({ description: 'The largest falls in percent, largest first.' }),
    converted: convertedRates.optional(),
  })
  .register(apiComponents, { id: 'Movers' });

export const healthResponse = z.object({ status: z.literal('ok') }).register(apiComponents, { id: 'Health' });

export const readyResponse = z
  .object({
    status: z.literal('ready'),
    products: z.number().int().meta({ description: 'Products in the catalog.' }),
    observations: z.number().int().meta({ description: 'Observations stored.' }),
    keys: z
      .number()
      .int()
      .meta({ description: 'API keys that can call the API: stored and not revoked, plus ORACLE_API_KEYS.' }),
    refsource: z.enum(['upstream', 'offline', 'unconfigured']).meta({
      description:
        'How reference-source ids are resolved; `unconfigured`: the refsource and snapshot routes answer 503.',
    }),
  })
  .register(apiComponents, { id: 'Ready' });

export const errorResponse = z.object({ detail: z.string() }).register(apiComponents, { id: 'Error' });

/** The rate-limit headers (draft-ietf-httpapi-ratelimit-headers; CONTRACT.md decision 4), as rate-limit.ts computes them. */
export const rateLimitHeaders = z.object({
  'RateLimit-Limit': z.int().positive().meta({
    description: "Size of the key's token bucket: the requests a minute it refills (serve --rate-limit).",
  }),
  'RateLimit-Remaining': z
    .int()
    .nonnegative()
    .meta({ description: 'Whole tokens left in the bucket after this request.' }),
  'RateLimit-Reset': z.int().nonnegative().meta({ description: 'Seconds until the bucket is full again.' }),
});

export const retryAfterHeader = z
  .int()
  .positive()
  .meta({ description: 'Seconds until the bucket has a token again: retry no sooner.' });

export const wwwAuthenticateHeader = z.literal(BEARER_CHALLENGE).meta({
  description:
    'How to authenticate: a bearer token (`Authorization: Bearer <key>`), or the key in X-API-Key.',
});

export const openApiResponse = z
  .record(z.string(), z.unknown())
  .register(apiComponents, { id: 'OpenApiDocument' });

// The schemas and the domain types must describe the same bodies: these fail to compile otherwise.
/**
 * The keys of a body at every depth (through arrays and nullable values), each made required:
 * assignability alone lets either side lack an optional key, so `Same` compares these too.
 */
type KeysOf<T> = T extends readonly (infer E)[]
  ? KeysOf<E>
  : T extends object
    ? { [K in keyof T]-?: KeysOf<T[K]> }
    : never;
type Assignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** True when A and B take the same values and name the same keys, optional ones included. */
export type Same<A, B> = Assignable<A, B> extends true ? Assignable<KeysOf<A>, KeysOf<B>> : false;
const bundleMatches: Same<z.output<typeof pricingBundle>, PricingBundle> = true;
const catalogMatches: Same<z.output<typeof catalogResponse>, CatalogPageBody> = true;
void bundleMatches;
void catalogMatches;
const historyMatches: Same<z.output<typeof historyResponse>['product_key'], HistoryBody['product_key']> =
  true;
void historyMatches;
const evidenceMatches: Same<z.output<typeof evidenceResponse>, EvidenceBody> = true;
void evidenceMatches;
const searchMatches: Same<z.output<typeof searchResponse>, SearchBody> = true;
void searchMatches;
const salesMatches: Same<z.output<typeof salesResponse>, SalesBody> = true;
void salesMatches;
const moversMatches: Same<z.output<typeof moversResponse>, MoversBody> = true;
void moversMatches;
