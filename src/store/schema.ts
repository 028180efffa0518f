/**
 * The SQLite schema, in drizzle-orm. Migrations in drizzle/ are generated from this file
 * with `npm run db:generate` and applied automatically when a store is opened.
 * Times are integer epoch milliseconds (UTC); money is integer US cents.
 */

import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const products = sqliteTable(
  'products',
  {
    id: integer('id').primaryKey(),
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
    /**
     * The printing of the card this product is, as TCGplayer names it (`Normal`, `Holofoil`,
     * `Reverse Holofoil`, `1st Edition`, ...); null for a product of one printing or its
     * regular one. With tcgplayer_id it maps a TCGplayer price row onto the product
     * (docs/feeds.md); ingest keeps (tcgplayer_id, printing) unique.
     */
    printing: text('printing'),
    /**
     * The language the card is printed in, as its feed names it (`Japanese`); null for
     * English, the language the feeds assume when they name none.
     */
    language: text('language'),
    // Maintained by every observation insert, in the same transaction, so the catalog
    // never scans the observation table for its earliest date or its count.
    earliestObservedAt: integer('earliest_observed_at'),
    observationCount: integer('observation_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('products_product_key').on(t.productKey),
    uniqueIndex('products_refsource_id').on(t.refsourceId),
    index('products_tcgplayer_id').on(t.tcgplayerId, t.printing),
  ],
);

/**
 * The identity crosswalk (domain/identity.ts): the product each source's own id names, one value
 * per (product, scheme) and one product per (scheme, value). Written by catalog ingest.
 */
export const productIdentities = sqliteTable(
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

export const observations = sqliteTable(
  'observations',
  {
    id: integer('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    /** `ungraded`, `psa10`, `any9`, `bgs9.5`: what the pricing query ranges over. */
    condition: text('condition').notNull(),
    observedAt: integer('observed_at').notNull(),
    priceMinor: integer('price_minor').notNull(),
    source: text('source').notNull(),
    grader: text('grader').notNull(),
    grade: real('grade'),
    /** The source's own id of the sale or quote; '' when it has none (so the identity index can see it). */
    externalId: text('external_id').notNull().default(''),
    /** How many sales a price guide's quote summarises (PriceCharting's sales-volume); null for a sale. */
    salesVolume: integer('sales_volume'),
    /** How a sold listing was matched to its product from its title; null when the record named it. */
    matchedBy: text('matched_by'),
    /**
     * The currency the source priced the observation in (ISO 4217); `price_minor` is always US
     * cents, converted at ingest at the ECB reference rate of the observation's day
     * (docs/methodology.md, "Currencies").
     */
    currency: text('currency').notNull().default('USD'),
    /** The amount in `currency`'s own minor units, exactly as the source gave it; null for USD (= price_minor). */
    amountMinor: integer('amount_minor'),
  },
  (t) => [
    // Two jobs, one index. Pricing: (product, condition IN (...), time range) is a range scan
    // per condition, with price and source read from the index itself. Idempotency
    // (CONTRACT.md): a record without an external id is unique on all its fields, and the
    // condition encodes grader and grade, so these columns are all of them.
    uniqueIndex('observations_pricing').on(
      t.productId,
      t.condition,
      t.observedAt,
      t.priceMinor,
      t.source,
      t.externalId,
    ),
    // A record with an external id is unique per (source, external id).
    uniqueIndex('observations_source_external_id')
      .on(t.source, t.externalId)
      .where(sql`external_id <> ''`),
  ],
);

export const apiKeys = sqliteTable(
  'api_keys',
  {
    /** Public key id shown by `keys list` and in access logs; never the secret. */
    id: text('id').primaryKey(),
    label: text('label').notNull(),
    /** SHA-256 of the secret, hex. The secret itself is never stored. */
    secretHash: text('secret_hash').notNull(),
    createdAt: integer('created_at').notNull(),
    lastUsedAt: integer('last_used_at'),
    revokedAt: integer('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_secret_hash').on(t.secretHash)],
);

export const ingestRuns = sqliteTable('ingest_runs', {
  id: integer('id').primaryKey(),
  source: text('source').notNull(),
  kind: text('kind').notNull(),
  format: text('format').notNull(),
  dryRun: integer('dry_run', { mode: 'boolean' }).notNull().default(false),
  startedAt: integer('started_at').notNull(),
  finishedAt: integer('finished_at'),
  /**
   * `running` until the run ends; `ok`, `rejected` (over --max-rejects), `failed`, or
   * `interrupted` (a signal stopped it, or its process died: see host and pid).
   */
  status: text('status').notNull().default('running'),
  /** The process running the ingest: a `running` row whose process is gone was killed. */
  host: text('host'),
  pid: integer('pid'),
  readCount: integer('read_count').notNull().default(0),
  insertedCount: integer('inserted_count').notNull().default(0),
  duplicateCount: integer('duplicate_count').notNull().default(0),
  rejectedCount: integer('rejected_count').notNull().default(0),
  error: text('error'),
});

/**
 * Grader premiums and grade ratios fitted from the catalog's own observations by
 * `oracle calibrate` (docs/methodology.md, calibration). One row per fit; the engine uses the
 * newest fit whose `as_of` is not after the instant priced, so a historical price never
 * sees a calibration from its future.
 */
export const calibrations = sqliteTable(
  'calibrations',
  {
    id: integer('id').primaryKey(),
    /** The instant the fit read observations before (epoch ms). */
    asOf: integer('as_of').notNull(),
    /** When the fit ran (epoch ms). */
    createdAt: integer('created_at').notNull(),
    /** The fitted tables as JSON (engine `Calibration` shape, without the dates). */
    body: text('body').notNull(),
  },
  (t) => [index('calibrations_as_of').on(t.asOf)],
);

/**
 * Watch rules (`oracle watch add`, docs/alerts.md): one condition on one slot of one product,
 * and the state that makes a rule fire once per crossing: `firing` is whether the condition
 * held at the last check, `last_value` what the watched quantity was then.
 */
export const watchRules = sqliteTable('watch_rules', {
  // AUTOINCREMENT: a removed rule's id is never given to a new one, so its events never name another rule.
  id: integer('id').primaryKey({ autoIncrement: true }),
  label: text('label').notNull(),
  productKey: text('product_key').notNull(),
  /** A condition key: `ungraded`, `psa10`, `bgs9.5`. */
  slot: text('slot').notNull(),
  /** `above`, `below`, `move`, `narrower`, `wider`, `stale`. */
  kind: text('kind').notNull(),
  /** Cents: the price of above/below, the interval width of narrower/wider. */
  amountMinor: integer('amount_minor'),
  /** A move's size in percent, and its direction: `up`, `down` or `either`. */
  percent: real('percent'),
  direction: text('direction'),
  /** A move's span (epoch ms). */
  spanMs: integer('span_ms'),
  /** Where this rule's events go; null: the check's --webhook. */
  webhookUrl: text('webhook_url'),
  createdAt: integer('created_at').notNull(),
  firing: integer('firing', { mode: 'boolean' }).notNull().default(false),
  lastValue: real('last_value'),
  /** When a check last changed firing or last_value (a check that changes nothing writes nothing). */
  changedAt: integer('changed_at'),
});

/**
 * The outbox of watch events: a row is written in the transaction that turns its rule's
 * `firing` on, then delivered; `status` is `pending` until its receiver answers 2xx
 * (`delivered`), or `unsent` when it had no webhook to go to.
 */
export const watchEvents = sqliteTable(
  'watch_events',
  {
    /** The event id receivers deduplicate on (`evt_` and a random UUID). */
    id: text('id').primaryKey(),
    ruleId: integer('rule_id').notNull(),
    createdAt: integer('created_at').notNull(),
    /** The JSON body POSTed, byte for byte what is signed. */
    body: text('body').notNull(),
    webhookUrl: text('webhook_url'),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastAttemptAt: integer('last_attempt_at'),
    lastError: text('last_error'),
    deliveredAt: integer('delivered_at'),
  },
  (t) => [
    index('watch_events_created_at').on(t.createdAt),
    index('watch_events_status').on(t.status, t.createdAt),
  ],
);

/**
 * Reference exchange rates (the ECB's euro foreign exchange reference rates): how many units
 * of `currency` one euro bought on `day` (YYYY-MM-DD). Observations in a currency other than
 * USD are converted with them (docs/methodology.md, "Currencies").
 */
export const fxRates = sqliteTable(
  'fx_rates',
  {
    day: text('day').notNull(),
    currency: text('currency').notNull(),
    perEuro: real('per_euro').notNull(),
    /** Who published the rate (`ecb`). */
    source: text('source').notNull(),
  },
  (t) => [uniqueIndex('fx_rates_currency_day').on(t.currency, t.day)],
);

/**
 * Market index definitions (`oracle index add`, docs/indexes.md): what picks the members
 * (`selector`: set, era, product_type, search, products; `selector_value` its argument), the
 * slot priced, the method and the base date (YYYY-MM-DD). A name is never reused: definitions
 * are not edited, so a value published under a name is always the same index's.
 */
export const marketIndexes = sqliteTable(
  'market_indexes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    label: text('label').notNull(),
    selector: text('selector').notNull(),
    selectorValue: text('selector_value').notNull(),
    slot: text('slot').notNull(),
    method: text('method').notNull(),
    baseDate: text('base_date').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('market_indexes_name').on(t.name)],
);

/**
 * Published market index values (`oracle index publish`, docs/indexes.md): one row per index,
 * instant and version. A value is never updated: a day whose recomputed value differs is
 * stored again as its next version, so every value ever published can be read back.
 * `value`, `low` and `high` are rounded to 2 decimals as shown.
 */
export const indexValues = sqliteTable(
  'index_values',
  {
    indexId: integer('index_id')
      .notNull()
      .references(() => marketIndexes.id),
    at: integer('at').notNull(),
    version: integer('version').notNull(),
    value: real('value').notNull(),
    low: real('low').notNull(),
    high: real('high').notNull(),
    priced: integer('priced').notNull(),
    linked: integer('linked').notNull(),
    publishedAt: integer('published_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.indexId, t.at, t.version] })],
);
