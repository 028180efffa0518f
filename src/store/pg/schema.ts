/**
 * The PostgreSQL schema: the tables, columns and indexes of the SQLite schema (../schema.ts)
 * in drizzle-orm's pg dialect. Migrations in drizzle-pg/ are generated from this file with
 * `npm run db:generate:pg` and applied when a PostgreSQL store is opened. Times are epoch
 * milliseconds in bigint columns (read back as numbers: they stay far below 2^53); money is
 * integer US cents.
 *
 * Where the dialects differ: catalog search is a tsvector (GIN-indexed) over `search_text`,
 * the product's words as the SQLite FTS5 tokenizer splits and folds them, written by the store
 * (search.ts); booleans are booleans.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const epochMs = (name: string) => bigint(name, { mode: 'number' });

export const products = pgTable(
  'products',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    productKey: text('product_key').notNull(),
    refsourceId: text('refsource_id'),
    productName: text('product_name').notNull(),
    subtitle: text('subtitle').notNull().default(''),
    setName: text('set_name').notNull().default(''),
    imageUrl: text('image_url').notNull().default(''),
    productType: text('product_type', { enum: ['single_card', 'booster_box'] })
      .notNull()
      .default('single_card'),
    era: text('era', { enum: ['modern', 'vintage'] })
      .notNull()
      .default('modern'),
    releaseDate: text('release_date'),
    tcgplayerId: text('tcgplayer_id'),
    printing: text('printing'),
    language: text('language'),
    earliestObservedAt: epochMs('earliest_observed_at'),
    observationCount: bigint('observation_count', { mode: 'number' }).notNull().default(0),
    /** Key, name, set and subtitle as words (search.ts), the columns separated by a tab. */
    searchText: text('search_text').notNull().default(''),
    /** How many words search_text holds: bm25's document length. */
    searchSize: integer('search_size').notNull().default(0),
    search: tsvector('search').generatedAlwaysAs(sql`to_tsvector('simple'::regconfig, search_text)`),
  },
  (t) => [
    uniqueIndex('products_product_key').on(t.productKey),
    uniqueIndex('products_refsource_id').on(t.refsourceId),
    index('products_tcgplayer_id').on(t.tcgplayerId, t.printing),
    index('products_search').using('gin', t.search),
  ],
);

/** The identity crosswalk, as in SQLite (../schema.ts). */
export const productIdentities = pgTable(
  'product_identities',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    scheme: text('scheme').notNull(),
    value: text('value').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.scheme] }),
    uniqueIndex('product_identities_scheme_value').on(t.scheme, t.value),
  ],
);

export const observations = pgTable(
  'observations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    condition: text('condition').notNull(),
    observedAt: epochMs('observed_at').notNull(),
    priceMinor: bigint('price_minor', { mode: 'number' }).notNull(),
    source: text('source').notNull(),
    grader: text('grader').notNull(),
    grade: doublePrecision('grade'),
    externalId: text('external_id').notNull().default(''),
    salesVolume: integer('sales_volume'),
    matchedBy: text('matched_by'),
    currency: text('currency').notNull().default('USD'),
    amountMinor: bigint('amount_minor', { mode: 'number' }),
  },
  (t) => [
    // The same two indexes as SQLite's (../schema.ts): pricing range scans, and the identity.
    uniqueIndex('observations_pricing').on(
      t.productId,
      t.condition,
      t.observedAt,
      t.priceMinor,
      t.source,
      t.externalId,
    ),
    uniqueIndex('observations_source_external_id')
      .on(t.source, t.externalId)
      .where(sql`external_id <> ''`),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    label: text('label').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdAt: epochMs('created_at').notNull(),
    lastUsedAt: epochMs('last_used_at'),
    revokedAt: epochMs('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_secret_hash').on(t.secretHash)],
);

export const ingestRuns = pgTable('ingest_runs', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  source: text('source').notNull(),
  kind: text('kind').notNull(),
  format: text('format').notNull(),
  dryRun: boolean('dry_run').notNull().default(false),
  startedAt: epochMs('started_at').notNull(),
  finishedAt: epochMs('finished_at'),
  status: text('status').notNull().default('running'),
  host: text('host'),
  pid: integer('pid'),
  readCount: bigint('read_count', { mode: 'number' }).notNull().default(0),
  insertedCount: bigint('inserted_count', { mode: 'number' }).notNull().default(0),
  duplicateCount: bigint('duplicate_count', { mode: 'number' }).notNull().default(0),
  rejectedCount: bigint('rejected_count', { mode: 'number' }).notNull().default(0),
  error: text('error'),
});

export const calibrations = pgTable(
  'calibrations',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    asOf: epochMs('as_of').notNull(),
    createdAt: epochMs('created_at').notNull(),
    body: text('body').notNull(),
  },
  (t) => [index('calibrations_as_of').on(t.asOf)],
);

/**
 * One row: a counter every committed write that changes what pricing reads (an ingest's
 * commit, a calibration; any other writer's statement on observations, by the trigger of
 * drizzle-pg/0004, which drizzle's schema does not describe) bumps in its own transaction,
 * and a NOTIFY on `oracle_data` with it. Replicas keep the last value they heard and drop
 * cached bundles and points when it moves.
 */
export const dataVersion = pgTable('data_version', {
  id: integer('id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
});

/** Watch rules, as SQLite's (../schema.ts `watchRules`). */
export const watchRules = pgTable('watch_rules', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  label: text('label').notNull(),
  productKey: text('product_key').notNull(),
  slot: text('slot').notNull(),
  kind: text('kind').notNull(),
  amountMinor: bigint('amount_minor', { mode: 'number' }),
  percent: doublePrecision('percent'),
  direction: text('direction'),
  spanMs: epochMs('span_ms'),
  webhookUrl: text('webhook_url'),
  createdAt: epochMs('created_at').notNull(),
  firing: boolean('firing').notNull().default(false),
  lastValue: doublePrecision('last_value'),
  changedAt: epochMs('changed_at'),
});

/** The outbox of watch events, as SQLite's (../schema.ts `watchEvents`). */
export const watchEvents = pgTable(
  'watch_events',
  {
    id: text('id').primaryKey(),
    ruleId: integer('rule_id').notNull(),
    createdAt: epochMs('created_at').notNull(),
    body: text('body').notNull(),
    webhookUrl: text('webhook_url'),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastAttemptAt: epochMs('last_attempt_at'),
    lastError: text('last_error'),
    deliveredAt: epochMs('delivered_at'),
  },
  (t) => [
    index('watch_events_created_at').on(t.createdAt),
    index('watch_events_status').on(t.status, t.createdAt),
  ],
);

/** Reference exchange rates, as SQLite's (../schema.ts `fxRates`). */
export const fxRates = pgTable(
  'fx_rates',
  {
    day: text('day').notNull(),
    currency: text('currency').notNull(),
    perEuro: doublePrecision('per_euro').notNull(),
    source: text('source').notNull(),
  },
  (t) => [uniqueIndex('fx_rates_currency_day').on(t.currency, t.day)],
);

/** Market index definitions, as SQLite's (../schema.ts `marketIndexes`). */
export const marketIndexes = pgTable(
  'market_indexes',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    name: text('name').notNull(),
    label: text('label').notNull(),
    selector: text('selector').notNull(),
    selectorValue: text('selector_value').notNull(),
    slot: text('slot').notNull(),
    method: text('method').notNull(),
    baseDate: text('base_date').notNull(),
    createdAt: epochMs('created_at').notNull(),
  },
  (t) => [uniqueIndex('market_indexes_name').on(t.name)],
);

/** Published market index values, as SQLite's (../schema.ts `indexValues`). */
export const indexValues = pgTable(
  'index_values',
  {
    indexId: integer('index_id')
      .notNull()
      .references(() => marketIndexes.id),
    at: epochMs('at').notNull(),
    version: integer('version').notNull(),
    value: doublePrecision('value').notNull(),
    low: doublePrecision('low').notNull(),
    high: doublePrecision('high').notNull(),
    priced: integer('priced').notNull(),
    linked: integer('linked').notNull(),
    publishedAt: epochMs('published_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.indexId, t.at, t.version] })],
);
