/**
 * `oracle mcp`'s server: the Model Context Protocol's read-only tools over the one service
 * (service/oracle.ts), for an AI assistant. Each tool parses its arguments with the domain's
 * input schemas (tool-input.ts), makes one service call and answers JSON: the instant it is
 * as of, and for every price its basis (its own sales, or estimated from the card's other
 * conditions), its 80 % interval and the sources and dates it rests on, so an assistant can
 * cite it. Nothing here writes: every tool is annotated read-only, and no tool ingests, makes
 * keys or stores watch rules (the MCP specification's tool annotations, readOnlyHint).
 */
import { McpServer, type CallToolResult, type ToolAnnotations } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { PricingBundle, Slot } from '../domain/bundle.js';
import { OUTLIER_STDDEVS, WINDOW_HOURS } from '../domain/bundle.js';
import { csvLine } from '../domain/csv.js';
import { OracleError, ProductChoiceError } from '../domain/errors.js';
import { slot as slotInput } from '../domain/evidence.js';
import { every, parseHistoryRequest, slots, stepMs } from '../domain/history.js';
import { moversCondition, moversLimit, moversSpan } from '../domain/movers.js';
import { asOf, instant, outlierStddevs, productKey, refsourceId, windowHours } from '../domain/params.js';
import { searchLimit, searchText } from '../domain/search.js';
import { parseCollectionCsv } from '../domain/collection.js';
import { toIsoUtc } from '../domain/time.js';
import { searchBody } from '../service/catalog.js';
import type { Oracle } from '../service/oracle.js';
import type { ProductRef } from '../service/pricing.js';
import { described, toolInput } from './tool-input.js';

/** Every tool reads and changes nothing; its answers come from the local database alone. */
const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** How the server introduces itself to the assistant. */
const INSTRUCTIONS =
  'Prices of collectible trading cards from a local price oracle, computed from the sales and price-guide quotes in its own database. ' +
  'Amounts are integer US cents (`*_minor`). Every answer states `as_of`, the instant it is priced at; every price states its `basis`: ' +
  "`own` (from sales of that very condition) or `estimated` (from the card's other conditions; `basis_reason` says how), its 80 % interval, " +
  'its number of sales and their sources, and its newest observation. Cite these when you quote a price. ' +
  'Find a product_key with search_catalog first; explain_price shows every sale behind one price.';

const product = {
  product_key: described(
    z.optional(productKey),
    'Catalog key (from search_catalog), or a name that matches one product. Give this or refsource_id.',
  ),
  refsource_id: described(
    z.optional(refsourceId),
    "The product's reference-source id (digits), instead of product_key.",
  ),
};
const pricing = {
  at: described(
    z.optional(instant),
    'Price as of this instant, not later than now (default: now): ISO-8601 with Z or an offset, a UTC date (its close), a span before now (30d, 12h, 2w) or now.',
  ),
  window_hours: described(windowHours, `Lookback window in hours (${WINDOW_HOURS.min}-${WINDOW_HOURS.max}).`),
  outlier_stddevs: described(
    outlierStddevs,
    `Sales beyond this many robust standard deviations are left out (${OUTLIER_STDDEVS.min}-${OUTLIER_STDDEVS.max}).`,
  ),
};

/** The product the arguments name: exactly one of product_key and refsource_id. */
function refOf(args: { product_key?: string; refsource_id?: string }): ProductRef {
  if ((args.product_key === undefined) === (args.refsource_id === undefined))
    throw new ToolInputError('give either product_key or refsource_id, not both and not neither');
  return args.refsource_id === undefined
    ? { productKey: args.product_key as string, orName: true }
    : { refsourceId: args.refsource_id };
}

/** A mistake in a tool's arguments that their schema cannot see (two that exclude each other). */
class ToolInputError extends Error {}

/** One priced slot as an assistant cites it. */
function slotAnswer(name: string, slot: Slot) {
  const { meta } = slot;
  const confidence = meta.confidence as { level: number; low_minor: number; high_minor: number } | undefined;
  return {
    slot: name,
    price_minor: slot.price_minor,
    interval_80:
      confidence === undefined
        ? null
        : { low_minor: confidence.low_minor, high_minor: confidence.high_minor },
    basis: meta.basis ?? null,
    basis_reason: meta.basis_reason ?? null,
    no_price_reason: slot.error ?? meta.no_price_reason ?? null,
    sales_used: slot.included_points,
    sales_excluded: slot.excluded_points,
    // Counted for the ungraded slot only (SPEC.md's meta): explain_price names every sale's source.
    sources: (meta.source_counts as Record<string, number> | undefined) ?? null,
    newest_observation_at: (meta.newest_observation_at as string | undefined) ?? null,
    window_start: slot.window_start,
  };
}

/** The bundle as an assistant cites it: the product, the instant, and every slot with its basis. */
function priceAnswer(bundle: PricingBundle, at: number) {
  const graded = Object.values(bundle.graded).flatMap((grades) =>
    Object.values(grades).map((slot) => slotAnswer(slot.condition_key, slot)),
  );
  const extra = Object.values(bundle.extra_grades ?? {}).flatMap((grades) =>
    Object.values(grades).map((slot) => slotAnswer(slot.condition_key, slot)),
  );
  return {
    as_of: toIsoUtc(at),
    product_key: bundle.product_key,
    product: bundle.metadata,
    currency: bundle.ungraded.currency,
    methodology: bundle.ungraded.methodology,
    window_hours: bundle.window_hours,
    outlier_stddevs: bundle.outlier_stddevs,
    prices: [slotAnswer('ungraded', bundle.ungraded), ...graded, ...extra],
  };
}

/** A refusal in the tool's words: a name that matches several products points to the search tool. */
function toolMessage(error: OracleError | ToolInputError): string {
  return error instanceof ProductChoiceError ? error.describe('search_catalog lists them') : error.message;
}

/** A tool's answer: the JSON as text (what every client shows the model) and as structured content. */
function answer(body: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

/**
 * Runs a tool's call: the oracle's refusals (an unknown product, a parameter out of range, an
 * instant in the future) are the tool's error result, in the words the CLI and API use, for
 * the assistant to read and correct; anything else is a failure of the server, thrown.
 */
async function attempt(call: () => Promise<Record<string, unknown>>): Promise<CallToolResult> {
  try {
    return answer(await call());
  } catch (error) {
    if (error instanceof OracleError || error instanceof ToolInputError)
      return { isError: true, content: [{ type: 'text', text: toolMessage(error) }] };
    throw error;
  }
}

const collectionRow = z.strictObject({
  product_key: z.optional(productKey),
  refsource_id: z.optional(refsourceId),
  condition: z.string().describe('ungraded, or a grader and grade as written: psa10, "PSA 10", bgs9.5'),
  quantity: z.int().min(1).describe('How many of this card in this condition.'),
  cost_basis_minor: z.optional(z.int().min(0)).describe('What the units cost in total, in cents.'),
});
const COLLECTION_COLUMNS = [
  'product_key',
  'refsource_id',
  'condition',
  'quantity',
  'cost_basis_minor',
] as const;

/**
 * The rows as the collection file `oracle value` reads (domain/collection.ts), so each is
 * checked as a file's line is; row n is line n + 1, as a file's header is line 1.
 */
function collectionOf(rows: readonly z.output<typeof collectionRow>[]) {
  const lines = rows.map((row) => csvLine(COLLECTION_COLUMNS.map((column) => String(row[column] ?? ''))));
  return parseCollectionCsv(`${csvLine(COLLECTION_COLUMNS)}\n${lines.join('\n')}\n`, 'rows');
}

export interface McpDeps {
  oracle: Oracle;
  /** The clock, read at each call: an instant not later than now, and the default as-of instant. */
  now: () => number;
  version: string;
}

/** The MCP server over `oracle`, its tools registered; connect it to a transport to serve. */
export function createMcpServer({ oracle, now, version }: McpDeps): McpServer {
  const server = new McpServer({ name: 'oracle', version }, { instructions: INSTRUCTIONS });

  server.registerTool(
    'search_catalog',
    {
      title: 'Search the card catalog',
      description:
        'Find products by words in any order, each a prefix, across key, name, set and subtitle (typos are corrected: did_you_mean). Returns product keys to price.',
      inputSchema: toolInput({
        q: described(searchText, 'Words to find, e.g. "base charizard 4/102".'),
        limit: described(searchLimit, 'Most results, best match first.'),
      }),
      annotations: READ_ONLY,
    },
    ({ q, limit }) =>
      attempt(async () => ({
        as_of: toIsoUtc(now()),
        ...searchBody(q, limit, await oracle.search({ q, limit })),
      })),
  );

  server.registerTool(
    'price',
    {
      title: 'Price a card',
      description:
        'The price of every slot of a product (ungraded, PSA/BGS/CGC/SGC grades 7-10; extra_grades adds half grades and other graders) as of an instant, each with its 80 % interval, basis, sales count, sources and newest sale.',
      inputSchema: toolInput({
        ...product,
        ...pricing,
        extra_grades: described(
          z.optional(z.enum(['true', 'false'])),
          'true adds the grades outside the matrix that have sales of their own (BGS 9.5, TAG 10, CGC Pristine 10).',
        ),
      }),
      annotations: READ_ONLY,
    },
    (args) =>
      attempt(async () => {
        const clock = now();
        const at = asOf(args.at, clock, 'at');
        const bundle = await oracle.price({
          ref: refOf(args),
          query: {
            windowHours: args.window_hours,
            outlierStddevs: args.outlier_stddevs,
            asOf: at,
            extraGrades: args.extra_grades === 'true',
          },
          now: clock,
        });
        return priceAnswer(bundle, at);
      }),
  );

  server.registerTool(
    'explain_price',
    {
      title: 'Explain one price',
      description:
        "The evidence behind one slot's price: every sale and quote read (date, source, price), kept or why not, its weight, and each step from them to the price with its methodology section.",
      inputSchema: toolInput({
        ...product,
        slot: described(
          slotInput,
          'The slot: ungraded, psa9, "PSA 9", "BGS 9.5", "TAG 10", "CGC Pristine 10".',
        ),
        ...pricing,
      }),
      annotations: READ_ONLY,
    },
    (args) =>
      attempt(async () => {
        const clock = now();
        const query = {
          windowHours: args.window_hours,
          outlierStddevs: args.outlier_stddevs,
          asOf: asOf(args.at, clock, 'at'),
        };
        return { ...(await oracle.evidence({ ref: refOf(args), slot: args.slot, query, now: clock })) };
      }),
  );

  server.registerTool(
    'price_history',
    {
      title: 'Price history',
      description:
        "A product's prices at every step of a span (default: the last 90 days, daily): per slot its price and 80 % interval at each instant, with the change over the span.",
      inputSchema: toolInput({
        ...product,
        from: described(z.optional(instant), 'First instant (default: 90 days before to); same forms as at.'),
        to: described(z.optional(instant), 'Last instant, not later than now (default: now).'),
        every: described(every, 'Step between points: <n>h, <n>d or <n>w (at most 1,000 points).'),
        slots: described(slots, 'Comma-separated slots: ungraded, psa10, bgs9 ...'),
        window_hours: pricing.window_hours,
        outlier_stddevs: pricing.outlier_stddevs,
      }),
      annotations: READ_ONLY,
    },
    (args) =>
      attempt(async () => {
        const request = parseHistoryRequest(args, now());
        const history = await oracle.history({
          ref: refOf(args),
          params: { windowHours: args.window_hours, outlierStddevs: args.outlier_stddevs },
          request,
        });
        return { as_of: toIsoUtc(request.instants.at(-1) as number), ...history.body };
      }),
  );

  server.registerTool(
    'movers',
    {
      title: 'Biggest movers',
      description:
        "The catalog's biggest gainers and losers of one slot over a span ending at an instant, each priced at both ends; only products with enough sales in the span are ranked.",
      inputSchema: toolInput({
        condition: described(moversCondition, 'The slot: ungraded (default), psa10, "PSA 10", bgs9 ...'),
        span: described(moversSpan, 'How far back the move is measured: 12h, 7d, 30d, 2w.'),
        limit: described(moversLimit, 'Products listed on each side.'),
        ...pricing,
      }),
      annotations: READ_ONLY,
    },
    (args) =>
      attempt(async () => {
        const at = asOf(args.at, now(), 'at');
        const body = await oracle.movers({
          windowHours: args.window_hours,
          outlierStddevs: args.outlier_stddevs,
          asOf: at,
          condition: args.condition,
          span: args.span,
          spanMs: stepMs(args.span),
          limit: args.limit,
        });
        return { as_of: toIsoUtc(at), ...body };
      }),
  );

  server.registerTool(
    'value_collection',
    {
      title: 'Value a collection',
      description:
        "What a collection is worth as of an instant: each row's unit price, interval and subtotal, the total with its interval, and the gain against cost basis. A bad row is named in problems and the rest still valued.",
      inputSchema: toolInput({
        rows: z
          .array(collectionRow)
          .min(1)
          .max(10_000)
          .describe(
            'One row per card and condition: product_key or refsource_id, condition, quantity[, cost_basis_minor].',
          ),
        ...pricing,
      }),
      annotations: READ_ONLY,
    },
    (args) =>
      attempt(async () => {
        const at = asOf(args.at, now(), 'at');
        const { rows, problems } = collectionOf(args.rows);
        const valuation = await oracle.value({
          rows,
          problems,
          params: { windowHours: args.window_hours, outlierStddevs: args.outlier_stddevs, asOf: at },
        });
        return { as_of: valuation.at, ...valuation };
      }),
  );

  return server;
}
