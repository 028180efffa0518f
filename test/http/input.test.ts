// @module-tag sqlite-only: each route's schema against the server's answers: the parsing is the same on every
// store
/**
 * The route input schemas (src/http/schemas.ts) are what the server enforces: queries made
 * from the OpenAPI document's own parameter constraints, valid and not, sent to a real server
 * on port 0. A query the schema refuses must answer 4xx with the schema's detail, one it takes
 * must be priced, and one the document calls valid must be taken. Beside it, a route's schema
 * takes and refuses a field as the field's domain schema does read on its own, as the CLI reads
 * it, in the same words.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidDateError } from '../../src/domain/errors.js';
import { slot } from '../../src/domain/evidence.js';
import { every, parseHistoryRequest, slots } from '../../src/domain/history.js';
import { readInput, type InputSchema } from '../../src/domain/input.js';
import {
  asOf,
  instant,
  outlierStddevs,
  snapshotDate,
  snapshotWindow,
  windowHours,
} from '../../src/domain/params.js';
import { searchLimit, searchText } from '../../src/domain/search.js';
import { toIsoUtc, toUtcDate } from '../../src/domain/time.js';
import { inputParser } from '../../src/http/input.js';
import {
  evidenceQuery,
  historyQuery,
  moversQuery,
  pricingQuery,
  salesQuery,
  searchQuery,
  snapshotQuery,
} from '../../src/http/schemas.js';
import {
  DAY,
  getJson,
  jsonSchemaValidator,
  pricingPath,
  PRODUCTS,
  STORED_KEY,
  useSeededServer,
} from './_helpers.js';

const NOW = Date.now();
const seeded = useSeededServer(NOW);

/** What parsing one value gave: the value, or the error's class and message. */
type Outcome = { ok: true } | { ok: false; error: string; message: string };

function outcome(parse: () => unknown): Outcome {
  try {
    parse();
    return { ok: true };
  } catch (error) {
    return { ok: false, error: (error as Error).constructor.name, message: (error as Error).message };
  }
}

// Strings near the valid ones as well as anything: digits, signs, spaces, dates, slots, steps.
const NEAR = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.stringMatching(/^[ +\-0-9.e]{0,6}$/),
  fc.stringMatching(/^ ?(ungraded|[pPbBcCsS][sSgG][aAsScC]1?[0-9]) ?$/),
  fc.stringMatching(/^[0-9]{1,5}[hdwmy]?$/),
  fc.stringMatching(
    /^[0-9]{4}-[0-9]{1,2}-[0-9]{2}([Tt ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,10})?)?([zZ]|[+-][0-9]{2}:?[0-9]{2})?)?$/,
  ),
);

/** A field's domain schema read on its own, as `name`; a snapshot date's refusal is a 422's error. */
function alone(schema: InputSchema, name: string, optional = false) {
  return (raw: string | undefined) => {
    if (optional && raw === undefined) return undefined;
    try {
      return readInput(schema, raw, name);
    } catch (error) {
      throw schema === snapshotDate ? new InvalidDateError(name, (error as Error).message) : error;
    }
  };
}

const FIELDS: [string, z.ZodObject, string, (raw: string | undefined) => unknown][] = [
  ['window_hours', pricingQuery, 'window_hours', alone(windowHours, 'window_hours')],
  ['outlier_stddevs', snapshotQuery, 'outlier_stddevs', alone(outlierStddevs, 'outlier_stddevs')],
  ['at', pricingQuery, 'at', alone(instant, 'at', true)],
  ['slot', evidenceQuery, 'slot', alone(slot, 'slot')],
  ['every', historyQuery, 'every', alone(every, 'every')],
  ['slots', historyQuery, 'slots', alone(slots, 'slots')],
  ['date', snapshotQuery, 'date', alone(snapshotDate, 'date')],
  ['q', searchQuery, 'q', alone(searchText, 'q')],
  ['limit', searchQuery, 'limit', alone(searchLimit, 'limit')],
];

/** Values every other field of the query takes, so only the field under test decides. */
const OTHERS: Record<string, string> = { slot: 'ungraded', date: '2025-01-01', q: 'charizard' };

describe('the route schemas and the domain input schemas', () => {
  it.each(FIELDS)('take and refuse the same %s values, in the same words', (_name, schema, field, parse) => {
    const parseInput = inputParser(schema);
    fc.assert(
      fc.property(fc.option(NEAR, { nil: undefined }), (raw) => {
        const others = Object.fromEntries(
          Object.entries(OTHERS).filter(([name]) => name !== field && name in schema.shape),
        );
        const viaSchema = outcome(() => parseInput({ ...others, [field]: raw }));
        expect(viaSchema, JSON.stringify(raw)).toEqual(outcome(() => parse(raw)));
      }),
      { numRuns: 400 },
    );
  });
});

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: Record<string, unknown> & {
    type?: string;
    enum?: unknown[];
    pattern?: string;
    format?: string;
    minimum?: number;
    maximum?: number;
  };
}

/** Values for one documented parameter: mostly from its constraints (in range, at the edges, outside), sometimes anything. */
function valuesFor(p: Parameter): fc.Arbitrary<unknown> {
  const s = p.schema;
  const variants: fc.Arbitrary<unknown>[] = [];
  if (s.type === 'integer') {
    const [min, max] = [s.minimum ?? -1000, s.maximum ?? 1000];
    variants.push(
      fc.integer({ min: min - 3, max: max + 3 }),
      fc.integer({ min, max }).chain((n) => fc.constantFrom(`0${n}`, `+${n}`, ` ${n}`, `${n}.0`)),
    );
  }
  if (s.enum)
    variants.push(
      fc.constantFrom(...s.enum),
      fc.constantFrom(...(s.enum as string[])).map((v) => ` ${v.toUpperCase()}`),
    );
  if (s.pattern) variants.push(fc.stringMatching(new RegExp(s.pattern)));
  // Within the last 60 days, so a history's span is often within its limit.
  const past = fc.date({ min: new Date(NOW - 60 * DAY), max: new Date(NOW - DAY), noInvalidDate: true });
  if (s.format === 'date')
    variants.push(
      past.map((d) => toUtcDate(d.getTime())),
      fc.stringMatching(/^20[0-9]{2}-(0[0-9]|1[0-3])-([0-2][0-9]|3[0-2])$/),
    );
  // An instant (at, from, to), as people write it: ISO-8601, a date alone, a span before now, now.
  if (['at', 'from', 'to'].includes(p.name)) {
    variants.push(
      past.map((d) => d.toISOString()),
      past.map((d) => toIsoUtc(d.getTime()).replace('Z', '+02:00')),
      past.map((d) => d.toISOString().slice(0, 19)),
    );
    variants.push(
      past.map((d) => toUtcDate(d.getTime())),
      fc.constantFrom('now', 'NOW', '0d', '2w', '30d ago'),
      fc.integer({ min: 1, max: 1500 }).map((h) => `${h}h`),
    );
  }
  if (variants.length === 0) variants.push(fc.string({ minLength: 1, maxLength: 20 }));
  const value = fc.oneof(
    { arbitrary: fc.oneof(...variants), weight: 4 },
    { arbitrary: fc.string({ maxLength: 12 }), weight: 1 },
    // The seeded store holds no rates, so only USD is taken: drawn mostly, so a route with many
    // parameters (movers, sales) still has requests taken.
    ...(p.name === 'currency' ? [{ arbitrary: fc.constantFrom('USD', 'usd'), weight: 10 }] : []),
  );
  return p.required ? value : fc.option(value, { nil: undefined, freq: 3 });
}

const ajv = jsonSchemaValidator();

const atCheck = (q: Record<string, string>) => asOf(q.at, NOW, 'at');

const ROUTES = [
  {
    route: 'pricing',
    path: pricingPath(PRODUCTS.plain.productKey),
    schema: pricingQuery,
    clockChecks: atCheck,
  },
  {
    route: 'refsource',
    path: `/api/v1/developer/refsource/${PRODUCTS.plain.refsourceId}`,
    schema: pricingQuery,
    clockChecks: atCheck,
  },
  {
    route: 'snapshot',
    path: `/api/v1/developer/refsource/${PRODUCTS.plain.refsourceId}/snapshot`,
    schema: snapshotQuery,
    clockChecks: (q: Record<string, string>) => snapshotWindow(q.date as string, NOW, 'date'),
  },
  {
    route: 'evidence',
    path: pricingPath(PRODUCTS.plain.productKey, '/evidence'),
    schema: evidenceQuery,
    clockChecks: atCheck,
  },
  {
    route: 'history',
    path: pricingPath(PRODUCTS.plain.productKey, '/history'),
    schema: historyQuery,
    clockChecks: (q: Record<string, string>) => parseHistoryRequest(q, NOW),
  },
  {
    route: 'search',
    path: '/api/v1/developer/catalog/search',
    schema: searchQuery,
    clockChecks: () => undefined,
  },
  {
    route: 'sales',
    path: pricingPath(PRODUCTS.plain.productKey, '/sales'),
    schema: salesQuery,
    clockChecks: atCheck,
  },
  {
    route: 'movers',
    path: '/api/v1/developer/movers',
    schema: moversQuery,
    clockChecks: atCheck,
    // Seven parameters, each often malformed: few requests are taken in 80 runs.
    runs: 160,
  },
];

/** The documented template of a concrete path. */
function templateOf(doc: { paths: Record<string, unknown> }, path: string): string {
  const found = Object.keys(doc.paths).find((t) =>
    new RegExp(`^${t.replace(/\{\w+\}/g, '[^/]+')}$`).test(path),
  );
  if (!found) throw new Error(`no documented path for ${path}`);
  return found;
}

describe('queries made from the OpenAPI document against a real server', () => {
  it.each(ROUTES)(
    'the $route route refuses what its schema refuses and takes what it and the document take',
    async ({ path, schema, clockChecks, runs }) => {
      const doc = await getJson(`${seeded.server.url}/api/v1/openapi.json`);
      const query = (doc.paths[templateOf(doc, path)].get.parameters as Parameter[]).filter(
        (p) => p.in === 'query',
      );
      const record = fc.record(Object.fromEntries(query.map((p) => [p.name, valuesFor(p)])));
      let refused = 0;
      let taken = 0;
      await fc.assert(
        fc.asyncProperty(record, async (values) => {
          const sent = Object.fromEntries(
            Object.entries(values)
              .filter(([, v]) => v !== undefined)
              .map(([k, v]) => [k, String(v)]),
          );
          const documented = query.every((p) =>
            values[p.name] === undefined ? !p.required : ajv.validate(p.schema, values[p.name]),
          );
          const res = await fetch(`${seeded.server.url}${path}?${new URLSearchParams(sent)}`, {
            headers: { 'x-api-key': STORED_KEY },
          });
          const body = (await res.json()) as { detail?: string };
          const parsed = outcome(() => inputParser(schema)(sent));
          // Then the checks that need the clock or several fields, made after the schema: the same here.
          const expected = parsed.ok
            ? outcome(() => clockChecks(inputParser(schema)(sent) as Record<string, string>))
            : parsed;
          const label = `${JSON.stringify(sent)} -> ${res.status} ${JSON.stringify(body).slice(0, 200)}`;
          if (documented) expect(parsed, label).toEqual({ ok: true });
          // A currency is checked against the rates the store holds, after the schema: the seeded store
          // holds none, so any code but USD is refused, naming the rates to ingest.
          const unrated = expected.ok && sent.currency !== undefined && sent.currency.toUpperCase() !== 'USD';
          if (unrated) {
            refused += 1;
            expect(res.status, label).toBe(400);
            expect(body.detail, label).toMatch(/no reference rate is stored for it/);
          } else if (expected.ok) {
            taken += 1;
            expect(res.status, label).toBe(200);
          } else {
            refused += 1;
            expect(res.status, label).toBe(expected.error === 'InvalidDateError' ? 422 : 400);
            // A refusal of a future instant names now, which the server read a moment after this test.
            const clockless = (m: string | undefined) => m?.replace(/\(now is [^)]*\)/, '(now is ...)');
            expect(clockless(body.detail), label).toBe(clockless(expected.message));
          }
        }),
        // A fixed seed: the counts below must not depend on the luck of a draw.
        { numRuns: runs ?? 80, seed: 20261123 },
      );
      // Both sides of the schema were tried.
      expect(refused).toBeGreaterThan(3);
      expect(taken).toBeGreaterThan(3);
    },
  );
});
