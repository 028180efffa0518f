/**
 * The zod schemas of the API: path and query parameters (validated on every request, each
 * field with its fast parser, see input.ts) and response bodies (the routes' declared return
 * types, checked against the domain types below). The OpenAPI document is generated from
 * these same objects, so it cannot drift.
 */
import { z } from 'zod';
import { OUTLIER_STDDEVS, WINDOW_HOURS, type PricingBundle } from '../domain/bundle.js';
import { GRADERS, MATRIX_GRADES } from '../domain/conditions.js';
import { InvalidParameterError } from '../domain/errors.js';
import { parseIntInRange, parseOutlierStddevs, parseWindowHours } from '../domain/params.js';
import { ERAS, PRODUCT_TYPES } from '../domain/product.js';
import { SEARCH_LIMIT, type CatalogBody, type SearchBody } from '../service/catalog.js';
import { MAX_SEARCH_CHARS, parseSearchText } from '../domain/search.js';
import { HISTORY_DEFAULT_DAYS, HISTORY_DEFAULT_EVERY, HISTORY_DEFAULT_SLOTS, HISTORY_MAX_POINTS, SLOT_KEYS } from '../domain/history.js';
import type { HistoryBody } from '../service/history.js';
import { parseSlot, type EvidenceBody } from '../domain/evidence.js';
import { DEFER, withFastParse } from './input.js';

/**
 * A query parameter parsed by the shared domain parser (so the 400 names the parameter and
 * its range in the CLI's words) and documented by `doc`. A repeated parameter arrives as an
 * array; joined, it fails the parser like any other malformed value.
 */
function queryParam<T>(parse: (raw: string | undefined) => T, doc: Record<string, unknown>) {
  // The schema accepts any input and its transform decides: the same function is the fast path.
  const parseRaw = (raw: unknown) => parse(Array.isArray(raw) ? raw.join(',') : (raw as string | undefined));
  return withFastParse(z.unknown().optional().meta(doc).transform(parseRaw), parseRaw);
}

function intParam(parse: (raw: string | undefined) => number, range: { min: number; max: number; default: number }, description: string) {
  return queryParam(parse, { type: 'integer', minimum: range.min, maximum: range.max, default: range.default, description });
}

const windowHours = intParam(parseWindowHours, WINDOW_HOURS, 'TWAP lookback in hours.');
const outlierStddevs = intParam(
  parseOutlierStddevs,
  OUTLIER_STDDEVS,
  'Observations beyond this many standard deviations are dropped.',
);

/** A raw string parameter: checked by the route's handler, which has the request's clock. */
function rawParam(doc: Record<string, unknown>) {
  return queryParam((raw) => raw, { type: 'string', ...doc });
}

const at = rawParam({
  format: 'date-time',
  description: 'Price as of this ISO-8601 instant with `Z` or an offset, not later than now (default: now). Not in SPEC.md: point-in-time by key.',
});

export const pricingQuery = z.object({ window_hours: windowHours, outlier_stddevs: outlierStddevs, at });

export const evidenceQuery = z.object({
  slot: queryParam((raw) => parseSlot(raw), {
    type: 'string',
    enum: SLOT_KEYS,
    description: 'The slot to explain: `ungraded` or a grader and grade 7-10 (`psa9`). Required.',
  }),
  at,
  window_hours: windowHours,
  outlier_stddevs: outlierStddevs,
});

export const historyQuery = z.object({
  from: rawParam({ format: 'date-time', description: `First instant, ISO-8601 with zone (default: ${HISTORY_DEFAULT_DAYS} days before \`to\`).` }),
  to: rawParam({ format: 'date-time', description: 'Last instant, ISO-8601 with zone, not later than now (default: now). Points step back from it.' }),
  every: rawParam({ pattern: '^[1-9][0-9]{0,3}[hdw]$', default: HISTORY_DEFAULT_EVERY, description: `Step between points: \`<n>h\`, \`<n>d\` or \`<n>w\`. At most ${HISTORY_MAX_POINTS} points a request.` }),
  slots: rawParam({ default: HISTORY_DEFAULT_SLOTS.join(','), description: `Comma-separated slots: ${SLOT_KEYS.join(', ')}.` }),
  window_hours: windowHours,
  outlier_stddevs: outlierStddevs,
});

export const snapshotQuery = z.object({
  // Checked by the service (422, CONTRACT.md decision 2), which needs the clock.
  date: queryParam((raw) => raw, {
    type: 'string',
    format: 'date',
    description: 'UTC date YYYY-MM-DD, today at the latest. Window: 00:00Z of the date to 00:00Z of the next day.',
  }),
  outlier_stddevs: outlierStddevs,
});

export const searchQuery = z.object({
  q: queryParam((raw) => parseSearchText(raw), {
    type: 'string',
    minLength: 1,
    maxLength: MAX_SEARCH_CHARS,
    description: 'Words to find, in any order, each a prefix, across key, name, set and subtitle (e.g. `base charizard 4/102`, `char 4/102`). Punctuation is not syntax.',
  }),
  limit: intParam((raw) => parseIntInRange('limit', raw, SEARCH_LIMIT), SEARCH_LIMIT, 'Most results returned, best match first.'),
});

export const productKeyPath = z.object({
  product_key: withFastParse(z.string().min(1).meta({ description: 'Catalog key, URL-encoded.' }), (raw) =>
    typeof raw === 'string' && raw.length >= 1 ? raw : DEFER,
  ),
});

const REFSOURCE_ID = /^\d{1,20}$/;

function refsourceId(id: string): string {
  if (!REFSOURCE_ID.test(id)) {
    throw new InvalidParameterError('refsource_id', `refsource_id must be a string of 1 to 20 digits (got ${JSON.stringify(id)})`);
  }
  return id;
}

export const refsourceIdPath = z.object({
  refsource_id: withFastParse(
    z
      .string()
      .meta({ type: 'string', pattern: REFSOURCE_ID.source, description: 'Upstream reference-source product id (digits).' })
      .transform(refsourceId),
    (raw) => (typeof raw === 'string' ? refsourceId(raw) : DEFER),
  ),
});

/** The named response schemas: `components.schemas` of the OpenAPI document. */
export const apiComponents = z.registry<{ id: string }>();

const slot = z
  .object({
    price_minor: z.int().nullable(),
    currency: z.literal('USD'),
    condition_key: z.string(),
    methodology: z.string(),
    window_start: z.string(),
    window_end: z.string(),
    included_points: z.int(),
    excluded_points: z.int(),
    error: z.literal('no_observations').nullable(),
    meta: z.record(z.string(), z.unknown()),
  })
  .register(apiComponents, { id: 'Slot' });

const gradedSlot = slot
  .extend({ company: z.enum(GRADERS), grade: z.union(MATRIX_GRADES.map((g) => z.literal(g))) })
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
      release_date: z.string().nullable(),
    }),
  })
  .register(apiComponents, { id: 'OracleCardPricingResponse' });

const catalogProduct = z.object({
  product_key: z.string(),
  refsource_id: z.string().nullable(),
  product_name: z.string(),
  product_type: z.enum(PRODUCT_TYPES),
  era: z.enum(ERAS),
  earliest_observation: z.string().nullable(),
});

export const catalogResponse = z
  .object({ total: z.int(), products: z.array(catalogProduct) })
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
        .object({ at: z.string() })
        .catchall(z.union([z.string(), z.object({ price_minor: z.int().nullable(), confidence })]))
        .meta({ description: 'The instant, then one `{price_minor, confidence}` per requested slot, keyed by slot.' }),
    ),
  })
  .register(apiComponents, { id: 'History' });

const evidencePoint = z.object({
  condition: z.string(),
  observed_at: z.string(),
  source: z.string(),
  price_minor: z.int(),
  kept: z.boolean(),
  reason: z.string().nullable().meta({ description: 'Why it was left out (`outlier: ...`, `outside_reference_set: ...`, `before_regime_change: ...`, `cross_check: ...`, `older_than_30_days: ...`); null when kept.' }),
  z: z.number().nullable().meta({ description: "Its robust z against the filter's median and scale; null when it was not filtered." }),
  weight: z.number().meta({ description: "Its share of its condition's own estimate (ŷ = Σ weight · ln price_minor); 0 when not kept." }),
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
    as_of: z.string(),
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
