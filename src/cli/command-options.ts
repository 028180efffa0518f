/**
 * What each command's options hold once commander and their parsers (options.ts, through the
 * domain's input schemas) made them, one zod object per command. A command reads its options
 * through its object (optionsOf): they are typed without a cast, and an option whose parser
 * made something else fails here, as a bug, rather than deeper in the command.
 *
 * This is the chosen equivalent of commander's extra typings (issue 20): those would need
 * @commander-js/extra-typings, which is not installed, and commander's own Option objects carry
 * no value type to derive one from, so the types come from these objects alone, with no cast.
 * The parse is the price of that one source of types: a check of a few values per command run.
 */
import * as z from 'zod/mini';
import type { CommandContext } from './context.js';

// Functions, not schemas: each command's object is built on its first parse (input.ts, `deferred`).
const flag = () => z.optional(z.boolean());
const text = () => z.optional(z.string());
/** An instant as the options' parsers give it: epoch ms, the run's clock when not given. */
const epochMs = () => z.number();

/** `--window-hours`, `--outlier-stddevs` and `--at`, which the pricing commands share. */
const pricingShape = () => ({
  windowHours: z.int(),
  outlierStddevs: z.int(),
  at: epochMs(),
  currency: z.optional(z.string()),
});

export const priceOptions = z.lazy(() =>
  z.object({ ...pricingShape(), refsource: text(), json: flag(), extraGrades: flag() }),
);
export const explainOptions = z.lazy(() =>
  z.object({ ...pricingShape(), refsource: text(), slot: text(), json: flag() }),
);
export const salesOptions = z.lazy(() =>
  z.object({
    ...pricingShape(),
    refsource: text(),
    condition: text(),
    /** The span in ms. */
    span: z.optional(z.number()),
    limit: z.int(),
    json: flag(),
    csv: flag(),
  }),
);
export const moversOptions = z.lazy(() =>
  z.object({
    ...pricingShape(),
    condition: z.string(),
    span: z.object({ text: z.string(), ms: z.number() }),
    limit: z.int(),
    json: flag(),
  }),
);
export const valueOptions = z.lazy(() =>
  z.object({
    ...pricingShape(),
    json: flag(),
    csv: flag(),
    history: flag(),
    from: text(),
    to: text(),
    every: text(),
  }),
);
export const exportOptions = z.lazy(() =>
  z.object({ ...pricingShape(), format: z.enum(['ndjson', 'csv']), out: text() }),
);

export const historyOptions = z.lazy(() =>
  z.object({
    refsource: text(),
    windowHours: z.int(),
    outlierStddevs: z.int(),
    currency: text(),
    slots: z.string(),
    every: z.string(),
    from: text(),
    to: text(),
    json: flag(),
    csv: flag(),
  }),
);

export const snapshotOptions = z.lazy(() =>
  z.object({
    date: z.object({ start: epochMs(), end: epochMs() }),
    outlierStddevs: z.int(),
    currency: text(),
    json: flag(),
  }),
);

export const ingestOptions = z.lazy(() =>
  z.object({
    kind: z.optional(z.enum(['observations', 'catalog'])),
    format: text(),
    rejects: text(),
    maxRejects: z.int(),
    dryRun: flag(),
    /** Undefined: the format's default (the run's clock, or the date in a tcgcsv archive path). */
    observedAt: z.optional(epochMs()),
    subtype: text(),
    groups: text(),
    /** Seconds. */
    lockWait: z.int(),
    /** Seconds. */
    urlDeadline: z.int(),
    /** Bytes a second. */
    urlMinRate: z.int(),
    /** Seconds. */
    urlMinRateTime: z.int(),
  }),
);

export const calibrateOptions = z.lazy(() => z.object({ at: epochMs(), show: flag(), json: flag() }));
export const catalogOptions = z.lazy(() => z.object({ json: flag(), search: text() }));
export const keysCreateOptions = z.lazy(() => z.object({ label: z.string() }));
export const keysListOptions = z.lazy(() => z.object({ json: flag() }));

export const watchAddOptions = z.lazy(() =>
  z.object({
    slot: z.string(),
    index: text(),
    above: z.optional(z.int()),
    below: z.optional(z.int()),
    move: z.optional(z.object({ percent: z.number(), direction: z.enum(['up', 'down', 'either']) })),
    over: z.optional(z.number()),
    narrower: z.optional(z.int()),
    wider: z.optional(z.int()),
    stale: flag(),
    label: text(),
    webhook: text(),
    json: flag(),
  }),
);
export const watchListOptions = z.lazy(() => z.object({ json: flag() }));
export const watchCheckOptions = z.lazy(() => z.object({ at: epochMs(), webhook: text(), json: flag() }));
export const watchEventsOptions = z.lazy(() => z.object({ pending: flag(), limit: z.int(), json: flag() }));

export const serveOptionValues = z.lazy(() =>
  z.object({
    host: z.string(),
    port: z.int(),
    rateLimit: z.int(),
    refsourceUrl: text(),
    refsourceToken: text(),
    offline: flag(),
    apiKeys: z.array(z.string()),
    redis: text(),
    metrics: z.boolean(),
    cors: z.array(z.string()),
    public: flag(),
    dbConnectTimeout: z.int(),
    dbStatementTimeout: z.int(),
    watch: flag(),
    webhook: text(),
  }),
);

/** The options of the command `ctx` runs, as `schema` says they are. */
export function optionsOf<S extends z.ZodMiniType>(ctx: CommandContext, schema: S): z.output<S> {
  return schema.parse(ctx.options);
}

export const indexAddOptions = z.lazy(() =>
  z.object({
    label: text(),
    set: text(),
    era: text(),
    type: text(),
    search: text(),
    products: text(),
    slot: text(),
    method: text(),
    baseDate: text(),
    lockWait: z.int(),
  }),
);
export const indexListOptions = z.lazy(() => z.object({ json: flag() }));
export const indexShowOptions = z.lazy(() =>
  z.object({
    windowHours: z.int(),
    outlierStddevs: z.int(),
    from: text(),
    to: text(),
    every: text(),
    version: z.optional(z.int()),
    json: flag(),
    csv: flag(),
  }),
);
export const indexPublishOptions = z.lazy(() => z.object({ to: text(), json: flag(), lockWait: z.int() }));
